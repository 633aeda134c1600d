package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestBinaryAdminMigrateMovesALibraryToPostgres moves a SQLite library
// made by the binary into PostgreSQL with the binary, then serves it from
// there: the user signs in and the upload reads back. (server/store/migrate
// tests the copy of a fuller library.)
func TestBinaryAdminMigrateMovesALibraryToPostgres(t *testing.T) {
	photoctlBinary(t)
	url := servertest.PostgresURL(t)
	var env []string // the SQLite library: no PHOTOCTL_DATABASE_URL
	for _, kv := range binaryEnv(t) {
		if !strings.HasPrefix(kv, "PHOTOCTL_DATABASE_URL=") {
			env = append(env, kv)
		}
	}
	srv, c, dataDir, addr := newServedLibrary(t, env)
	data := servertest.JPEG(t, 32, 32, 7)
	id, ok := c.upload(data, "a.jpg")
	require.True(t, ok)
	srv.stop(t)

	r := runBinary(t, env, "", "admin", "migrate", "--from", "sqlite://"+dataDir, "--to", url)
	require.Equal(t, 0, r.code, r.stderr)
	require.Regexp(t, `(?m)^users\s+copied\s+1\s+1\s+[0-9a-f]{64}\s+ok$`, r.stdout)
	require.Regexp(t, `(?m)^assets\s+copied\s+1\s+1\s+[0-9a-f]{64}\s+ok$`, r.stdout)
	require.NotContains(t, r.stdout, "DIFFERS")

	r = runBinary(t, env, "", "admin", "migrate", "--from", "sqlite://"+dataDir, "--to", url, "--verify", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, `"table": "assets"`)
	require.NotContains(t, r.stdout, `"verified": false`)

	r = runBinary(t, env, "", "admin", "migrate", "--from", "sqlite://"+dataDir, "--to", url)
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, "target database is not empty")

	r = runBinary(t, env, "", "admin", "migrate", "--from", "sqlite://"+dataDir)
	require.Equal(t, exitUsage, r.code, r.stderr)

	srv = c.serve(t, append(env, "PHOTOCTL_DATABASE_URL="+url), "--listen", addr, "--data-dir", dataDir)
	c.requireOriginal(t, id, data)
	srv.stop(t)
}
