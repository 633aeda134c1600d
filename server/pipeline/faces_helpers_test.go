package pipeline_test

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml/faces"
	"github.com/photoctl/photoctl/ml/ocr"
	"github.com/photoctl/photoctl/ml/onnx"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// mlDir is the ML directory of the tests (servertest.MLDir), withML a
// server running the pipeline with the ML steps on it.
var mlDir, withML = servertest.MLDir, servertest.WithML

// photo returns the path of a test photo of the ML directory.
func photo(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(mlDir(t), "photos", name)
}

// shared holds the runtime, the face analyzer and the OCR reader, opened
// once for the test binary (loading the models takes a while) for the
// pipelines tests build themselves; the process exit releases them.
var shared struct {
	once  sync.Once
	tools pipeline.ML
	err   error
}

func sharedTools(t testing.TB) pipeline.ML {
	t.Helper()
	dir := mlDir(t)
	shared.once.Do(func() {
		rt, err := onnx.Open(onnx.Config{Dir: dir})
		if err != nil {
			shared.err = err
			return
		}
		fa, err1 := faces.New(rt, faces.Config{})
		tr, err2 := ocr.New(rt, ocr.Config{})
		shared.tools, shared.err = pipeline.ML{Faces: fa, Text: tr}, errors.Join(err1, err2)
	})
	require.NoError(t, shared.err)
	return shared.tools
}

// mlPipeline returns a pipeline over e's store and tools with the ML
// steps on (the describer: built-in).
func (e *env) mlPipeline() *pipeline.Pipeline {
	e.t.Helper()
	p, err := pipeline.New(pipeline.Deps{Store: e.st, Blobs: e.blobs, Metadata: e.pool, Renderer: e.renderer,
		Geocoder: sharedGeocoder(), Embedded: e.pool, Now: time.Now, ML: sharedTools(e.t)})
	require.NoError(e.t, err)
	return p
}

// serverStore opens the database of a running test server, for what the
// API does not show (embeddings, OCR lines).
func serverStore(t testing.TB, s *servertest.Server) store.Store {
	t.Helper()
	return servertest.OpenStore(t, s.Config)
}

// states maps the asset's task kinds to their state, and their error
// texts ("" for none).
func states(tasks []api.Task) (map[string]string, map[string]string) {
	state, errs := map[string]string{}, map[string]string{}
	for _, t := range tasks {
		state[t.Kind] = t.State
		errs[t.Kind] = deref(t.Error)
	}
	return state, errs
}
