package servertest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml/onnx"
	"github.com/photoctl/photoctl/server/app"
)

// MLDir returns the ML directory `make models` fills ($PHOTOCTL_ML_DIR,
// else .cache/ml at the module root): the runtime, the models and the
// test photos (photos/). Without it the test is skipped, unless
// PHOTOCTL_ML_REQUIRED is set (`make test`): then it fails.
func MLDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("PHOTOCTL_ML_DIR")
	if dir == "" {
		_, file, _, ok := runtime.Caller(0)
		require.True(t, ok)
		dir = filepath.Join(filepath.Dir(file), "..", "..", ".cache", "ml")
	}
	dir, err := filepath.Abs(dir)
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(dir, onnx.LibraryPath())); err != nil {
		if os.Getenv("PHOTOCTL_ML_REQUIRED") != "" {
			t.Fatalf("PHOTOCTL_ML_REQUIRED is set but the ML files are missing (%v); run `make models`", err)
		}
		t.Skipf("no ML files in %s; run `make models` (set PHOTOCTL_ML_REQUIRED=1 to fail instead)", dir)
	}
	return dir
}

// WithML runs the server's pipeline (WithPipeline) with the ML steps on
// the models of MLDir.
func WithML(t testing.TB) func(*app.Config) {
	dir := MLDir(t)
	return func(c *app.Config) {
		WithPipeline(c)
		c.ML.Dir = dir
	}
}
