package main

import (
	"debug/elf"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// These tests build photoctl the other ways a user may: without the
// sqlite_fts5 tag (a plain `go install`), and the client-only build.
// Each goes into the test's own folder; the Go build cache makes the
// second run cheap.

// buildPhotoctl builds this package with the extra environment (which
// overrides the test's: GOFLAGS=, CGO_ENABLED=0) and arguments, and
// returns the binary's path.
func buildPhotoctl(t *testing.T, env []string, args ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs photoctl; skipped with -short")
	}
	out := filepath.Join(t.TempDir(), "photoctl")
	require.NoError(t, goBuild(out, env, args...))
	return out
}

// sqliteEnv is binaryEnv on the SQLite store whatever store the tests run
// on (an empty database.url is the data directory's SQLite file).
func sqliteEnv(t *testing.T) []string {
	return binaryEnv(t, "PHOTOCTL_DATABASE_URL=")
}

// A photoctl built without FTS5 (`go install ./cmd/photoctl`) cannot
// create its SQLite database: every command that opens it says how to
// build one that can, in one line, before creating anything. The client
// commands, --version and PostgreSQL do not need FTS5.
func TestFTSlessBuildRefusesToOpenTheSQLiteStore(t *testing.T) {
	t.Parallel()
	// It picks its stores itself (SQLite, and a PostgreSQL database of its
	// own): the PostgreSQL pass would build and run the same again.
	servertest.SkipOnPostgres(t, "chooses SQLite and PostgreSQL itself; the SQLite pass runs both")
	bin := buildPhotoctl(t, []string{"GOFLAGS=", "CGO_ENABLED=1"})

	r := runBinaryAt(t, bin, sqliteEnv(t), "", "--version")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "photoctl version")

	for _, args := range [][]string{
		{"serve", "--listen", "127.0.0.1:0"},
		{"worker"},
		{"admin", "create-user", "--email", binaryEmail, "--password-stdin"},
	} {
		t.Run(args[0], func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "library")
			start := time.Now()
			r := runBinaryAt(t, bin, sqliteEnv(t), binaryPassword+"\n", append(args, "--data-dir", data)...)
			require.Less(t, time.Since(start), 10*time.Second, "it stops at once")
			require.Equal(t, exitFailure, r.code, r.stderr)
			require.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
			require.Contains(t, r.stderr, "built without SQLite FTS5")
			require.Contains(t, r.stderr, "`make build`")
			require.Contains(t, r.stderr, "`go install -tags sqlite_fts5 ./cmd/photoctl`")
			require.Empty(t, r.stdout)
			_, err := os.Stat(data)
			require.True(t, errors.Is(err, fs.ErrNotExist), "the data directory was created: %v", err)
		})
	}

	t.Run("a client command", func(t *testing.T) {
		r := runBinaryAt(t, bin, sqliteEnv(t), "", "ls", "--help")
		require.Equal(t, exitOK, r.code, r.stderr)
	})

	t.Run("serve on PostgreSQL", func(t *testing.T) {
		url := servertest.PostgresURL(t) // skips without PostgreSQL
		addr := freeAddr(t)
		s := startServeAt(t, bin, "", binaryEnv(t, "PHOTOCTL_DATABASE_URL="+url),
			"--listen", addr, "--data-dir", t.TempDir())
		s.waitReady(t, "http://"+addr)
		s.stop(t)
	})
}

// photoctl as `make build` lays it out is the client build: libvips,
// SQLite and fiber left out, a static binary whose client commands work
// against a real server and whose server commands run photoctl-server,
// found beside it (through a symbolic link too) or on PATH. Every other
// binary test in this package goes through the same hand-over.
func TestPhotoctlIsTheClientBuildAndHandsServerCommandsOn(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the two builds of the binary")
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs photoctl; skipped with -short")
	}
	cmd := exec.Command("go", "list", "-deps", "-tags", "client", ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=0")
	deps, err := cmd.Output()
	require.NoError(t, err)
	for _, heavy := range []string{"github.com/davidbyttow/govips", "github.com/mattn/go-sqlite3", "github.com/gofiber/fiber",
		"github.com/photoctl/photoctl/server/app", "github.com/photoctl/photoctl/server/store"} {
		require.NotContains(t, string(deps), heavy+"\n", "the client build imports %s", heavy)
	}

	bin := photoctlBinary(t)
	f, err := elf.Open(bin)
	require.NoError(t, err)
	libs, err := f.ImportedLibraries()
	require.NoError(t, f.Close())
	require.NoError(t, err)
	require.Empty(t, libs, "a static binary loads no shared library")

	env := binaryEnv(t, "NO_COLOR=1")
	r := runBinaryAt(t, bin, env, "", "--version")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "photoctl version")
	r = runBinaryAt(t, bin, env, "", "--help")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "serve ", "the help lists the server commands")
	require.NotContains(t, r.stdout, genDocsCommandName)

	// Alone, with nothing on PATH: the server commands say what is missing.
	alone := filepath.Join(t.TempDir(), "photoctl")
	require.NoError(t, os.Link(bin, alone))
	noPath := append(slices.Clone(env), "PATH=/nonexistent")
	r = runBinaryAt(t, alone, noPath, "", "serve")
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Equal(t, "photoctl: serve runs in photoctl-server, which is neither beside photoctl nor on PATH; "+
		"install both with 'make install' (or build everything into one binary with go install -tags sqlite_fts5 ./cmd/photoctl)\n", r.stderr)
	r = runBinaryAt(t, alone, append(noPath, "PHOTOCTL_SERVER_BINARY="+filepath.Dir(alone)), "", "admin", "--help")
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Contains(t, r.stderr, "cannot run PHOTOCTL_SERVER_BINARY=")
	// Named by the variable, found on PATH, or beside a symbolic link's target.
	r = runBinaryAt(t, alone, append(noPath, "PHOTOCTL_SERVER_BINARY="+serverBinary(t)), "", "admin", "--help")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "create-user")
	r = runBinaryAt(t, alone, append(slices.Clone(env), "PATH="+filepath.Dir(bin)), "", "serve", "--help")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "--listen")
	link := filepath.Join(t.TempDir(), "photoctl")
	require.NoError(t, os.Symlink(bin, link))
	// Global flags before the command go along.
	conf := filepath.Join(t.TempDir(), "photoctl.toml")
	writeFile(t, conf, []byte("data_dir = \"/srv/photos\"\n"))
	r = runBinaryAt(t, link, noPath, "", "--config", conf, "config", "show", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, `"/srv/photos"`)
	// The server's exit status comes back as it is: a bad flag is a usage error.
	r = runBinaryAt(t, link, noPath, "", "serve", "--no-such-flag")
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Contains(t, r.stderr, "no-such-flag")

	cs := newCLIServer(t)
	env = append(append([]string{}, cs.env...), cs.keyEnv(t)...)
	r = runBinaryAt(t, bin, env, "", "whoami")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, cs.user.Email)
	r = runBinaryAt(t, bin, env, "", "ls", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)

	// Signing in with a password keeps a profile.
	r = runBinaryAt(t, bin, cs.env, cs.user.Password+"\n", "login", "--server", cs.URL, "--email", cs.user.Email, "--password-stdin")
	require.Equal(t, exitOK, r.code, r.stderr)
	r = runBinaryAt(t, bin, cs.env, "", "whoami")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, cs.user.Email)
}

// The client build's help lists the server commands as the full build
// has them.
func TestServerCommandSummariesMatchTheCommands(t *testing.T) {
	var got []serverCommandSummary
	for _, c := range serverCommands(newFactory()) {
		got = append(got, serverCommandSummary{name: c.Name, usage: c.Usage, hidden: c.Hidden})
	}
	require.Equal(t, serverCommandSummaries, got)
}
