package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml/onnx"
)

// The start log says in one line which models dir the process uses, or
// where it looked; ml.dir wins, then the data directory's ml, then
// $XDG_DATA_HOME/photoctl/ml.
func TestOpenMLSaysWhichModelsDirItUses(t *testing.T) {
	for _, d := range onnx.SystemDirs {
		if _, err := os.Stat(d); err == nil {
			t.Skipf("%s exists on this machine: the search would end there", d)
		}
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dataDir, xdg string) (mlDir string)
		want  string // the dir the line names; "" for none found
	}{
		{"ml.dir set", func(t *testing.T, _, _ string) string { return t.TempDir() }, "ml.dir"},
		{"beside the data directory", func(t *testing.T, dataDir, xdg string) string {
			mkdirs(t, filepath.Join(dataDir, "ml"), filepath.Join(xdg, "photoctl", "ml"))
			return ""
		}, "data"},
		{"in XDG_DATA_HOME", func(t *testing.T, _, xdg string) string {
			mkdirs(t, filepath.Join(xdg, "photoctl", "ml"))
			return ""
		}, "xdg"},
		{"nowhere", func(*testing.T, string, string) string { return "" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dataDir, xdg := t.TempDir(), t.TempDir()
			t.Setenv("XDG_DATA_HOME", xdg)
			t.Chdir(t.TempDir())
			mkdirs(t, filepath.Join(".cache", "ml")) // never looked at
			c := mlDefaults()
			c.Dir = tt.setup(t, dataDir, xdg)
			var log bytes.Buffer
			_, closer, err := openML(c, dataDir, logTo(&log))
			require.NoError(t, err)
			defer closer.Close()

			want := map[string]string{"ml.dir": c.Dir, "data": filepath.Join(dataDir, "ml"),
				"xdg": filepath.Join(xdg, "photoctl", "ml")}[tt.want]
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if want != "" {
				require.Contains(t, lines[0], `msg="ml models dir"`)
				require.Contains(t, lines[0], "dir="+want+" ", log.String())
				return
			}
			require.Len(t, lines, 1, log.String())
			require.Contains(t, lines[0], "level=WARN")
			require.Contains(t, lines[0], "no models dir: looked in "+filepath.Join(dataDir, "ml")+", "+
				filepath.Join(xdg, "photoctl", "ml"))
			require.Contains(t, lines[0], strings.Join(onnx.SystemDirs, ", "))
			require.NotContains(t, lines[0], ".cache/ml", "the working directory is not searched")
		})
	}
}

// A server started from any folder finds the models in the stable places
// (here $XDG_DATA_HOME/photoctl/ml, the default data directory's ml) and
// runs faces and OCR.
func TestOpenMLFindsTheModelsFromAnotherWorkingDirectory(t *testing.T) {
	models := modelDir(t)
	xdg := t.TempDir()
	t.Setenv("XDG_DATA_HOME", xdg)
	mkdirs(t, filepath.Join(xdg, "photoctl"))
	require.NoError(t, os.Symlink(models, filepath.Join(xdg, "photoctl", "ml")))
	t.Chdir(t.TempDir())

	c := mlDefaults()
	c.Threads = 1
	var log bytes.Buffer
	tools, closer, err := openML(c, t.TempDir(), logTo(&log))
	require.NoError(t, err)
	defer closer.Close()
	require.NotNil(t, tools.Faces, log.String())
	require.NotNil(t, tools.Text, log.String())
	require.Contains(t, log.String(), "dir="+filepath.Join(xdg, "photoctl", "ml"))
	require.Contains(t, log.String(), "ml ready")
}

// mkdirs creates each folder.
func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		require.NoError(t, os.MkdirAll(d, 0o700))
	}
}
