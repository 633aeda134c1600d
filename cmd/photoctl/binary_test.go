package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/servertest"
)

// These tests run the compiled photoctl as a user would: real process,
// real signals, real environment. The binary is built once per test run,
// on first use, into a folder TestMain removes.

const (
	binaryEmail    = "a@example.com"
	binaryPassword = "correct horse battery staple"
)

var built struct {
	once sync.Once
	dir  string // holds the binary; removed by TestMain
	path string
	err  error
}

// postgresRun is what this package runs on the PostgreSQL pass (make
// test-postgres) when no -run is given: the tests of server processes on
// that store (serve and worker binaries, crashes, the journeys, the task
// queue the CLI watches, the Immich CLI). The other tests are of the
// client: what they ask the server, server/httpapi's tests ask on both
// stores. The SQLite pass runs them all.
const postgresRun = `^(TestBinary|TestCrash|TestJourney|TestCLITasks|TestImmich)`

func TestMain(m *testing.M) {
	flag.Parse()
	if servertest.Postgres() && flag.Lookup("test.run").Value.String() == "" {
		fmt.Fprintf(os.Stderr, "cmd/photoctl on PostgreSQL: the tests of server processes (-run '%s')\n", postgresRun)
		_ = flag.Set("test.run", postgresRun)
	}
	code := servertest.Main(m) // PostgreSQL with PHOTOCTL_TEST_STORE=postgres
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// photoctlBinary returns the path of photoctl as `make build` lays it
// out, building it on the first call: the client build as photoctl, which
// hands the server commands to the full build beside it as
// photoctl-server. go test puts its own go first on PATH.
func photoctlBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the photoctl binary; skipped with -short")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "photoctl-bin-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "photoctl")
		if built.err = goBuild(filepath.Join(built.dir, serverBinaryName), nil); built.err != nil {
			return
		}
		built.err = goBuild(built.path, []string{"GOFLAGS=", "CGO_ENABLED=0"}, "-tags", "client")
	})
	require.NoError(t, built.err)
	return built.path
}

// serverBinary is the full build beside photoctlBinary.
func serverBinary(t testing.TB) string {
	return filepath.Join(filepath.Dir(photoctlBinary(t)), serverBinaryName)
}

// goBuild builds this package into out with the extra environment (which
// overrides the test's) and arguments.
func goBuild(out string, env []string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", append(append([]string{"build", "-o", out}, args...), ".")...)
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return &buildError{err: err, out: string(b)}
	}
	return nil
}

// buildError is a failed `go build` with its output.
type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

// binaryEnv is the environment of the binary: the test's own without any
// PHOTOCTL_* variable, XDG homes in fresh folders, a fresh database when the
// tests run on PostgreSQL, then extra.
func binaryEnv(t testing.TB, extra ...string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, cmdutil.EnvPrefix) && !strings.HasPrefix(kv, "XDG_") {
			env = append(env, kv)
		}
	}
	env = append(env, "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	env = append(env, servertest.DatabaseEnv(t)...) // PostgreSQL with PHOTOCTL_TEST_STORE=postgres
	return append(env, extra...)
}

// freeAddr returns a 127.0.0.1 address with a port that was free a moment ago.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// createUser runs `photoctl admin create-user` with the password on stdin.
func createUser(t testing.TB, env []string, args ...string) {
	t.Helper()
	bin := photoctlBinary(t) // build first: the time limit is for running it
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	args = append([]string{"admin", "create-user", "--email", binaryEmail, "--password-stdin"}, args...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(binaryPassword + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "stderr: %s", stderr.String())
	require.Contains(t, stdout.String(), "created user ")
}

// syncBuffer is a buffer the process writes while the test reads.
type syncBuffer = servertest.SyncBuffer

// server is a running `photoctl serve`.
type server struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	done           chan struct{} // closed when the process has exited
}

// startServe starts `photoctl serve args...`; the process is killed at the
// end of the test if it still runs.
// serveLimit is how long a server of the tests may run.
const serveLimit = 10 * time.Minute

func startServe(t testing.TB, env []string, args ...string) *server {
	t.Helper()
	return startServeAt(t, photoctlBinary(t), "", env, args...)
}

// startServeAt is startServe with another build of photoctl (bin), in the
// working directory dir ("": the test's). The server is killed after
// serveLimit at the latest: a hung server ends its test, while a slow
// machine's longest journeys (a thousand files on PostgreSQL under load)
// still finish.
func startServeAt(t testing.TB, bin, dir string, env []string, args ...string) *server {
	t.Helper()
	return startProcess(t, serveLimit, bin, dir, env, append([]string{"serve"}, args...)...)
}

// startProcess starts bin with args in the background, in the working
// directory dir ("": the test's), with env; the process is killed after
// limit, or at the end of the test if it still runs.
func startProcess(t testing.TB, limit time.Duration, bin, dir string, env []string, args ...string) *server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Dir = env, dir
	s := &server{cmd: cmd, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = s.stdout, s.stderr
	cmd.WaitDelay = 5 * time.Second
	require.NoError(t, cmd.Start())
	go func() {
		_ = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		cancel() // kills the process if it is still running
		<-s.done
	})
	return s
}

// waitReady polls GET /api/health/ping until it answers 200.
func (s *server) waitReady(t testing.TB, base string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			t.Fatalf("photoctl serve exited early (%v); stderr:\n%s", s.cmd.ProcessState, s.stderr)
		default:
		}
		resp, err := http.Get(base + "/api/health/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("photoctl serve not ready after 30s; stderr:\n%s", s.stderr)
}

// stop sends SIGTERM and requires a clean exit within 10 seconds, logged
// on stderr.
func (s *server) stop(t *testing.T) {
	t.Helper()
	s.terminate(t, 10*time.Second, "shutting down")
}

// terminate sends SIGTERM and requires the process to exit 0 within
// limit, having logged logged to stderr and written nothing to stdout.
func (s *server) terminate(t *testing.T, limit time.Duration, logged string) {
	t.Helper()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-s.done:
	case <-time.After(limit):
		t.Fatalf("%s still running %s after SIGTERM; stderr:\n%s", s.cmd.Args, limit, s.stderr)
	}
	require.Equal(t, 0, s.cmd.ProcessState.ExitCode(), "stderr:\n%s", s.stderr)
	require.Contains(t, s.stderr.String(), logged)
	require.Empty(t, s.stdout.String(), "logs go to stderr only")
}

// kill kills the process at once (a crash) and waits for it to be gone.
func (s *server) kill(t testing.TB) {
	t.Helper()
	require.NoError(t, s.cmd.Process.Kill())
	<-s.done
}

// login signs in as the user createUser made and returns the access token.
func login(t testing.TB, base string) string {
	t.Helper()
	var tokens struct {
		AccessToken string `json:"access_token"`
	}
	postJSON(t, base+"/api/auth/login", "", map[string]string{"email": binaryEmail, "password": binaryPassword},
		&tokens, http.StatusOK)
	require.NotEmpty(t, tokens.AccessToken)
	return tokens.AccessToken
}

// postJSON posts body as JSON to url, with token as the bearer when it is
// not "", requires the answer's status to be want and decodes it into out.
func postJSON(t testing.TB, url, token string, body, out any, want int) {
	t.Helper()
	data, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest("POST", url, bytes.NewReader(data))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, want, resp.StatusCode, "POST %s", url)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
}

func TestBinaryServeStopsOnSIGTERM(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "signal handling")
	t.Parallel()
	s, _, _, _ := newServedLibrary(t, binaryEnv(t))
	s.stop(t)
}

// Each request is logged with its status and duration, and, once the
// caller is known, with their user id: an admin can tell whose requests
// filled the log.
func TestBinaryServeLogsWhoMadeEachRequest(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the request log")
	t.Parallel()
	s, c, _, addr := newServedLibrary(t, binaryEnv(t))
	token := c.token
	req, err := http.NewRequest("GET", "http://"+addr+"/api/users/me", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var me struct{ ID string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&me))
	resp.Body.Close()
	require.NotEmpty(t, me.ID)
	s.stop(t)
	var line string
	for l := range strings.Lines(s.stderr.String()) {
		if strings.Contains(l, "msg=request") && strings.Contains(l, "path=/api/users/me") {
			line = l
		}
	}
	require.Contains(t, line, "status=200")
	require.Contains(t, line, "user_id="+me.ID)
}

func TestBinaryEnvironmentConfiguresServe(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "configuration from the environment")
	t.Parallel()
	dataDir, addr := t.TempDir(), freeAddr(t)
	env := binaryEnv(t, "PHOTOCTL_LISTEN="+addr, "PHOTOCTL_DATA_DIR="+dataDir)
	createUser(t, env)

	s := startServe(t, env)
	s.waitReady(t, "http://"+addr)
	login(t, "http://"+addr) // the user created in PHOTOCTL_DATA_DIR signs in
	s.stop(t)

	entries, err := os.ReadDir(dataDir)
	require.NoError(t, err)
	require.NotEmpty(t, entries, "the library lives in PHOTOCTL_DATA_DIR")
}
