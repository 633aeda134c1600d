package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// runPhotoctl runs the binary and returns its stdout, stderr and exit code.
func runPhotoctl(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, photoctlBinary(t), args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return stdout.String(), stderr.String(), code
}

// TestBinaryBackupBesideServeAndRestore backs up the data directory of a
// running `photoctl serve` with `photoctl admin backup`, restores it with
// `photoctl admin restore` (refusing a non-empty directory) and serves the
// restored library.
func TestBinaryBackupBesideServeAndRestore(t *testing.T) {
	servertest.SkipOnPostgres(t, "admin backup snapshots the SQLite file (a PostgreSQL library is backed up with pg_dump)")
	photoctlBinary(t)
	env := binaryEnv(t)
	srv, c, dataDir, addr := newServedLibrary(t, env)
	data := servertest.JPEG(t, 32, 32, 7)
	id, ok := c.upload(data, "a.jpg")
	require.True(t, ok)

	bdir := filepath.Join(t.TempDir(), "backup")
	out, stderr, code := runPhotoctl(t, env, "admin", "backup", "--data-dir", dataDir, "--json", bdir)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	var st struct{ Files, Copied int }
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	require.GreaterOrEqual(t, st.Copied, 1)
	srv.stop(t)

	_, stderr, code = runPhotoctl(t, env, "admin", "restore", "--data-dir", dataDir, bdir)
	require.NotEqual(t, 0, code)
	require.Contains(t, stderr, "not empty")

	restored := filepath.Join(t.TempDir(), "restored")
	out, stderr, code = runPhotoctl(t, env, "admin", "restore", "--data-dir", restored, bdir)
	require.Equal(t, 0, code, "stderr: %s", stderr)
	require.Contains(t, out, "restored ")
	_, err := os.Stat(filepath.Join(restored, "photoctl.db"))
	require.NoError(t, err)

	srv = c.serve(t, env, "--listen", addr, "--data-dir", restored)
	c.requireOriginal(t, id, data)
	srv.stop(t)
}
