package immichapi_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestImmichUploadIsAnOrdinaryAsset(t *testing.T) {
	c, u, session := newImmich(t)
	data := servertest.JPEG(t, 32, 24, 7)
	id := c.uploadNew("IMG_0001.jpg", data)

	a := servertest.List[api.Asset](c.s, session, "/api/assets")
	require.Len(t, a, 1)
	require.Equal(t, id, a[0].ID)
	require.Equal(t, "IMG_0001.jpg", a[0].OriginalFileName)
	require.Equal(t, u.ID, a[0].ContributorID)
	require.NotNil(t, a[0].ChecksumSHA1)
	require.Equal(t, sha1Base64(data), *a[0].ChecksumSHA1)
	lib := c.s.Libraries(session)[0].ID
	require.Equal(t, []string{"asset.created"}, c.s.EventTypes(session, lib, id))
	tasks := servertest.List[api.Task](c.s, session, "/api/tasks?asset_id="+id)
	require.NotEmpty(t, tasks, "the upload enqueues the native ingest pipeline")

	t.Run("the same content again is a 200 duplicate", func(t *testing.T) {
		r := c.upload("copy.jpg", data, nil, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.JSONEq(t, `{"id":"`+id+`","status":"duplicate"}`, string(r.Body))
	})
	t.Run("a native upload of the same content is a duplicate of it", func(t *testing.T) {
		r := c.s.Upload(session, "native.jpg", data, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Contains(t, string(r.Body), id)
	})
	t.Run("an Immich upload of natively uploaded content is a duplicate", func(t *testing.T) {
		other := servertest.JPEG(t, 32, 24, 8)
		native := c.s.UploadAsset(session, "native2.jpg", other, nil)
		r := c.upload("again.jpg", other, nil, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.JSONEq(t, `{"id":"`+native.ID+`","status":"duplicate"}`, string(r.Body))
	})
	require.Len(t, servertest.List[api.Asset](c.s, session, "/api/assets"), 2)
}

func TestImmichUploadChecksumHeaderShortCircuits(t *testing.T) {
	c, _, session := newImmich(t)
	data := servertest.JPEG(t, 20, 20, 3)
	id := c.uploadNew("a.jpg", data)
	for _, tc := range []struct{ name, checksum string }{
		{"base64 (immich-go)", sha1Base64(data)},
		{"hex (the CLI)", sha1Hex(data)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The body is not even a photo: the header answers first.
			r := c.upload("b.jpg", []byte("not a photo at all"), nil, map[string]string{"x-immich-checksum": tc.checksum})
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			require.JSONEq(t, `{"id":"`+id+`","status":"duplicate"}`, string(r.Body))
		})
	}
	t.Run("an unknown checksum uploads normally", func(t *testing.T) {
		other := servertest.JPEG(t, 20, 20, 4)
		r := c.upload("c.jpg", other, nil, map[string]string{"x-immich-checksum": sha1Base64([]byte("else"))})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	})
	t.Run("a malformed checksum is a 400", func(t *testing.T) {
		requireImmichError(t, c.upload("d.jpg", data, nil, map[string]string{"x-immich-checksum": "xyz"}), http.StatusBadRequest)
	})
	require.Len(t, servertest.List[api.Asset](c.s, session, "/api/assets"), 2)
}

func TestImmichUploadRefusals(t *testing.T) {
	c, _, session := newImmich(t)
	data := servertest.JPEG(t, 16, 16, 1)

	t.Run("a key without asset.upload gets Immich's 403", func(t *testing.T) {
		ro := c.with(c.s.CreateKey(session, []string{"asset.read", "user.read"}, nil))
		e := requireImmichError(t, ro.upload("a.jpg", data, nil, nil), http.StatusForbidden)
		require.Equal(t, "Missing required permission: asset.upload", e.Message)
		requireImmichError(t, ro.do("POST", "/api/assets/bulk-upload-check", map[string]any{"assets": []any{}}),
			http.StatusForbidden)
	})
	t.Run("the dates are required", func(t *testing.T) {
		e := requireImmichError(t, c.upload("a.jpg", data, map[string]string{"fileCreatedAt": ""}, nil), http.StatusBadRequest)
		require.Contains(t, e.Message, "fileCreatedAt")
	})
	t.Run("a file that is no photo or video is a 400", func(t *testing.T) {
		requireImmichError(t, c.upload("a.txt", []byte("hello"), nil, nil), http.StatusBadRequest)
	})
	t.Run("no assetData part is a 400", func(t *testing.T) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		require.NoError(t, mw.WriteField("fileCreatedAt", "2024-05-01T10:00:00.000Z"))
		require.NoError(t, mw.Close())
		req, err := http.NewRequest("POST", c.base+"/api/assets", &body)
		require.NoError(t, err)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		e := requireImmichError(t, c.send(req, nil), http.StatusBadRequest)
		require.Contains(t, e.Message, "assetData")
	})
	require.Empty(t, servertest.List[api.Asset](c.s, session, "/api/assets"), "nothing was stored")
}

func TestImmichUploadTakesPartsInAnyOrderAndChunkedBodies(t *testing.T) {
	c, _, session := newImmich(t)
	data := servertest.JPEG(t, 16, 16, 9)
	sidecar := []byte(`<?xpacket begin=""?><x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>`)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("assetData", "first.jpg")
	require.NoError(t, err)
	_, _ = fw.Write(data)
	fw, err = mw.CreateFormFile("sidecarData", "first.xmp")
	require.NoError(t, err)
	_, _ = fw.Write(sidecar)
	for k, v := range map[string]string{"deviceAssetId": "first-1", "deviceId": "phone", "fileCreatedAt": "2023-01-02T03:04:05Z",
		"fileModifiedAt": "2023-01-02T03:04:05+02:00", "assetType": "IMAGE", "duration": "0:00:00.000000",
		"fileExtension": ".jpg", "isReadOnly": "false", "visibility": "timeline"} {
		require.NoError(t, mw.WriteField(k, v))
	}
	require.NoError(t, mw.Close())
	// A reader of unknown length makes net/http send the body chunked.
	req, err := http.NewRequest("POST", c.base+"/api/assets", io.MultiReader(strings.NewReader(""), &body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	r := c.send(req, nil)
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)

	a := servertest.List[api.Asset](c.s, session, "/api/assets")
	require.Len(t, a, 1)
	require.Equal(t, "first-1", a[0].DeviceAssetID)
	require.Equal(t, "phone", a[0].DeviceID)
	require.Equal(t, "2023-01-02T01:04:05Z", a[0].FileModifiedAt.UTC().Format("2006-01-02T15:04:05Z"))
}

func TestImmichLibraryChoice(t *testing.T) {
	c, _, session := newImmich(t)
	second := c.s.CreateLibrary(session, "Second")
	data := servertest.JPEG(t, 16, 16, 2)

	e := requireImmichError(t, c.upload("a.jpg", data, nil, nil), http.StatusUnprocessableEntity)
	require.Contains(t, e.Message, "immich_library_id")
	requireImmichError(t, c.do("GET", "/api/albums", nil), http.StatusUnprocessableEntity)
	requireImmichError(t, c.do("POST", "/api/search/metadata", map[string]any{"page": 1}), http.StatusUnprocessableEntity)

	r := c.s.Do("PATCH", "/api/users/me/preferences", session, map[string]any{"immich_library_id": second.ID})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	id := c.uploadNew("a.jpg", data)
	got := servertest.List[api.Asset](c.s, session, "/api/assets?library_id="+second.ID)
	require.Len(t, got, 1)
	require.Equal(t, id, got[0].ID)

	t.Run("a key scoped away from the chosen library cannot use it", func(t *testing.T) {
		first := ""
		for _, l := range c.s.Libraries(session) {
			if l.ID != second.ID {
				first = l.ID
			}
		}
		scoped := c.with(c.s.CreateKey(session, []string{"all"}, []string{first}))
		e := requireImmichError(t, scoped.do("GET", "/api/albums", nil), http.StatusUnprocessableEntity)
		require.Contains(t, e.Message, "immich_library_id")
	})
}

func TestImmichBulkUploadCheck(t *testing.T) {
	c, _, session := newImmich(t)
	data := servertest.JPEG(t, 16, 16, 5)
	id := c.uploadNew("a.jpg", data)
	trashedData := servertest.JPEG(t, 16, 16, 6)
	trashed := c.uploadNew("t.jpg", trashedData)
	r := c.s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{trashed}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	var got struct {
		Results []map[string]any `json:"results"`
	}
	c.ok(200, "POST", "/api/assets/bulk-upload-check", map[string]any{"assets": []map[string]string{
		{"id": "/photos/a.jpg", "checksum": sha1Hex(data)},
		{"id": "/photos/a-again.jpg", "checksum": sha1Base64(data)},
		{"id": "/photos/new.jpg", "checksum": sha1Hex([]byte("new"))},
		{"id": "/photos/t.jpg", "checksum": sha1Hex(trashedData)},
	}}, &got)
	require.Equal(t, []map[string]any{
		{"id": "/photos/a.jpg", "action": "reject", "reason": "duplicate", "assetId": id, "isTrashed": false},
		{"id": "/photos/a-again.jpg", "action": "reject", "reason": "duplicate", "assetId": id, "isTrashed": false},
		{"id": "/photos/new.jpg", "action": "accept"},
		{"id": "/photos/t.jpg", "action": "reject", "reason": "duplicate", "assetId": trashed, "isTrashed": true},
	}, got.Results)

	e := requireImmichError(t, c.do("POST", "/api/assets/bulk-upload-check", map[string]any{"assets": []map[string]string{
		{"id": "x", "checksum": sha1Hex(data)}, {"id": "y", "checksum": "not-a-sum"}}}), http.StatusBadRequest)
	require.Contains(t, e.Message, "assets.1.checksum")
}
