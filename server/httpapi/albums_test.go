package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// createAlbum posts an album create body and returns the album and status.
func createAlbum(t *testing.T, s *servertest.Server, token string, body any) (api.Album, int) {
	t.Helper()
	r := s.Do("POST", "/api/albums", token, body)
	var a api.Album
	if r.Status < 300 {
		r.JSON(t, &a)
	}
	return a, r.Status
}

// newAlbum creates an album and requires a 201.
func newAlbum(t *testing.T, s *servertest.Server, token, name string) api.Album {
	t.Helper()
	a, status := createAlbum(t, s, token, map[string]any{"name": name})
	require.Equal(t, http.StatusCreated, status)
	return a
}

// albumDo sends a request about an album that must answer 200 with it.
func albumDo(t *testing.T, s *servertest.Server, token, method, path string, body any) api.Album {
	t.Helper()
	return servertest.Expect[api.Album](t, s.Do(method, path, token, body), http.StatusOK)
}

func addToAlbum(t *testing.T, s *servertest.Server, token, albumID string, assetIDs ...string) api.Album {
	t.Helper()
	return albumDo(t, s, token, "POST", "/api/albums/"+albumID+"/assets", api.AlbumAssetsRequest{AssetIDs: assetIDs})
}

func getAlbum(t *testing.T, s *servertest.Server, token, id string) api.Album {
	t.Helper()
	return albumDo(t, s, token, "GET", "/api/albums/"+id, nil)
}

func TestNamedCreateOfAlbums(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]

	holidays, status := createAlbum(t, s, session, map[string]any{"name": "Holidays", "description": "summer"})
	require.Equal(t, http.StatusCreated, status)
	require.Equal(t, "Holidays", holidays.Name)
	require.Equal(t, "summer", holidays.Description)
	require.Equal(t, lib.ID, holidays.LibraryID)
	require.Zero(t, holidays.AssetCount)
	require.Nil(t, holidays.StartDate)
	require.Nil(t, holidays.EndDate)
	require.Nil(t, holidays.CoverAssetID)
	require.Nil(t, holidays.AlbumCoverURL)

	t.Run("the same name returns the existing album with 200", func(t *testing.T) {
		for _, body := range []map[string]any{{"name": "  holidays "}, {"name": "HOLIDAYS", "description": "summer"}} {
			again, status := createAlbum(t, s, session, body)
			require.Equal(t, http.StatusOK, status)
			require.Equal(t, holidays, again)
		}
		require.Len(t, servertest.List[api.Album](s, session, "/api/albums"), 1)
		require.Equal(t, []string{"album.created"}, s.EventTypes(session, lib.ID, holidays.ID))
	})
	t.Run("a conflicting description is 409", func(t *testing.T) {
		_, status := createAlbum(t, s, session, map[string]any{"name": "Holidays", "description": "winter"})
		require.Equal(t, http.StatusConflict, status)
		requireDetail(t, s.Do("POST", "/api/albums", session, map[string]any{"name": "Holidays", "description": ""}),
			http.StatusConflict)
	})
	t.Run("blank and whitespace-only names are 422", func(t *testing.T) {
		for _, body := range []any{map[string]any{"name": ""}, map[string]any{"name": " \t\n"}, map[string]any{}} {
			items := validationItems(t, s.Do("POST", "/api/albums", session, body))
			require.Equal(t, []any{"body", "name"}, items[0].Loc)
		}
	})
	t.Run("renaming to a taken name is 409, to a free one 200", func(t *testing.T) {
		work := newAlbum(t, s, session, "Work")
		requireDetail(t, s.Do("PATCH", "/api/albums/"+work.ID, session, map[string]any{"name": " holidays"}),
			http.StatusConflict)
		renamed := albumDo(t, s, session, "PATCH", "/api/albums/"+work.ID, map[string]any{"name": "Office"})
		require.Equal(t, "Office", renamed.Name)
		require.Equal(t, []string{"album.created", "album.updated"}, s.EventTypes(session, lib.ID, work.ID))
		cleared := albumDo(t, s, session, "PATCH", "/api/albums/"+work.ID, map[string]any{"description": nil})
		require.Equal(t, "", cleared.Description)
		validationItems(t, s.Do("PATCH", "/api/albums/"+work.ID, session, map[string]any{"name": "  "}))
		validationItems(t, s.Do("PATCH", "/api/albums/"+work.ID, session, map[string]any{"name": nil}))
		validationItems(t, s.Do("PATCH", "/api/albums/"+work.ID, session, map[string]any{"title": "x"}))
	})
	t.Run("delete removes the album", func(t *testing.T) {
		gone := newAlbum(t, s, session, "Gone")
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/albums/"+gone.ID, session, nil).Status)
		requireDetail(t, s.Do("GET", "/api/albums/"+gone.ID, session, nil), http.StatusNotFound)
		requireDetail(t, s.Do("DELETE", "/api/albums/"+gone.ID, session, nil), http.StatusNotFound)
		require.Equal(t, []string{"album.created", "album.deleted"}, s.EventTypes(session, lib.ID, gone.ID))
	})
	t.Run("names are per library; several libraries need library_id", func(t *testing.T) {
		second, _ := createLibrary(t, s, session, "Second")
		items := validationItems(t, s.Do("POST", "/api/albums", session, map[string]any{"name": "Holidays"}))
		require.Equal(t, []any{"body", "library_id"}, items[0].Loc)
		other, status := createAlbum(t, s, session, map[string]any{"name": "Holidays", "library_id": second.ID})
		require.Equal(t, http.StatusCreated, status)
		require.NotEqual(t, holidays.ID, other.ID)
		again, status := createAlbum(t, s, session, map[string]any{"name": "holidays"})
		require.Equal(t, http.StatusUnprocessableEntity, status, "still ambiguous: %v", again)
		r := s.Do("POST", "/api/albums?library_id="+second.ID, session, map[string]any{"name": "holidays"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r = s.Do("POST", "/api/albums?library_id="+lib.ID, session, map[string]any{"name": "x", "library_id": second.ID})
		require.Equal(t, []any{"query", "library_id"}, validationItems(t, r)[0].Loc)
		requireDetail(t, s.Do("POST", "/api/albums", session, map[string]any{"name": "x", "library_id": "lib_01hzzzzzzzzzzzzzzzzzzzzzzz"}),
			http.StatusNotFound)
	})
}

func TestAlbumDatesFollowMembership(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	a := place(t, s, session, 1, "2024-01-10T08:00:00+02:00")
	b := place(t, s, session, 2, "2024-03-05T12:00:00")
	c := place(t, s, session, 3, "2024-06-01T09:30:00-05:00")
	album := newAlbum(t, s, session, "Trip")

	dates := func(al api.Album) []any {
		var start, end any
		if al.StartDate != nil {
			start = *al.StartDate
		}
		if al.EndDate != nil {
			end = *al.EndDate
		}
		var cover any
		if al.CoverAssetID != nil {
			cover = *al.CoverAssetID
		}
		return []any{start, end, al.AssetCount, cover}
	}
	require.Equal(t, []any{"2024-03-05T12:00:00", "2024-03-05T12:00:00", 1, b}, dates(addToAlbum(t, s, session, album.ID, b)))

	t.Run("adding widens the dates; the latest member is the automatic cover", func(t *testing.T) {
		got := addToAlbum(t, s, session, album.ID, a, c, a)
		require.Equal(t, []any{"2024-01-10T08:00:00+02:00", "2024-06-01T09:30:00-05:00", 3, c}, dates(got))
		require.Equal(t, "/api/assets/"+c+"/variants/thumbnail", *got.AlbumCoverURL)
		require.Equal(t, got, addToAlbum(t, s, session, album.ID, c), "adding a member again changes nothing")
	})
	t.Run("the album lists its assets by capture time", func(t *testing.T) {
		require.Equal(t, []string{c, b, a}, ids(listAssets(t, s, session, "?album_id="+album.ID)))
		require.Equal(t, []string{a, b, c}, ids(listAssets(t, s, session, "?order=asc&album_id="+album.ID)))
		page := listAssets(t, s, session, "?limit=2&album_id="+album.ID)
		require.Equal(t, []string{c, b}, ids(page))
		require.Equal(t, []string{a}, ids(listAssets(t, s, session, "?limit=2&album_id="+album.ID+"&starting_after_id="+b)))
	})
	t.Run("removing narrows them", func(t *testing.T) {
		got := albumDo(t, s, session, "DELETE", "/api/albums/"+album.ID+"/assets", api.AlbumAssetsRequest{AssetIDs: []string{c}})
		require.Equal(t, []any{"2024-01-10T08:00:00+02:00", "2024-03-05T12:00:00", 2, b}, dates(got))
		again := albumDo(t, s, session, "DELETE", "/api/albums/"+album.ID+"/assets", api.AlbumAssetsRequest{AssetIDs: []string{c}})
		require.Equal(t, got, again, "removing a non-member changes nothing")
	})
	t.Run("trash hides a member until it is restored", func(t *testing.T) {
		r := s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{a}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, []any{"2024-03-05T12:00:00", "2024-03-05T12:00:00", 1, b}, dates(getAlbum(t, s, session, album.ID)))
		require.Equal(t, []string{b}, ids(listAssets(t, s, session, "?album_id="+album.ID)))
		require.Equal(t, []string{a}, ids(listAssets(t, s, session, "?state=trashed&album_id="+album.ID)))
		r = s.Do("POST", "/api/assets/restore", session, api.AssetIDs{IDs: []string{a}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, []any{"2024-01-10T08:00:00+02:00", "2024-03-05T12:00:00", 2, b}, dates(getAlbum(t, s, session, album.ID)))
	})
	t.Run("a capture time edit moves the dates", func(t *testing.T) {
		r := s.Do("PATCH", "/api/assets/"+a, session, map[string]any{"original_datetime": "2025-02-01T10:00:00Z"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, []any{"2024-03-05T12:00:00", "2025-02-01T10:00:00Z", 2, a}, dates(getAlbum(t, s, session, album.ID)))
		require.Equal(t, []string{a, b}, ids(listAssets(t, s, session, "?album_id="+album.ID)))
	})
	t.Run("deleting a member removes its link with an event", func(t *testing.T) {
		links := servertest.List[api.AlbumAsset](s, session, "/api/album-assets?asset_id="+a)
		require.Len(t, links, 1)
		r := s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{a}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, []any{"2024-03-05T12:00:00", "2024-03-05T12:00:00", 1, b}, dates(getAlbum(t, s, session, album.ID)))
		require.Equal(t, []string{"album_asset.created", "album_asset.deleted"}, s.EventTypes(session, lib.ID, links[0].ID))
		require.Empty(t, servertest.List[api.AlbumAsset](s, session, "/api/album-assets?album_id="+album.ID+"&ids="+links[0].ID))
	})
}

func TestAlbumCover(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	early := place(t, s, session, 1, "2023-01-01T00:00:00Z")
	late := place(t, s, session, 2, "2023-06-01T00:00:00Z")
	outsider := place(t, s, session, 3, "2023-03-01T00:00:00Z")
	album := newAlbum(t, s, session, "Cover")
	addToAlbum(t, s, session, album.ID, early, late)
	cover := func(body any) api.Album {
		return albumDo(t, s, session, "PUT", "/api/albums/"+album.ID+"/cover", body)
	}

	require.Equal(t, early, *cover(map[string]any{"asset_id": early}).CoverAssetID)
	t.Run("the cover must be a live member", func(t *testing.T) {
		items := validationItems(t, s.Do("PUT", "/api/albums/"+album.ID+"/cover", session, map[string]any{"asset_id": outsider}))
		require.Equal(t, []any{"body", "asset_id"}, items[0].Loc)
		items = validationItems(t, s.Do("PUT", "/api/albums/"+album.ID+"/cover", session, map[string]any{}))
		require.Equal(t, []any{"body", "asset_id"}, items[0].Loc)
	})
	t.Run("a trashed cover gives way to the latest member until restored", func(t *testing.T) {
		require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{early}}).Status)
		require.Equal(t, late, *getAlbum(t, s, session, album.ID).CoverAssetID)
		validationItems(t, s.Do("PUT", "/api/albums/"+album.ID+"/cover", session, map[string]any{"asset_id": early}))
		require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/restore", session, api.AssetIDs{IDs: []string{early}}).Status)
		require.Equal(t, early, *getAlbum(t, s, session, album.ID).CoverAssetID)
	})
	t.Run("removing the chosen cover from the album clears it", func(t *testing.T) {
		got := albumDo(t, s, session, "DELETE", "/api/albums/"+album.ID+"/assets", api.AlbumAssetsRequest{AssetIDs: []string{early}})
		require.Equal(t, late, *got.CoverAssetID)
		addToAlbum(t, s, session, album.ID, early)
		require.Equal(t, late, *getAlbum(t, s, session, album.ID).CoverAssetID, "the choice did not come back")
	})
	t.Run("null returns to the automatic cover", func(t *testing.T) {
		cover(map[string]any{"asset_id": early})
		require.Equal(t, late, *cover(map[string]any{"asset_id": nil}).CoverAssetID)
	})
}

func TestAlbumMembershipChecks(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	mine := place(t, s, session, 1, "2023-01-01T00:00:00Z")
	album := newAlbum(t, s, session, "Mine")
	trashed := place(t, s, session, 4, "2023-01-02T00:00:00Z")
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{trashed}}).Status)
	second, _ := createLibrary(t, s, session, "Second")
	foreignLib := s.UploadAsset(session, "x.jpg", servertest.JPEG(t, 8, 8, 2), map[string]string{"library_id": second.ID})
	_, stranger := s.Session()
	foreignUser := s.UploadAsset(stranger, "y.jpg", servertest.JPEG(t, 8, 8, 3), nil)
	add := func(token string, ids ...string) *servertest.Response {
		return s.Do("POST", "/api/albums/"+album.ID+"/assets", token, api.AlbumAssetsRequest{AssetIDs: ids})
	}

	t.Run("an asset of another library, another user or the trash is 422 and nothing is written", func(t *testing.T) {
		for _, bad := range []string{foreignLib.ID, foreignUser.ID, trashed, "asset_01hzzzzzzzzzzzzzzzzzzzzzzz", "nope"} {
			items := validationItems(t, add(session, mine, bad))
			require.Equal(t, []any{"body", "asset_ids", 1.0}, items[0].Loc, "%s", bad)
		}
		require.Zero(t, getAlbum(t, s, session, album.ID).AssetCount)
		require.Equal(t, []string{"album.created"}, s.EventTypes(session, lib.ID, album.ID))
		require.Empty(t, servertest.List[api.AlbumAsset](s, session, "/api/album-assets?library_id="+lib.ID))
	})
	t.Run("an empty list or more than 100 ids is 422", func(t *testing.T) {
		validationItems(t, add(session))
		many := make([]string, 101)
		for i := range many {
			many[i] = mine
		}
		validationItems(t, add(session, many...))
	})
	t.Run("another user's album reads as 404", func(t *testing.T) {
		requireDetail(t, s.Do("GET", "/api/albums/"+album.ID, stranger, nil), http.StatusNotFound)
		requireDetail(t, add(stranger, foreignUser.ID), http.StatusNotFound)
		requireDetail(t, s.Do("GET", "/api/assets?album_id="+album.ID, stranger, nil), http.StatusNotFound)
	})
	t.Run("an album of another library filters as 404", func(t *testing.T) {
		requireDetail(t, s.Do("GET", "/api/assets?library_id="+second.ID+"&album_id="+album.ID, session, nil),
			http.StatusNotFound)
	})
}

func TestAlbumAccess(t *testing.T) {
	s := servertest.Start(t)
	_, owner := s.Session()
	lib := s.Libraries(owner)[0]
	asset := place(t, s, owner, 1, "2023-01-01T00:00:00Z")
	album := newAlbum(t, s, owner, "Shared")
	_, viewer := s.AddMember(owner, lib.ID, "viewer")
	_, collaborator := s.AddMember(owner, lib.ID, "collaborator")
	readKey := s.CreateKey(owner, []string{"album.read"}, nil)
	assetKey := s.CreateKey(owner, []string{"asset.read", "asset.update"}, nil)

	t.Run("a viewer reads but does not write", func(t *testing.T) {
		getAlbum(t, s, viewer, album.ID)
		requireDetail(t, s.Do("POST", "/api/albums", viewer, map[string]any{"name": "Shared", "library_id": lib.ID}), http.StatusForbidden)
		requireDetail(t, s.Do("POST", "/api/albums/"+album.ID+"/assets", viewer, api.AlbumAssetsRequest{AssetIDs: []string{asset}}),
			http.StatusForbidden)
		requireDetail(t, s.Do("DELETE", "/api/albums/"+album.ID, viewer, nil), http.StatusForbidden)
	})
	t.Run("a collaborator writes", func(t *testing.T) {
		got := albumDo(t, s, collaborator, "POST", "/api/albums/"+album.ID+"/assets", api.AlbumAssetsRequest{AssetIDs: []string{asset}})
		require.Equal(t, 1, got.AssetCount)
		r := s.Do("POST", "/api/albums", collaborator, map[string]any{"name": "Theirs", "library_id": lib.ID})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	})
	t.Run("keys need album.read to read and album.write to write", func(t *testing.T) {
		getAlbum(t, s, readKey, album.ID)
		require.Len(t, servertest.List[api.AlbumAsset](s, readKey, "/api/album-assets"), 1)
		requireDetail(t, s.Do("PATCH", "/api/albums/"+album.ID, readKey, map[string]any{"name": "x"}), http.StatusForbidden)
		requireDetail(t, s.Do("GET", "/api/albums", assetKey, nil), http.StatusForbidden)
	})
}

// TestDeletingAnAlbumReportsEachLink deletes an album whose members are
// live and trashed: the feed gets an album_asset.deleted per link, then
// album.deleted, and the assets stay.
func TestDeletingAnAlbumReportsEachLink(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0].ID
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	b := s.UploadAsset(session, "b.jpg", servertest.JPEG(t, 8, 8, 2), nil)
	album := newAlbum(t, s, session, "Gone")
	r := s.Do("POST", "/api/albums/"+album.ID+"/assets", session, map[string]any{"asset_ids": []string{a.ID, b.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{b.ID}}).Status)

	require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/albums/"+album.ID, session, nil).Status)
	var links []string
	for _, e := range s.Events(session, lib) {
		if e.Type == "album_asset.deleted" {
			links = append(links, e.ResourceID)
		}
	}
	require.Len(t, links, 2, "one event per link, the trashed asset's included")
	require.Equal(t, []string{"album.created", "album.deleted"}, s.EventTypes(session, lib, album.ID))
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/assets/"+a.ID, session, nil).Status)
}
