package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// cliServer is a real server with one user, and the environment in which
// the compiled photoctl reaches it: fresh XDG folders, no colour.
type cliServer struct {
	*servertest.Server
	user servertest.User
	env  []string
}

func newCLIServer(t *testing.T) *cliServer {
	t.Helper()
	photoctlBinary(t) // skip early with -short
	s := servertest.Start(t)
	// The server's own database, for the worker and admin commands run
	// beside it (on PostgreSQL; on SQLite they find it in the data directory).
	env := append(binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1"), s.DatabaseEnv()...)
	return &cliServer{Server: s, user: s.CreateUser(), env: env}
}

// newCLIServerWithPhotos is newCLIServer with the CLI signed in and the
// named photos uploaded.
func newCLIServerWithPhotos(t *testing.T, names ...string) *cliServer {
	t.Helper()
	cs := newCLIServer(t)
	cs.login(t)
	cs.ok(t, "", nil, "upload", photoTree(t, names, nil))
	return cs
}

// run runs the photoctl binary with the server's environment plus extra
// variables, stdin as standard input.
func (cs *cliServer) run(t *testing.T, stdin string, extra []string, args ...string) cliResult {
	t.Helper()
	return runBinary(t, append(append([]string{}, cs.env...), extra...), stdin, args...)
}

// ok is run that requires photoctl to succeed (exit 0; a failure shows
// its stderr).
func (cs *cliServer) ok(t *testing.T, stdin string, extra []string, args ...string) cliResult {
	t.Helper()
	r := cs.run(t, stdin, extra, args...)
	require.Equal(t, exitOK, r.code, r.stderr)
	return r
}

// runBinary runs photoctl with env and returns what it printed and its
// exit code.
func runBinary(t testing.TB, env []string, stdin string, args ...string) cliResult {
	t.Helper()
	return runBinaryAt(t, photoctlBinary(t), env, stdin, args...)
}

// runBinaryAt is runBinary with another build of photoctl (bin), such as
// the client-only one.
func runBinaryAt(t testing.TB, bin string, env []string, stdin string, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return cliResult{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// login signs the server's user in through `photoctl login` (the
// profile's session is then what later runs use).
func (cs *cliServer) login(t *testing.T, extra ...string) {
	t.Helper()
	args := append([]string{"login", "--server", cs.URL, "--email", cs.user.Email, "--password-stdin"}, extra...)
	cs.ok(t, cs.user.Password+"\n", nil, args...)
}

// keyEnv creates an API key with every action and returns the variables
// that let photoctl use it without a profile.
func (cs *cliServer) keyEnv(t *testing.T) []string {
	t.Helper()
	key := cs.CreateKey(cs.Login(cs.user).AccessToken, []string{"all"}, nil)
	return []string{"PHOTOCTL_SERVER=" + cs.URL, "PHOTOCTL_API_KEY=" + key}
}

// envValue returns the value of name in env.
func envValue(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// decode parses JSON output, failing the test with it on error.
func decode[T any](t *testing.T, r cliResult) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	return v
}

// photoTree writes distinct JPEGs (and any extra files) below a new folder.
func photoTree(t *testing.T, photos []string, extra map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for i, name := range photos {
		writeFile(t, filepath.Join(dir, name), servertest.JPEG(t, 24, 24, 1000+i))
	}
	for name, data := range extra {
		writeFile(t, filepath.Join(dir, name), data)
	}
	return dir
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
}
