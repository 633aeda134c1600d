package keys

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

func TestKeysCreateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *CreateOptions
	cmd := NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--action", "asset.read,library.read", "--action", "search",
		"--library", "Family archive", "--library", "lib_1", "--json", "backup"))
	require.NotNil(t, got)
	require.Equal(t, "backup", got.Name)
	require.Equal(t, []string{"asset.read", "library.read", "search"}, got.Actions)
	require.Equal(t, []string{"Family archive", "lib_1"}, got.Libraries)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)
}

func TestKeysCreateRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdCreate(f, nil) }, map[string][]string{
		"no name":        {"--action", "all"},
		"two names":      {"--action", "all", "a", "b"},
		"no action":      {"backup"},
		"unknown action": {"--action", "admin", "backup"},
	})
}

func TestKeysListParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *ListOptions
	cmd := NewCmdList(f, func(o *ListOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--name", "backup", "--library", "Family", "--order-by", "last_used_at",
		"--order", "asc"))
	require.NotNil(t, got)
	require.Equal(t, "backup", got.Name)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "last_used_at", got.OrderBy)
	require.Equal(t, "asc", got.Order)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdList(f, nil) }, map[string][]string{
		"an argument": {"extra"},
	})
}

func TestKeysDeleteParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *DeleteOptions
	cmd := NewCmdDelete(f, func(o *DeleteOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--json", "key_1", "key_2"))
	require.NotNil(t, got)
	require.Equal(t, []string{"key_1", "key_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdDelete(f, nil) }, map[string][]string{
		"no id": {},
	})
}

func TestOAuthCreateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *OAuthCreateOptions
	cmd := NewCmdOAuthCreate(f, func(o *OAuthCreateOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--public", "--redirect-uri", "http://127.0.0.1:8765/cb",
		"--scope", "asset.read,album.read", "--json", "Desktop app"))
	require.NotNil(t, got)
	require.Equal(t, api.OAuthClientCreateRequest{Name: "Desktop app", RedirectURIs: []string{"http://127.0.0.1:8765/cb"},
		Scopes: []string{"asset.read", "album.read"}, Public: true}, got.Request)
	require.True(t, got.JSON)
}

func TestOAuthCreateRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdOAuthCreate(f, nil) }, map[string][]string{
		"no name":         {"--redirect-uri", "https://x.example/cb", "--scope", "all"},
		"no redirect uri": {"--scope", "all", "Frame"},
		"no scope":        {"--redirect-uri", "https://x.example/cb", "Frame"},
		"unknown scope":   {"--redirect-uri", "https://x.example/cb", "--scope", "admin", "Frame"},
	})
}

func TestOAuthListParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *OAuthListOptions
	cmd := NewCmdOAuthList(f, func(o *OAuthListOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--json"))
	require.NotNil(t, got)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdOAuthList(f, nil) }, map[string][]string{
		"an argument": {"extra"},
	})
}

func TestOAuthRevokeParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *OAuthRevokeOptions
	cmd := NewCmdOAuthRevoke(f, func(o *OAuthRevokeOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "oauthclient_1", "oauthclient_2"))
	require.NotNil(t, got)
	require.Equal(t, []string{"oauthclient_1", "oauthclient_2"}, got.IDs)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command { return NewCmdOAuthRevoke(f, nil) }, map[string][]string{
		"no id": {},
	})
}
