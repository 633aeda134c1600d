package httpapi_test

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestUploadCreatesAnAssetWithEveryField(t *testing.T) {
	s := servertest.Start(t)
	u, session := s.Session()
	data := servertest.JPEG(t, 64, 48, 1)
	a := s.UploadAsset(session, "beach.jpg", data, map[string]string{"device_asset_id": "d-1", "device_id": "phone",
		"file_created_at": "2024-05-01T10:00:00+02:00", "file_modified_at": "2024-05-01T10:05:00+02:00"})

	sum256, sum1 := sha256.Sum256(data), sha1.Sum(data)
	require.Regexp(t, `^asset_[0-9a-z]{26}$`, a.ID)
	require.Equal(t, base64.StdEncoding.EncodeToString(sum256[:]), a.Checksum)
	require.Equal(t, base64.StdEncoding.EncodeToString(sum1[:]), *a.ChecksumSHA1)
	require.Equal(t, "image/jpeg", a.MIMEType)
	require.Equal(t, "image", a.MediaType)
	require.Equal(t, "beach.jpg", a.OriginalFileName)
	require.Equal(t, "d-1", a.DeviceAssetID)
	require.Equal(t, "phone", a.DeviceID)
	require.Equal(t, u.ID, a.ContributorID)
	require.Equal(t, "2024-05-01T10:00:00+02:00", a.LocalDatetime)
	require.Equal(t, int64(len(data)), a.FileSizeBytes)
	require.Nil(t, a.TrashedAt)
	require.Nil(t, a.Description)
	require.Equal(t, "/api/assets/"+a.ID+"/original", a.AssetURLs.Original)
	require.NotNil(t, a.AssetURLs.Thumbnail)
	require.NotNil(t, a.AssetURLs.Preview)
	require.NotNil(t, a.AssetURLs.Fullsize)

	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	m := r.Map(t)
	for _, field := range []string{"id", "device_asset_id", "device_id", "mime_type", "original_file_name",
		"file_created_at", "file_modified_at", "local_datetime", "checksum", "checksum_sha1", "created_at",
		"updated_at", "metadata", "exif", "metrics", "asset_urls", "description", "faces", "people", "width",
		"height", "file_size_bytes", "trashed_at"} {
		require.Contains(t, m, field)
	}
	meta, exif := m["metadata"].(map[string]any), m["exif"].(map[string]any)
	for _, f := range []string{"country_code", "sublocation", "place_name", "timezone", "display_label"} {
		require.Contains(t, meta, f)
		require.NotContains(t, exif, f)
	}
	require.Contains(t, exif, "profile_description")
	require.NotContains(t, meta, "profile_description")
	require.Equal(t, a.ID, meta["asset_id"])
	require.Contains(t, m, "ocr_text")
	require.Nil(t, m["ocr_text"], "null: the ocr step has not run (servertest runs no ML)")
}

func TestUploadDeduplicatesPerLibrary(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	data := servertest.JPEG(t, 32, 32, 2)
	first := s.UploadAsset(session, "a.jpg", data, nil)

	r := s.Upload(session, "copy.jpg", data, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.JSONEq(t, `{"id": "`+first.ID+`", "status": "duplicate"}`, string(r.Body))

	other, _ := createLibrary(t, s, session, "Other")
	second := s.UploadAsset(session, "a.jpg", data, map[string]string{"library_id": other.ID})
	require.NotEqual(t, first.ID, second.ID, "another library gets its own asset")

	sum := sha256.Sum256(data)
	r = s.Do("POST", "/api/assets/check?library_id="+other.ID, session, map[string]any{"checksums": []string{
		base64.StdEncoding.EncodeToString(sum[:]), base64.StdEncoding.EncodeToString(make([]byte, 32))}})
	check := servertest.Expect[api.ChecksumCheckResponse](t, r, http.StatusOK)
	require.Equal(t, second.ID, *check.Data[0].AssetID)
	require.Nil(t, check.Data[1].AssetID)
}

func TestUploadRefusals(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) { c.Upload.MaxBytes = 4096 })
	_, session := s.Session()

	t.Run("unsupported content is 422 whatever its name", func(t *testing.T) {
		validationItems(t, s.Upload(session, "notes.jpg", []byte("just some text, not a photo"), nil))
		validationItems(t, s.Upload(session, "doc.pdf", []byte("%PDF-1.7\n%âãÏÓ\n1 0 obj\n"), nil))
	})
	t.Run("larger than the maximum is 413", func(t *testing.T) {
		requireDetail(t, s.Upload(session, "big.jpg", servertest.JPEG(t, 400, 400, 3), nil), http.StatusRequestEntityTooLarge)
	})
	t.Run("no file part is 422", func(t *testing.T) {
		items := validationItems(t, s.Do("POST", "/api/assets", session, nil))
		require.Equal(t, []any{"header", "content-type"}, items[0].Loc)
	})
	t.Run("a bad date is 422", func(t *testing.T) {
		items := validationItems(t, s.Upload(session, "x.jpg", servertest.JPEG(t, 8, 8, 4), map[string]string{"file_created_at": "yesterday"}))
		require.Equal(t, []any{"body", "file_created_at"}, items[0].Loc)
	})
	t.Run("refused uploads leave no file behind", func(t *testing.T) {
		require.Zero(t, countFiles(t, filepath.Join(s.Config.DataDir, "blobs")))
		require.Zero(t, countFiles(t, filepath.Join(s.Config.DataDir, "tmp")))
	})
}

func TestUploadChargesTheOwnersQuota(t *testing.T) {
	s := servertest.Start(t)
	u, session := s.Session()
	data := servertest.JPEG(t, 64, 64, 5)
	s.SetQuota(u.ID, int64(len(data)+10))
	s.UploadAsset(session, "one.jpg", data, nil)
	requireDetail(t, s.Upload(session, "two.jpg", servertest.JPEG(t, 64, 64, 6), nil), http.StatusInsufficientStorage)
}
