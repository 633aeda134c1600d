package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// linkPage GETs one page of album-asset links and requires a 200.
func linkPage(t *testing.T, s *servertest.Server, token, query string) api.Page[api.AlbumAsset] {
	t.Helper()
	return servertest.Expect[api.Page[api.AlbumAsset]](t, s.Do("GET", "/api/album-assets"+query, token, nil), http.StatusOK)
}

func linkIDs(links []api.AlbumAsset) []string {
	return mapped(links, func(l api.AlbumAsset) string { return l.ID })
}

func TestAlbumAssetLinks(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	var assetIDs []string
	for i := range 25 {
		assetIDs = append(assetIDs, s.UploadAsset(session, "p.jpg", servertest.JPEG(t, 8, 8, i), nil).ID)
	}
	big := newAlbum(t, s, session, "Big")
	small := newAlbum(t, s, session, "Small")
	addToAlbum(t, s, session, big.ID, assetIDs...)
	addToAlbum(t, s, session, small.ID, assetIDs[0], assetIDs[1])

	t.Run("pages hold 20 by default, newest first, and has_more tells the rest", func(t *testing.T) {
		first := linkPage(t, s, session, "?album_id="+big.ID)
		require.Len(t, first.Data, 20)
		require.True(t, first.HasMore)
		second := linkPage(t, s, session, "?album_id="+big.ID+"&starting_after_id="+first.Data[19].ID)
		require.Len(t, second.Data, 5)
		require.False(t, second.HasMore)
		all := append(first.Data, second.Data...)
		got := make([]string, len(all))
		for i, l := range all {
			require.Equal(t, big.ID, l.AlbumID)
			require.Equal(t, l.CreatedAt, l.UpdatedAt)
			got[i] = l.AssetID
		}
		want := slices.Clone(assetIDs)
		slices.Reverse(want) // added in this order in one request: ids grow with it
		require.Equal(t, want, got)
		require.True(t, slices.IsSortedFunc(linkIDs(all), func(a, b string) int { return strings.Compare(b, a) }))
	})
	t.Run("the whole library, by asset, by ids", func(t *testing.T) {
		require.Len(t, linkPage(t, s, session, "?limit=200").Data, 27)
		byAsset := linkPage(t, s, session, "?asset_id="+assetIDs[0])
		require.Len(t, byAsset.Data, 2)
		require.ElementsMatch(t, []string{big.ID, small.ID}, []string{byAsset.Data[0].AlbumID, byAsset.Data[1].AlbumID})
		one := linkPage(t, s, session, "?album_id="+small.ID+"&asset_id="+assetIDs[0])
		require.Len(t, one.Data, 1)
		picked := linkPage(t, s, session, "?ids="+byAsset.Data[0].ID+"&ids="+one.Data[0].ID+","+byAsset.Data[1].ID)
		require.ElementsMatch(t, linkIDs(byAsset.Data), linkIDs(picked.Data))
		require.Empty(t, linkPage(t, s, session, "?album_id="+big.ID+"&ids="+one.Data[0].ID).Data)
	})
	t.Run("links of trashed assets are hidden until restored", func(t *testing.T) {
		require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{assetIDs[0]}}).Status)
		require.Empty(t, linkPage(t, s, session, "?asset_id="+assetIDs[0]).Data)
		require.Len(t, linkPage(t, s, session, "?album_id="+small.ID).Data, 1)
		require.Equal(t, 1, getAlbum(t, s, session, small.ID).AssetCount)
		require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/restore", session, api.AssetIDs{IDs: []string{assetIDs[0]}}).Status)
		require.Len(t, linkPage(t, s, session, "?asset_id="+assetIDs[0]).Data, 2)
	})
	t.Run("bad parameters are 422", func(t *testing.T) {
		many := make([]string, 101)
		for i := range many {
			many[i] = "album_asset_01hzzzzzzzzzzzzzzzzzzzzzzz"
		}
		cases := []struct{ query, loc string }{
			{"?ids=" + strings.Join(many, ","), "ids"},
			{"?ids=" + big.ID, "ids"},
			{"?limit=0", "limit"},
			{"?limit=201", "limit"},
			{"?album_ids=" + big.ID, "album_ids"},
			{"?album_id=" + small.ID + "&starting_after_id=" + linkPage(t, s, session, "?album_id="+big.ID).Data[0].ID, "starting_after_id"},
		}
		for _, c := range cases {
			items := validationItems(t, s.Do("GET", "/api/album-assets"+c.query, session, nil))
			require.Equal(t, c.loc, items[0].Loc[1], c.query)
		}
		require.Empty(t, linkPage(t, s, session, "?ids="+strings.Join(many[1:], ",")).Data, "100 ids fit a request")
	})
	t.Run("an album or asset outside the library is 404", func(t *testing.T) {
		_, stranger := s.Session()
		theirs := newAlbum(t, s, stranger, "Theirs")
		requireDetail(t, s.Do("GET", "/api/album-assets?album_id="+theirs.ID, session, nil), http.StatusNotFound)
		requireDetail(t, s.Do("GET", "/api/album-assets?album_id="+big.ID, stranger, nil), http.StatusNotFound)
		requireDetail(t, s.Do("GET", "/api/album-assets?asset_id="+assetIDs[0], stranger, nil), http.StatusNotFound)
		requireDetail(t, s.Do("GET", "/api/album-assets?library_id="+lib.ID, stranger, nil), http.StatusNotFound)
	})
	t.Run("the albums of an asset", func(t *testing.T) {
		got := servertest.List[api.Album](s, session, "/api/albums?asset_id="+assetIDs[0])
		require.Equal(t, []string{small.ID, big.ID}, []string{got[0].ID, got[1].ID})
		got = servertest.List[api.Album](s, session, "/api/albums?asset_id="+assetIDs[24])
		require.Len(t, got, 1)
		all := servertest.List[api.Album](s, session, "/api/albums?limit=1")
		require.Equal(t, small.ID, all[0].ID)
		require.Equal(t, 25, servertest.List[api.Album](s, session, "/api/albums?limit=1&starting_after_id="+small.ID)[0].AssetCount)
	})
}
