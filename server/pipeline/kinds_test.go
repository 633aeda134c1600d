package pipeline_test

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/tasks"
)

func TestKindsChainTheSteps(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	chain := map[string][]string{}
	for _, k := range e.p.Kinds() {
		require.NotNil(t, k.Run, k.Name)
		chain[k.Name] = k.Next
	}
	require.Equal(t, map[string][]string{
		pipeline.KindMetadata:  {pipeline.KindVariants},
		pipeline.KindVariants:  {pipeline.KindBurst, pipeline.KindGeocode},
		pipeline.KindGeocode:   {pipeline.KindFaces},
		pipeline.KindMetrics:   {pipeline.KindBurst, pipeline.KindGeocode},
		pipeline.KindBurst:     nil,
		pipeline.KindFaces:     {pipeline.KindCluster},
		pipeline.KindCluster:   {pipeline.KindOCR},
		pipeline.KindOCR:       {pipeline.KindDescribe},
		pipeline.KindDescribe:  nil,
		pipeline.KindRecluster: nil,
		pipeline.KindRestack:   nil,
		pipeline.KindRegeocode: nil,
	}, chain)
	require.Equal(t, tasks.KindMetadata, pipeline.KindMetadata, "the kind an upload enqueues")
}

// runKind runs the handler of a kind on an asset, as a tasks.Runner does.
func (e *env) runKind(kind, assetID string) error {
	e.t.Helper()
	for _, k := range e.p.Kinds() {
		if k.Name == kind {
			return k.Run(e.ctx, taskFor(kind, assetID))
		}
	}
	e.t.Fatalf("no kind %q", kind)
	return nil
}

func TestAFileNoToolCanDecodeFailsForGood(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// PNG signature and header, then garbage: sniffed as PNG, refused by
	// libvips.
	path := t.TempDir() + "/broken.png"
	writeFile(t, path, append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), make([]byte, 200)...))
	a := e.upload(path, "", assets.UploadInput{})
	require.NoError(t, e.runKind(pipeline.KindMetadata, a.ID))
	err := e.runKind(pipeline.KindVariants, a.ID)
	require.Error(t, err)
	require.True(t, tasks.IsPermanent(err), "retrying cannot help: %v", err)
}

func TestATaskWithoutAnAssetFailsForGood(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, k := range e.p.Kinds() {
		if k.Name == pipeline.KindRecluster || k.Name == pipeline.KindRestack || k.Name == pipeline.KindRegeocode {
			// Library tasks: they have no asset by design, and one is
			// refused for good.
			err := k.Run(e.ctx, &catalog.Task{Kind: k.Name, LibraryID: "lib_x", AssetID: "asset_x"})
			require.True(t, tasks.IsPermanent(err), k.Name)
			continue
		}
		err := k.Run(e.ctx, &catalog.Task{Kind: k.Name, LibraryID: "lib_x"})
		require.True(t, tasks.IsPermanent(err), k.Name)
	}
}

// taskFor is a task of kind on an asset, as a tasks.Runner claims it.
func taskFor(kind, assetID string) *catalog.Task {
	return &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, time.Now()), Kind: kind, AssetID: assetID,
		State: catalog.TaskRunning, Attempts: 1}
}

// requirePermanent fails unless err is a failure the task queue must not
// retry, as the kinds' handlers classify it.
func requirePermanent(t *testing.T, err error) {
	t.Helper()
	require.True(t, tasks.IsPermanent(pipeline.Classify(err)), "want a permanent failure: %v", err)
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, b, 0o644))
}
