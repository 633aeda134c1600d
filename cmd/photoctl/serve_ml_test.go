package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// mlModels returns the ML folder `make models` fills ($PHOTOCTL_ML_DIR, or
// .cache/ml at the module's root), skipping the test without it unless
// PHOTOCTL_ML_REQUIRED is set.
func mlModels(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".cache", "ml"))
	require.NoError(t, err)
	if d := os.Getenv("PHOTOCTL_ML_DIR"); d != "" {
		dir = d
	}
	if _, err := os.Stat(filepath.Join(dir, "models")); err != nil {
		if os.Getenv("PHOTOCTL_ML_REQUIRED") != "" {
			t.Fatalf("PHOTOCTL_ML_REQUIRED is set but the ML files are missing: %v", err)
		}
		t.Skipf("no ML files in %s; run `make models`", dir)
	}
	return dir
}

// photoctl serve started from a folder that has nothing to do with the
// checkout (an installed binary run from anywhere) finds the models beside
// its data directory, says so at start, and runs faces and OCR.
func TestServeFindsTheMLModelsBesideItsDataDirFromAnyFolder(t *testing.T) {
	models := mlModels(t)
	data := t.TempDir()
	require.NoError(t, os.Symlink(models, filepath.Join(data, "ml")))
	addr := freeAddr(t)
	s := startServeAt(t, photoctlBinary(t), t.TempDir(), binaryEnv(t),
		"--listen", addr, "--data-dir", data)
	s.waitReady(t, "http://"+addr)
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(s.stderr.String(), "ml ready") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	log := s.stderr.String()
	require.Contains(t, log, `msg="ml models dir" component=ml dir=`+filepath.Join(data, "ml")+" from=search")
	require.Contains(t, log, "ml ready", log)
	require.Contains(t, log, "faces=true ocr=true", log)
	require.NotContains(t, log, "unavailable", log)
	s.stop(t)
}
