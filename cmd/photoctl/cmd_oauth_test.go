package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestCLIOAuthClients(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)

	t.Run("a user who is not an administrator is refused", func(t *testing.T) {
		cs.login(t)
		r := cs.run(t, "", nil, "admin", "oauth-clients", "list")
		require.Equal(t, exitAuth, r.code, r.stderr)
	})

	admin := servertest.User{Email: "root@example.com", Password: "correct horse battery"}
	_, err := cs.App().CreateUser(context.Background(), app.NewUser{Email: admin.Email, Password: admin.Password, Superuser: true})
	require.NoError(t, err)
	r := cs.ok(t, admin.Password+"\n", nil, "login", "--server", cs.URL, "--email", admin.Email, "--password-stdin")

	r = cs.run(t, "", nil, "admin", "oauth-clients", "create",
		"--redirect-uri", "https://frame.example.com/cb", "--scope", "asset.read", "--scope", "album.read", "--json", "Photo frame")
	require.Equal(t, exitOK, r.code, r.stderr)
	created := decode[api.OAuthClientCreated](t, r)
	require.Regexp(t, `^oauthclient_`, created.ID)
	require.Regexp(t, `^oauthsecret_`, created.ClientSecret)
	require.Equal(t, []string{"asset.read", "album.read"}, created.Scopes)

	r = cs.run(t, "", nil, "admin", "oauth-clients", "create", "--public",
		"--redirect-uri", "http://127.0.0.1:8765/cb", "--scope", "all", "Desktop")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "client_id: oauthclient_")
	require.NotContains(t, r.stdout, "client_secret")

	r = cs.run(t, "", nil, "admin", "oauth-clients", "create", "--redirect-uri", "https://x.example/cb", "--scope", "admin", "Bad")
	require.Equal(t, exitUsage, r.code, "an unknown scope is a usage error: %s", r.stderr)

	r = cs.ok(t, "", nil, "admin", "oauth-clients", "revoke", created.ID)

	list := decode[[]api.OAuthClient](t, cs.run(t, "", nil, "admin", "oauth-clients", "list", "--json"))
	require.Len(t, list, 2)
	require.Equal(t, "Desktop", list[0].Name, "newest first")
	require.True(t, list[0].Public)
	require.Equal(t, created.ID, list[1].ID)
	require.NotNil(t, list[1].RevokedAt)
	require.NotContains(t, cs.run(t, "", nil, "admin", "oauth-clients", "list").stdout, created.ClientSecret)
}
