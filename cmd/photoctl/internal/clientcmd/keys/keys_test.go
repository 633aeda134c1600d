package keys

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/server/api"
)

func TestKeysCreateParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdCreate, "", "--action", "asset.read,library.read", "--action", "search",
		"--library", "Family archive", "--library", "lib_1", "--json", "backup")
	require.Equal(t, "backup", got.Name)
	require.Equal(t, []string{"asset.read", "library.read", "search"}, got.Actions)
	require.Equal(t, []string{"Family archive", "lib_1"}, got.Libraries)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)
}

func TestKeysCreateRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdCreate), map[string][]string{
		"no name":        {"--action", "all"},
		"two names":      {"--action", "all", "a", "b"},
		"no action":      {"backup"},
		"unknown action": {"--action", "admin", "backup"},
	})
}

func TestKeysListParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdList, "", "--name", "backup", "--library", "Family", "--order-by", "last_used_at",
		"--order", "asc")
	require.Equal(t, "backup", got.Name)
	require.Equal(t, "Family", got.Library)
	require.Equal(t, "last_used_at", got.OrderBy)
	require.Equal(t, "asc", got.Order)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdList), map[string][]string{
		"an argument": {"extra"},
	})
}

func TestKeysDeleteParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdDelete, "", "--json", "key_1", "key_2")
	require.Equal(t, []string{"key_1", "key_2"}, got.IDs)
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdDelete), map[string][]string{
		"no id": {},
	})
}

func TestOAuthCreateParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdOAuthCreate, "", "--public", "--redirect-uri", "http://127.0.0.1:8765/cb",
		"--scope", "asset.read,album.read", "--json", "Desktop app")
	require.Equal(t, api.OAuthClientCreateRequest{Name: "Desktop app", RedirectURIs: []string{"http://127.0.0.1:8765/cb"},
		Scopes: []string{"asset.read", "album.read"}, Public: true}, got.Request)
	require.True(t, got.JSON)
}

func TestOAuthCreateRefusesBadCommandLines(t *testing.T) {
	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdOAuthCreate), map[string][]string{
		"no name":         {"--redirect-uri", "https://x.example/cb", "--scope", "all"},
		"no redirect uri": {"--scope", "all", "Frame"},
		"no scope":        {"--redirect-uri", "https://x.example/cb", "Frame"},
		"unknown scope":   {"--redirect-uri", "https://x.example/cb", "--scope", "admin", "Frame"},
	})
}

func TestOAuthListParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdOAuthList, "", "--json")
	require.True(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdOAuthList), map[string][]string{
		"an argument": {"extra"},
	})
}

func TestOAuthRevokeParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdOAuthRevoke, "", "oauthclient_1", "oauthclient_2")
	require.Equal(t, []string{"oauthclient_1", "oauthclient_2"}, got.IDs)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdOAuthRevoke), map[string][]string{
		"no id": {},
	})
}
