package immichapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

func TestImmichAssetInfoAndOriginal(t *testing.T) {
	c, u, _ := newImmich(t)
	data := servertest.JPEG(t, 24, 16, 3)
	id := c.uploadNew("pic.jpg", data)

	var a struct {
		ID, OwnerID, OriginalFileName, Checksum string
		ExifInfo                                struct {
			FileSizeInByte   int64
			DateTimeOriginal string
		}
	}
	c.ok(200, "GET", "/api/assets/"+id, nil, &a)
	require.Equal(t, id, a.ID)
	require.Equal(t, u.ID, a.OwnerID)
	require.Equal(t, "pic.jpg", a.OriginalFileName)
	require.Equal(t, sha1Base64(data), a.Checksum)
	require.Equal(t, int64(len(data)), a.ExifInfo.FileSizeInByte)
	require.Len(t, a.ExifInfo.DateTimeOriginal, 29, "immich-go reads 2006-01-02T15:04:05.000+00:00 only")

	r := c.do("GET", "/api/assets/"+id+"/original", nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, data, r.Body)
	require.Equal(t, "image/jpeg", r.Header.Get("Content-Type"))

	requireImmichError(t, c.do("GET", "/api/assets/nope", nil), http.StatusBadRequest)
	requireImmichError(t, c.do("GET", "/api/assets/nope/original", nil), http.StatusBadRequest)
	requireImmichError(t, c.do("GET", "/api/assets/"+missingAsset, nil), http.StatusNotFound)
	requireImmichError(t, c.do("GET", "/api/assets/"+missingAsset+"/original", nil), http.StatusNotFound)
}

func TestImmichCopyAndDelete(t *testing.T) {
	c, _, session := newImmich(t)
	small := c.uploadNew("x.jpg", servertest.JPEG(t, 16, 16, 4))
	big := c.uploadNew("x.jpg", servertest.JPEG(t, 64, 64, 4))
	var al immichAlbum
	c.ok(201, "POST", "/api/albums", map[string]any{"albumName": "Trip", "assetIds": []string{small}}, &al)
	var tags []immichTag
	c.ok(200, "PUT", "/api/tags", map[string]any{"tags": []string{"kept"}}, &tags)
	c.ok(200, "PUT", "/api/tags/"+tags[0].ID+"/assets", map[string]any{"ids": []string{small}}, nil)

	r := c.do("PUT", "/api/assets/copy", map[string]any{"sourceId": small, "targetId": big, "albums": true,
		"favorite": true, "sharedLinks": true, "sidecar": true, "stack": true})
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	c.ok(200, "GET", "/api/albums/"+al.ID, nil, &al)
	require.Equal(t, 2, al.AssetCount, "the target joined the source's album")
	var info struct{ Tags []immichTag }
	c.ok(200, "GET", "/api/assets/"+big, nil, &info)
	require.Len(t, info.Tags, 1, "and its tags")

	t.Run("malformed or unknown ids are 400", func(t *testing.T) {
		requireImmichError(t, c.do("PUT", "/api/assets/copy", map[string]any{"sourceId": "", "targetId": big}), http.StatusBadRequest)
		requireImmichError(t, c.do("PUT", "/api/assets/copy", map[string]any{"sourceId": missingAsset, "targetId": big}),
			http.StatusBadRequest)
		requireImmichError(t, c.do("DELETE", "/api/assets", map[string]any{"ids": []string{""}}), http.StatusBadRequest)
		requireImmichError(t, c.do("DELETE", "/api/assets", map[string]any{"ids": []string{missingAsset}}), http.StatusBadRequest)
	})
	t.Run("delete trashes, force deletes for good", func(t *testing.T) {
		r := c.do("DELETE", "/api/assets", map[string]any{"ids": []string{small}})
		require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
		var a struct{ IsTrashed bool }
		c.ok(200, "GET", "/api/assets/"+small, nil, &a)
		require.True(t, a.IsTrashed)
		r = c.do("DELETE", "/api/assets", map[string]any{"ids": []string{small}, "force": true})
		require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
		requireImmichError(t, c.do("GET", "/api/assets/"+small, nil), http.StatusNotFound)
		require.Equal(t, http.StatusNotFound, c.s.Do("GET", "/api/assets/"+small, session, nil).Status)
	})
}

func TestImmichMalformedAssetIDs(t *testing.T) {
	c, _, _ := newImmich(t)
	a := c.uploadNew("a.jpg", servertest.JPEG(t, 16, 16, 5))
	var al immichAlbum
	c.ok(201, "POST", "/api/albums", map[string]any{"albumName": "Ok"}, &al)
	for name, r := range map[string]*servertest.Response{
		"an empty id in a new album":       c.do("POST", "/api/albums", map[string]any{"albumName": "X", "assetIds": []string{""}}),
		"a malformed id in a new album":    c.do("POST", "/api/albums", map[string]any{"albumName": "X", "assetIds": []string{a, "1"}}),
		"an empty id added to an album":    c.do("PUT", "/api/albums/"+al.ID+"/assets", map[string]any{"ids": []string{""}}),
		"a malformed album id":             c.do("GET", "/api/albums/x", nil),
		"a malformed album id to add into": c.do("PUT", "/api/albums/x/assets", map[string]any{"ids": []string{a}}),
		"a malformed assetId filter":       c.do("GET", "/api/albums?assetId=x", nil),
	} {
		t.Run(name+" is 400", func(t *testing.T) { requireImmichError(t, r, http.StatusBadRequest) })
	}
	var list []immichAlbum
	c.ok(200, "GET", "/api/albums", nil, &list)
	require.Len(t, list, 1, "no album was created by a refused call")
	c.ok(200, "GET", "/api/albums?assetId="+a, nil, &list)
	require.Empty(t, list, "the asset is in no album")
}

func TestImmichWellKnownAtTheRoot(t *testing.T) {
	s := servertest.Start(t)
	// @immich/cli given http://host/immich asks the host's root.
	r := s.Get("/.well-known/immich", "", nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.JSONEq(t, `{"api":{"endpoint":"/immich/api"}}`, string(r.Body))
}
