package immichapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// immichAlbum holds the album fields the clients read.
type immichAlbum struct {
	ID          string `json:"id"`
	AlbumName   string `json:"albumName"`
	Description string `json:"description"`
	OwnerID     string `json:"ownerId"`
	AssetCount  int    `json:"assetCount"`
	Assets      []struct {
		ID       string `json:"id"`
		OwnerID  string `json:"ownerId"`
		Checksum string `json:"checksum"`
	} `json:"assets"`
}

func TestImmichAlbums(t *testing.T) {
	c, u, session := newImmich(t)
	a1 := c.uploadNew("a.jpg", servertest.JPEG(t, 16, 16, 1))
	a2 := c.uploadNew("b.jpg", servertest.JPEG(t, 16, 16, 2))

	var created immichAlbum
	c.ok(201, "POST", "/api/albums", map[string]any{"albumName": "Holidays", "description": "sea"}, &created)
	require.Equal(t, "Holidays", created.AlbumName)
	require.Equal(t, "sea", created.Description)
	require.Equal(t, u.ID, created.OwnerID)

	t.Run("it is an ordinary album", func(t *testing.T) {
		r := c.s.Do("GET", "/api/albums/"+created.ID, session, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	})
	t.Run("creating the same name again answers the same album", func(t *testing.T) {
		var again immichAlbum
		c.ok(201, "POST", "/api/albums", map[string]any{"albumName": "Holidays"}, &again)
		require.Equal(t, created.ID, again.ID)
	})

	var res []map[string]any
	c.ok(200, "PUT", "/api/albums/"+created.ID+"/assets", map[string]any{"ids": []string{a1, a2, a1, missingAsset}}, &res)
	require.Equal(t, []map[string]any{
		{"id": a1, "success": true}, {"id": a2, "success": true},
		{"id": a1, "success": false, "error": "duplicate"},
		{"id": missingAsset, "success": false, "error": "not_found"},
	}, res)
	// A malformed id is Immich's 400 for the whole call (TestImmichMalformedAssetIDs).
	requireImmichError(t, c.do("PUT", "/api/albums/"+created.ID+"/assets", map[string]any{"ids": []string{a1, "junk"}}),
		http.StatusBadRequest)
	c.ok(200, "PUT", "/api/albums/"+created.ID+"/assets", map[string]any{"ids": []string{a2}}, &res)
	require.Equal(t, []map[string]any{{"id": a2, "success": false, "error": "duplicate"}}, res,
		"re-adding is fine: the CLI does it on every run")
	lib := c.s.Libraries(session)[0].ID
	links := servertest.List[api.AlbumAsset](c.s, session, "/api/album-assets?album_id="+created.ID)
	require.Len(t, links, 2)
	require.Contains(t, c.s.EventTypes(session, lib, links[0].ID), "album_asset.created")

	var list []immichAlbum
	c.ok(200, "GET", "/api/albums", nil, &list)
	require.Len(t, list, 1)
	require.Equal(t, "Holidays", list[0].AlbumName)
	require.Equal(t, 2, list[0].AssetCount)

	var got immichAlbum
	c.ok(200, "GET", "/api/albums/"+created.ID+"?withoutAssets=false", nil, &got)
	require.Len(t, got.Assets, 2)
	require.ElementsMatch(t, []string{a1, a2}, []string{got.Assets[0].ID, got.Assets[1].ID})
	require.Equal(t, u.ID, got.Assets[0].OwnerID)
	require.NotEmpty(t, got.Assets[0].Checksum)
	c.ok(200, "GET", "/api/albums/"+created.ID+"?withoutAssets=true", nil, &got)
	require.Empty(t, got.Assets)

	t.Run("an album with assetIds is filled at once", func(t *testing.T) {
		var al immichAlbum
		c.ok(201, "POST", "/api/albums", map[string]any{"albumName": "Both", "assetIds": []string{a1, a2}}, &al)
		require.Equal(t, 2, al.AssetCount)
	})
	t.Run("refusals", func(t *testing.T) {
		requireImmichError(t, c.do("GET", "/api/albums/album_01h0000000000000000000000a", nil), http.StatusNotFound)
		requireImmichError(t, c.do("GET", "/api/albums/album_nope", nil), http.StatusBadRequest)
		requireImmichError(t, c.do("POST", "/api/albums", map[string]any{"albumName": ""}), http.StatusBadRequest)
		ro := c.with(c.s.CreateKey(session, []string{"album.read"}, nil))
		e := requireImmichError(t, ro.do("PUT", "/api/albums/"+created.ID+"/assets", map[string]any{"ids": []string{a1}}),
			http.StatusForbidden)
		require.Equal(t, "Missing required permission: albumAsset.create", e.Message)
	})
}
