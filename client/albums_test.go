package client_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestAlbumsCreateEditMembersCoverDelete(t *testing.T) {
	s := servertest.Start(t)
	c, _, _ := sessionClient(t, s)
	ctx := context.Background()
	dir := t.TempDir()
	a := upload(t, c, writeJPEG(t, dir, "a.jpg", 60)).ID
	b := upload(t, c, writeJPEG(t, dir, "b.jpg", 61)).ID

	desc := "first trip"
	album, created, err := c.CreateAlbumWith(ctx, api.AlbumCreateRequest{Name: "Trip", Description: &desc})
	require.NoError(t, err)
	require.True(t, created)
	require.Equal(t, desc, album.Description)

	album, err = c.AddAlbumAssets(ctx, album.ID, []string{a, b})
	require.NoError(t, err)
	require.Equal(t, 2, album.AssetCount)
	showing, err := client.Collect(c.AlbumsWhere(ctx, client.AlbumQuery{AssetID: a}))
	require.NoError(t, err)
	require.Len(t, showing, 1)

	album, err = c.SetAlbumCover(ctx, album.ID, &b)
	require.NoError(t, err)
	require.Equal(t, b, *album.CoverAssetID)
	album, err = c.SetAlbumCover(ctx, album.ID, nil)
	require.NoError(t, err, "nil goes back to the automatic cover")

	name := "Trip 2024"
	album, err = c.UpdateAlbum(ctx, album.ID, api.AlbumUpdateRequest{Name: api.Optional[string]{Set: true, Value: &name}})
	require.NoError(t, err)
	require.Equal(t, name, album.Name)
	require.Equal(t, desc, album.Description, "an unset field stays")
	album, err = c.UpdateAlbum(ctx, album.ID, api.AlbumUpdateRequest{Description: api.Optional[string]{Set: true}})
	require.NoError(t, err)
	require.Empty(t, album.Description, "a nil description empties it")

	album, err = c.RemoveAlbumAssets(ctx, album.ID, []string{a})
	require.NoError(t, err)
	require.Equal(t, 1, album.AssetCount)

	require.NoError(t, c.DeleteAlbum(ctx, album.ID))
	_, err = c.Album(ctx, album.ID)
	require.ErrorIs(t, err, client.ErrNotFound)
	_, err = c.AddAlbumAssets(ctx, album.ID, []string{a})
	require.ErrorIs(t, err, client.ErrNotFound)
}
