package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/auth"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

func TestCLILoginWhoamiProfilesLogout(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	cs.login(t)

	creds := filepath.Join(envValue(cs.env, "XDG_CONFIG_HOME"), "photoctl", cmdutil.CredentialsFileName)
	fi, err := os.Stat(creds)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "credentials are private")

	r := cs.ok(t, "", nil, "whoami", "--json")
	who := decode[auth.LoginJSON](t, r)
	require.Equal(t, cs.user.Email, who.User.Email)
	require.Equal(t, "session", who.Credential)
	require.Equal(t, cmdutil.DefaultProfile, who.Profile)
	require.Equal(t, cs.URL, who.Server)

	// A second profile for the same server, by API key; it becomes current.
	key := cs.CreateKey(cs.Login(cs.user).AccessToken, []string{"all"}, nil)
	r = cs.ok(t, "", nil, "login", "--server", cs.URL, "--api-key", key, "--profile", "ci")
	list := decode[[]auth.ProfileJSON](t, cs.run(t, "", nil, "profiles", "list", "--json"))
	require.Len(t, list, 2)
	require.Equal(t, "ci", list[0].Name)
	require.True(t, list[0].Current)
	require.Equal(t, "api_key", list[0].Credential)
	data, err := os.ReadFile(creds)
	require.NoError(t, err)
	require.Contains(t, string(data), key, "the key is saved...")
	require.NotContains(t, cs.run(t, "", nil, "profiles", "list").stdout, key, "...but never printed")

	r = cs.ok(t, "", nil, "profiles", "use", cmdutil.DefaultProfile)
	r = cs.ok(t, "", nil, "logout")
	require.Contains(t, r.stdout, "Signed out of")
	r = cs.run(t, "", nil, "whoami")
	require.Equal(t, exitAuth, r.code, "signed out: %s", r.stderr)
	require.Contains(t, r.stderr, "photoctl login")

	// The other profile still works, named explicitly.
	r = cs.ok(t, "", nil, "whoami", "--profile", "ci")
}

func TestCLIWrongPasswordExits4(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	r := cs.run(t, "wrong\n", nil, "login", "--server", cs.URL, "--email", cs.user.Email, "--password-stdin")
	require.Equal(t, exitAuth, r.code, r.stderr)
	require.Contains(t, r.stderr, "401")
}

func TestCLIEnvironmentAloneIsEnough(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	r := cs.ok(t, "", env, "whoami", "--json")
	require.Equal(t, "api_key", decode[auth.LoginJSON](t, r).Credential)
	r = cs.ok(t, "", env, "ls", "--json")
	require.Empty(t, decode[[]api.Asset](t, r))
	_, err := os.Stat(filepath.Join(envValue(cs.env, "XDG_CONFIG_HOME"), "photoctl", cmdutil.CredentialsFileName))
	require.ErrorIs(t, err, os.ErrNotExist, "scripts leave no profile behind")

	// The same with flags, after the command name.
	key := envValue(env, "PHOTOCTL_API_KEY")
	r = cs.ok(t, "", nil, "ls", "--server", cs.URL, "--api-key", key)
	// And before it.
	r = cs.ok(t, "", nil, "--server", cs.URL, "--api-key", key, "whoami")
	require.Contains(t, r.stdout, cs.user.Email)
}

func TestCLIExitCodes(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	tests := []struct {
		name   string
		env    []string
		args   []string
		code   int
		stderr string
	}{
		{"no server is a usage error", nil, []string{"ls"}, exitUsage, "no server"},
		{"a server without a credential is an auth error", []string{"PHOTOCTL_SERVER=" + cs.URL}, []string{"ls"}, exitAuth, "not signed in"},
		{"a revoked key is an auth error", []string{"PHOTOCTL_SERVER=" + cs.URL, "PHOTOCTL_API_KEY=apikey_nope"}, []string{"ls"}, exitAuth, "401"},
		{"an unknown flag is a usage error", env, []string{"ls", "--bogus"}, exitUsage, "bogus"},
		{"a filter the server refuses is a usage error", env, []string{"ls", "--after", "yesterday"}, exitUsage, "422"},
		{"an unknown asset is a failure", env, []string{"get", "asset_01aaaaaaaaaaaaaaaaaaaaaaaa"}, exitFailure, "404"},
		{"a server address without a scheme is a usage error", []string{"PHOTOCTL_SERVER=localhost:1"}, []string{"ls"}, exitUsage, "http://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cs.run(t, "", tt.env, tt.args...)
			require.Equal(t, tt.code, r.code, "stderr: %s", r.stderr)
			require.Contains(t, strings.ToLower(r.stderr), strings.ToLower(tt.stderr))
		})
	}
}
