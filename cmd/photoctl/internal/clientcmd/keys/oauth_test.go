package keys

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

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
