package auth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// saveProfiles writes a credentials file with these profiles (name →
// server), the first one current.
func saveProfiles(t *testing.T, names ...string) *cmdutil.CredentialsStore {
	store, err := cmdutil.NewCredentialsStore()
	require.NoError(t, err)
	require.NoError(t, store.Update(func(p *cmdutil.CredentialsFile) error {
		for _, name := range names {
			p.Profiles[name] = &cmdutil.Profile{Server: "http://" + name + ".example.com"}
		}
		p.Current = names[0]
		return nil
	}))
	return store
}

func TestLoginParsesItsOptions(t *testing.T) {
	cmdtest.Isolate(t)
	got := cmdtest.Parse(t, NewCmdLogin, "s3cret\r\nignored\n", "--server", "http://127.0.0.1:2283/", "--email", "you@example.com",
		"--password-stdin", "--profile", "home", "--json")
	require.Equal(t, "http://127.0.0.1:2283", got.Server)
	require.Equal(t, "home", got.Profile)
	require.Equal(t, "you@example.com", got.Email)
	require.Equal(t, "s3cret", got.Password, "the first line of standard input")
	require.Empty(t, got.APIKey)
	require.True(t, got.JSON)
	require.False(t, got.OIDC)
	require.NotNil(t, got.Store)
	require.NotNil(t, got.IO)

	got = cmdtest.Parse(t, NewCmdLogin, "", "--server", "https://photos.example.com", "--api-key", "apikey_1")
	require.Equal(t, "apikey_1", got.APIKey)
	require.Equal(t, cmdutil.DefaultProfile, got.Profile, "no profile and none current")
	require.Empty(t, got.Password, "an API key needs no password")

	got = cmdtest.Parse(t, NewCmdLogin, "", "--server", "https://photos.example.com", "--oidc", "--no-browser")
	require.True(t, got.OIDC)
	require.True(t, got.NoBrowser)
	require.Empty(t, got.Email)
}

func TestLoginTakesTheServerOfTheProfile(t *testing.T) {
	cmdtest.Isolate(t)
	saveProfiles(t, "home", "work")
	got := cmdtest.Parse(t, NewCmdLogin, "pw\n", "--profile", "work", "--email", "you@example.com", "--password-stdin")
	require.Equal(t, "work", got.Profile)
	require.Equal(t, "http://work.example.com", got.Server)
}

func TestLoginRefusesBadCommandLines(t *testing.T) {
	cmdtest.Isolate(t)
	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdLogin), map[string][]string{
		"an argument":         {"--server", "http://127.0.0.1:2283", "--api-key", "k", "extra"},
		"no server":           {"--api-key", "k"},
		"oidc and an e-mail":  {"--server", "http://127.0.0.1:2283", "--oidc", "--email", "you@example.com"},
		"oidc and a key":      {"--server", "http://127.0.0.1:2283", "--oidc", "--api-key", "k"},
		"no e-mail, no tty":   {"--server", "http://127.0.0.1:2283", "--password-stdin"},
		"no password, no tty": {"--server", "http://127.0.0.1:2283", "--email", "you@example.com"},
		"an empty password":   {"--server", "http://127.0.0.1:2283", "--email", "you@example.com", "--password-stdin"},
	})
}

func TestLogoutParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdLogout, "", "--json")
	require.True(t, got.JSON)
	require.Equal(t, "photoctl logout", got.Help)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdLogout), map[string][]string{"an argument": {"home"}})
}

func TestWhoamiParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdWhoami, "")
	require.False(t, got.JSON)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdWhoami), map[string][]string{"an argument": {"me"}})
}

func TestProfilesListParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdProfilesList, "", "--json")
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdProfilesList), map[string][]string{"an argument": {"home"}})
}

func TestProfilesUseAndRemoveParseTheirOptions(t *testing.T) {
	for name, newCmd := range map[string]func(*cmdutil.Factory, func(*ProfileOptions) error) *cli.Command{
		"use": NewCmdProfilesUse, "remove": NewCmdProfilesRemove,
	} {
		t.Run(name, func(t *testing.T) {
			got := cmdtest.Parse(t, newCmd, "", "home")
			require.Equal(t, "home", got.Name)
			require.Equal(t, "photoctl "+name, got.Help)

			cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(newCmd), map[string][]string{"no name": {}, "two names": {"a", "b"}})
		})
	}
}

func TestProfilesUseAndRemoveChangeTheCredentialsFile(t *testing.T) {
	cmdtest.Isolate(t)
	store := saveProfiles(t, "home", "work")
	f, _ := cmdtest.NewFactory(t, "")

	require.NoError(t, cmdtest.Run(t, NewCmdProfilesUse(f, nil), "work"))
	file, err := store.Load()
	require.NoError(t, err)
	require.Equal(t, "work", file.Current)

	require.NoError(t, cmdtest.Run(t, NewCmdProfilesRemove(f, nil), "work"))
	file, err = store.Load()
	require.NoError(t, err)
	require.Equal(t, "", file.Current, "the current profile went")
	require.Equal(t, []string{"home"}, file.Names())

	var usageErr *cmdutil.UsageError
	require.ErrorAs(t, cmdtest.Run(t, NewCmdProfilesUse(f, nil), "gone"), &usageErr)
	require.Equal(t, "photoctl use", usageErr.Help)
	require.FileExists(t, filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "photoctl", cmdutil.CredentialsFileName))
}
