package client_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

type appConfig = app.Config

func TestLibrariesCreateAndList(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	lib, created, err := c.CreateLibrary(ctx, "Travel")
	require.NoError(t, err)
	require.True(t, created)
	again, created, err := c.CreateLibrary(ctx, "travel ")
	require.NoError(t, err)
	require.False(t, created, "named create matches")
	require.Equal(t, lib.ID, again.ID)
	libs, err := client.Collect(c.Libraries(ctx))
	require.NoError(t, err)
	require.Len(t, libs, 2)
}

func TestAPIKeysCreateListDelete(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	k, err := c.CreateAPIKey(ctx, "backup", api.APIKeyScope{Actions: []string{"asset.read"}})
	require.NoError(t, err)
	require.Contains(t, k.Secret, "apikey_")
	keys, err := client.Collect(c.APIKeys(ctx, client.APIKeyQuery{Name: "back"}))
	require.NoError(t, err)
	require.Len(t, keys, 1)

	// The key works, and cannot manage keys (session only: 403).
	kc := newClient(t, client.Options{Server: s.URL, APIKey: k.Secret})
	_, err = client.Collect(kc.Assets(ctx, client.AssetQuery{}, 0))
	require.NoError(t, err)
	_, err = client.Collect(kc.APIKeys(ctx, client.APIKeyQuery{}))
	require.ErrorIs(t, err, client.ErrForbidden)

	require.NoError(t, c.DeleteAPIKey(ctx, k.ID))
	_, err = kc.Me(ctx)
	require.ErrorIs(t, err, client.ErrUnauthenticated)
}

func TestEventsFollowTheFeedFromACursor(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	dir := t.TempDir()
	upload(t, c, writeJPEG(t, dir, "j.jpg", 50))
	evs, err := client.Collect(c.Events(ctx, "", ""))
	require.NoError(t, err)
	require.NotEmpty(t, evs)
	last := evs[len(evs)-1].ID

	upload(t, c, writeJPEG(t, dir, "k.jpg", 51))
	more, err := client.Collect(c.Events(ctx, "", last))
	require.NoError(t, err)
	require.Len(t, more, 1)
	require.Equal(t, "asset.created", more[0].Type)
}
