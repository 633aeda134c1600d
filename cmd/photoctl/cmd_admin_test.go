package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/servercmd"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest"
)

// userRecorder stubs app.CreateUser and remembers what it was asked.
type userRecorder struct {
	calls int
	cfg   app.Config
	user  app.NewUser
	err   error
}

func (r *userRecorder) factory(t *testing.T) *factory {
	f := stubFactory(t)
	f.server.CreateUser = func(_ context.Context, cfg app.Config, u app.NewUser) (*catalog.User, error) {
		r.calls++
		r.cfg, r.user = cfg, u
		if r.err != nil {
			return nil, r.err
		}
		return &catalog.User{ID: "intuser_01hzx", Email: u.Email, IsSuperuser: u.Superuser}, nil
	}
	return f
}

func TestCreateUserPrintsTheNewUser(t *testing.T) {
	isolate(t)
	rec := &userRecorder{}
	dir := t.TempDir()
	r := runCLI(t, rec.factory(t), "", "admin", "create-user", "--data-dir", dir,
		"--email", "ada@example.com", "--password", "s3cret", "--first-name", "Ada", "--last-name", "Lovelace")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Equal(t, "created user intuser_01hzx (ada@example.com)\n", r.stdout)
	require.Empty(t, r.stderr)
	require.Equal(t, dir, rec.cfg.DataDir)
	require.Equal(t, app.NewUser{Email: "ada@example.com", Password: "s3cret", FirstName: "Ada", LastName: "Lovelace"}, rec.user)
}

func TestCreateUserJSON(t *testing.T) {
	isolate(t)
	rec := &userRecorder{}
	r := runCLI(t, rec.factory(t), "", "admin", "create-user", "--email", "root@example.com",
		"--password", "pw", "--superuser", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	require.Equal(t, map[string]any{"id": "intuser_01hzx", "email": "root@example.com", "is_superuser": true}, got)
}

func TestCreateUserPasswordSources(t *testing.T) {
	tests := []struct {
		name  string
		env   string
		stdin string
		args  []string
		want  string
	}{
		{name: "from the flag", args: []string{"--password", "flag-pw"}, want: "flag-pw"},
		{name: "from the environment", env: "env-pw", want: "env-pw"},
		{name: "the flag wins over the environment", env: "env-pw", args: []string{"--password", "flag-pw"}, want: "flag-pw"},
		{name: "the first line of stdin", stdin: "stdin pw\nsecond line\n", args: []string{"--password-stdin"}, want: "stdin pw"},
		{name: "stdin with CRLF", stdin: "crlf-pw\r\n", args: []string{"--password-stdin"}, want: "crlf-pw"},
		{name: "stdin wins over the environment", env: "env-pw", stdin: "stdin-pw", args: []string{"--password-stdin"}, want: "stdin-pw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			if tt.env != "" {
				t.Setenv(servercmd.AdminPasswordEnv, tt.env)
			}
			rec := &userRecorder{}
			args := append([]string{"admin", "create-user", "--email", "a@example.com"}, tt.args...)
			r := runCLI(t, rec.factory(t), tt.stdin, args...)
			require.Equal(t, exitOK, r.code, r.stderr)
			require.Equal(t, tt.want, rec.user.Password)
		})
	}
}

func TestCreateUserUsageErrors(t *testing.T) {
	tests := []struct {
		name       string
		stdin      string
		args       []string
		wantStderr string
	}{
		{name: "no email", args: []string{"--password", "pw"}, wantStderr: "--email is required"},
		{name: "no password", args: []string{"--email", "a@example.com"}, wantStderr: "a password is required"},
		{name: "empty stdin", args: []string{"--email", "a@example.com", "--password-stdin"}, wantStderr: "standard input is empty"},
		{name: "two password sources", stdin: "pw", args: []string{"--email", "a@example.com", "--password", "pw", "--password-stdin"}, wantStderr: "cannot be used together"},
		{name: "a bad data dir config", args: []string{"--email", "a@example.com", "--password", "pw", "--data-dir", " "}, wantStderr: "data_dir must be set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			rec := &userRecorder{}
			r := runCLI(t, rec.factory(t), tt.stdin, append([]string{"admin", "create-user"}, tt.args...)...)
			require.Equal(t, exitUsage, r.code, r.stderr)
			require.Contains(t, r.stderr, tt.wantStderr)
			if !strings.Contains(tt.wantStderr, "data_dir") { // config errors carry no help hint
				require.Contains(t, r.stderr, "Run 'photoctl admin create-user --help' for usage.")
			}
			require.Empty(t, r.stdout)
			require.Zero(t, rec.calls)
		})
	}
}

func TestCreateUserFailureIsReportedOnce(t *testing.T) {
	isolate(t)
	rec := &userRecorder{err: fmt.Errorf("email taken: %w", catalog.ErrConflict)}
	r := runCLI(t, rec.factory(t), "", "admin", "create-user", "--email", "a@example.com", "--password", "pw")
	require.Equal(t, exitFailure, r.code)
	require.Equal(t, "photoctl: create user a@example.com: email taken: conflict\n", r.stderr)
	require.Empty(t, r.stdout)
}

func TestBinaryAdminMigrateCreatesAndKeepsTheSchema(t *testing.T) {
	dataDir := t.TempDir()
	env := binaryEnv(t)
	for range 2 { // the second run finds nothing to do
		r := runBinary(t, env, "", "admin", "migrate", "--data-dir", dataDir)
		require.Equal(t, 0, r.code, r.stderr)
		require.Equal(t, "the database schema is up to date\n", r.stdout)
	}
	if !servertest.Postgres() { // on PostgreSQL the schema is in PHOTOCTL_DATABASE_URL's database
		require.FileExists(t, filepath.Join(dataDir, "photoctl.db"))
	}
	// The migrated database serves at once.
	createUser(t, env, "--data-dir", dataDir)
}

// TestBinaryAdminRemeasureQueuesNothingOnAFreshLibrary: the command opens
// the store and reports what it queued (server/httpapi's
// TestSearchByImageFindsCropsOnceRemeasured covers an asset it queues).
func TestBinaryAdminRemeasureQueuesNothingOnAFreshLibrary(t *testing.T) {
	dataDir := t.TempDir()
	env := binaryEnv(t)
	createUser(t, env, "--data-dir", dataDir)
	r := runBinary(t, env, "", "admin", "remeasure", "--data-dir", dataDir)
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "queued 0 metrics tasks\n", r.stdout)
	r = runBinary(t, env, "", "admin", "remeasure", "--data-dir", dataDir, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	require.JSONEq(t, `{"tasks": 0}`, r.stdout)
}
