package httpapi_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/blob/s3test"
	"github.com/photoctl/photoctl/server/servertest"
)

// sendVersion sends data as the multipart part "file" (plus extra parts).
func sendVersion(t *testing.T, s *servertest.Server, token, method, path, name string, data []byte, extra map[string]string) *servertest.Response {
	t.Helper()
	return s.Multipart(method, path, token, func(mw *multipart.Writer) {
		for k, v := range extra {
			require.NoError(t, mw.WriteField(k, v))
		}
		if data != nil {
			fw, err := mw.CreateFormFile("file", name)
			require.NoError(t, err)
			_, err = fw.Write(data)
			require.NoError(t, err)
		}
	})
}

// appendVersion appends data to an asset and requires a 201.
func appendVersion(t *testing.T, s *servertest.Server, token, assetID, name string, data []byte) api.Version {
	t.Helper()
	r := sendVersion(t, s, token, "POST", "/api/assets/"+assetID+"/versions", name, data, nil)
	return servertest.Expect[api.Version](t, r, http.StatusCreated)
}

func listVersions(t *testing.T, s *servertest.Server, token, assetID, query string) api.Page[api.Version] {
	t.Helper()
	return servertest.Expect[api.Page[api.Version]](t, s.Do("GET", "/api/assets/"+assetID+"/versions"+query, token, nil), http.StatusOK)
}

func versionIDs(p api.Page[api.Version]) []string {
	return mapped(p.Data, func(v api.Version) string { return v.ID })
}

// currentVersion returns the id of the one current version.
func currentVersion(t *testing.T, s *servertest.Server, token, assetID string) string {
	t.Helper()
	var current []string
	for _, v := range listVersions(t, s, token, assetID, "?limit=200").Data {
		if v.IsCurrent {
			current = append(current, v.ID)
		}
	}
	require.Len(t, current, 1, "exactly one version is current")
	return current[0]
}

func pngImage(t *testing.T, w, h, seed int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * seed), uint8(y + seed), 90, 255})
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func checksum(data []byte) string {
	sum := sha256.Sum256(data)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// versionFiles lists the files under the data directory's blobs/versions.
func versionFiles(t *testing.T, s *servertest.Server) []string {
	t.Helper()
	var files []string
	_ = filepath.WalkDir(filepath.Join(s.Config.DataDir, "blobs", "versions"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	return files
}

func TestVersionsAppendReplaceRevertDelete(t *testing.T) {
	s := servertest.Start(t)
	u, session := s.Session()
	orig := servertest.JPEG(t, 64, 64, 1)
	a := s.UploadAsset(session, "beach.jpg", orig, nil)
	base := "/api/assets/" + a.ID + "/versions/"

	list := listVersions(t, s, session, a.ID, "")
	require.Len(t, list.Data, 1)
	original := list.Data[0]
	require.Equal(t, api.Version{ID: "ver_" + strings.TrimPrefix(a.ID, "asset_"), AssetID: a.ID, IsOriginal: true,
		IsCurrent: true, MIMEType: "image/jpeg", FileName: "beach.jpg", FileSizeBytes: int64(len(orig)),
		Checksum: a.Checksum, ContributorID: u.ID, FileURL: base + original.ID + "/file",
		CreatedAt: original.CreatedAt, UpdatedAt: original.UpdatedAt}, original)
	require.False(t, list.HasMore)

	edit1 := pngImage(t, 40, 30, 2)
	v1 := appendVersion(t, s, session, a.ID, "beach-edit.png", edit1)
	t.Run("an appended version becomes current", func(t *testing.T) {
		require.Regexp(t, `^ver_[0-9a-z]{26}$`, v1.ID)
		require.True(t, v1.IsCurrent)
		require.False(t, v1.IsOriginal)
		require.Equal(t, "image/png", v1.MIMEType)
		require.Equal(t, "beach-edit.png", v1.FileName)
		require.Equal(t, int64(len(edit1)), v1.FileSizeBytes)
		require.Equal(t, checksum(edit1), v1.Checksum)
		got := getAsset(t, s, session, a.ID)
		require.Equal(t, int64(len(edit1)), got.FileSizeBytes)
		require.Equal(t, a.Checksum, got.Checksum, "the asset's checksum stays the original's")
		require.True(t, got.UpdatedAt.After(a.UpdatedAt))
		require.Equal(t, []string{v1.ID, original.ID}, versionIDs(listVersions(t, s, session, a.ID, "")))
		require.Equal(t, v1.ID, currentVersion(t, s, session, a.ID))
	})
	t.Run("a version's file downloads as an attachment; the original stays", func(t *testing.T) {
		resp, body := download(t, s, session, base+v1.ID+"/file", nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Equal(t, edit1, body)
		require.Equal(t, "image/png", resp.Header.Get("Content-Type"))
		require.True(t, strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment;"))
		resp, _ = download(t, s, session, base+v1.ID+"/file", map[string]string{"If-None-Match": resp.Header.Get("ETag")})
		require.Equal(t, http.StatusNotModified, resp.StatusCode)
		_, body = download(t, s, session, "/api/assets/"+a.ID+"/original", nil)
		require.Equal(t, orig, body)
		_, body = download(t, s, session, base+original.ID+"/file", nil)
		require.Equal(t, orig, body)
	})

	edit2 := servertest.JPEG(t, 90, 90, 3)
	v2 := appendVersion(t, s, session, a.ID, "", edit2)
	require.Equal(t, "beach.jpg", v2.FileName, "without a part name, the original's name with the format's extension")
	t.Run("pages run newest first and end with the original", func(t *testing.T) {
		p := listVersions(t, s, session, a.ID, "?limit=1")
		require.Equal(t, []string{v2.ID}, versionIDs(p))
		require.True(t, p.HasMore)
		p = listVersions(t, s, session, a.ID, "?limit=1&starting_after_id="+v2.ID)
		require.Equal(t, []string{v1.ID}, versionIDs(p))
		require.True(t, p.HasMore, "the original is still to come")
		p = listVersions(t, s, session, a.ID, "?limit=1&starting_after_id="+v1.ID)
		require.Equal(t, []string{original.ID}, versionIDs(p))
		require.False(t, p.HasMore)
		p = listVersions(t, s, session, a.ID, "?starting_after_id="+original.ID)
		require.Empty(t, p.Data)
		require.False(t, p.HasMore)
		items := validationItems(t, s.Do("GET", base[:len(base)-1]+"?starting_after_id=ver_01hzzzzzzzzzzzzzzzzzzzzzzz", session, nil))
		require.Equal(t, []any{"query", "starting_after_id"}, items[0].Loc)
	})

	edit1b := servertest.JPEG(t, 50, 70, 4)
	t.Run("replacing a version keeps its id and changes its bytes", func(t *testing.T) {
		r := sendVersion(t, s, session, "PUT", base+v1.ID, "redo.jpg", edit1b, nil)
		got := servertest.Expect[api.Version](t, r, http.StatusOK)
		require.Equal(t, v1.ID, got.ID)
		require.Equal(t, v1.CreatedAt, got.CreatedAt)
		require.Equal(t, "image/jpeg", got.MIMEType)
		require.Equal(t, int64(len(edit1b)), got.FileSizeBytes)
		require.Equal(t, checksum(edit1b), got.Checksum)
		require.False(t, got.IsCurrent)
		require.Equal(t, int64(len(edit2)), getAsset(t, s, session, a.ID).FileSizeBytes, "v2 stays current")
		_, body := download(t, s, session, base+v1.ID+"/file", nil)
		require.Equal(t, edit1b, body)
		require.Len(t, versionFiles(t, s), 2, "the replaced file is gone")
	})
	t.Run("the original cannot be replaced or deleted", func(t *testing.T) {
		requireDetail(t, sendVersion(t, s, session, "PUT", base+original.ID, "x.jpg", servertest.JPEG(t, 8, 8, 5), nil), http.StatusConflict)
		requireDetail(t, s.Do("DELETE", base+original.ID, session, nil), http.StatusConflict)
	})
	t.Run("reverting to the original restores its size", func(t *testing.T) {
		r := s.Do("POST", base+original.ID+"/revert", session, nil)
		got := servertest.Expect[api.Version](t, r, http.StatusOK)
		require.True(t, got.IsCurrent)
		require.True(t, got.IsOriginal)
		require.Equal(t, int64(len(orig)), getAsset(t, s, session, a.ID).FileSizeBytes)
		require.Equal(t, original.ID, currentVersion(t, s, session, a.ID))
	})
	t.Run("deleting the current version falls back to the one before it", func(t *testing.T) {
		require.Equal(t, http.StatusOK, s.Do("POST", base+v2.ID+"/revert", session, nil).Status)
		r := s.Do("DELETE", base+v2.ID, session, nil)
		require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
		require.Equal(t, v1.ID, currentVersion(t, s, session, a.ID))
		require.Equal(t, int64(len(edit1b)), getAsset(t, s, session, a.ID).FileSizeBytes)
		requireDetail(t, s.Do("GET", base+v2.ID+"/file", session, nil), http.StatusNotFound)
	})
	t.Run("deleting the last version falls back to the original", func(t *testing.T) {
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", base+v1.ID, session, nil).Status)
		require.Equal(t, []string{original.ID}, versionIDs(listVersions(t, s, session, a.ID, "")))
		require.True(t, listVersions(t, s, session, a.ID, "").Data[0].IsCurrent)
		require.Equal(t, int64(len(orig)), getAsset(t, s, session, a.ID).FileSizeBytes)
		require.Empty(t, versionFiles(t, s))
	})
	t.Run("an unknown version, or one of another asset, is 404", func(t *testing.T) {
		other := s.UploadAsset(session, "other.jpg", servertest.JPEG(t, 16, 16, 9), nil)
		ov := appendVersion(t, s, session, other.ID, "o.png", pngImage(t, 8, 8, 9))
		requireDetail(t, s.Do("POST", base+ov.ID+"/revert", session, nil), http.StatusNotFound)
		requireDetail(t, s.Do("DELETE", base+"ver_01hzzzzzzzzzzzzzzzzzzzzzzz", session, nil), http.StatusNotFound)
		requireDetail(t, s.Do("GET", base+"nonsense/file", session, nil), http.StatusNotFound)
	})

	t.Run("each change writes its event", func(t *testing.T) {
		events := s.Events(session, a.LibraryID)
		type seen struct{ Type, Resource string }
		var got []seen
		for _, e := range events {
			var data map[string]any
			require.NoError(t, json.Unmarshal(e.Data, &data))
			if e.ResourceID == a.ID || data["asset_id"] == a.ID {
				got = append(got, seen{e.Type, e.ResourceID})
			}
			if e.Type == "asset_version.created" && e.ResourceID == v1.ID && data["replaced"] == true {
				got = append(got, seen{"replaced", v1.ID})
			}
		}
		require.Equal(t, []seen{{"asset.created", a.ID}, {"asset_version.created", v1.ID},
			{"asset_version.created", v2.ID}, {"asset_version.created", v1.ID}, {"replaced", v1.ID},
			{"asset.updated", a.ID}, {"asset.updated", a.ID}, {"asset_version.deleted", v2.ID},
			{"asset_version.deleted", v1.ID}}, got)
	})
}

func TestVersionRefusals(t *testing.T) {
	s := servertest.Start(t, func(c *app.Config) { c.Upload.MaxBytes = 8 << 10 })
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 32, 32, 1), nil)
	v := appendVersion(t, s, session, a.ID, "v.png", pngImage(t, 16, 16, 1))
	base := "/api/assets/" + a.ID + "/versions"

	t.Run("another user gets 404 everywhere", func(t *testing.T) {
		_, stranger := s.Session()
		requireDetail(t, s.Do("GET", base, stranger, nil), http.StatusNotFound)
		requireDetail(t, s.Do("GET", base+"/"+v.ID+"/file", stranger, nil), http.StatusNotFound)
		requireDetail(t, sendVersion(t, s, stranger, "POST", base, "x.png", pngImage(t, 8, 8, 2), nil), http.StatusNotFound)
		requireDetail(t, s.Do("POST", base+"/"+v.ID+"/revert", stranger, nil), http.StatusNotFound)
		requireDetail(t, s.Do("DELETE", base+"/"+v.ID, stranger, nil), http.StatusNotFound)
	})
	t.Run("a key with asset.read reads but may not change versions", func(t *testing.T) {
		key := s.CreateKey(session, []string{"asset.read"}, nil)
		require.Len(t, listVersions(t, s, key, a.ID, "").Data, 2)
		resp, _ := download(t, s, key, base+"/"+v.ID+"/file", nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		requireDetail(t, sendVersion(t, s, key, "POST", base, "x.png", pngImage(t, 8, 8, 3), nil), http.StatusForbidden)
		requireDetail(t, sendVersion(t, s, key, "PUT", base+"/"+v.ID, "x.png", pngImage(t, 8, 8, 3), nil), http.StatusForbidden)
		requireDetail(t, s.Do("POST", base+"/"+v.ID+"/revert", key, nil), http.StatusForbidden)
		requireDetail(t, s.Do("DELETE", base+"/"+v.ID, key, nil), http.StatusForbidden)
	})
	t.Run("a key with asset.update appends", func(t *testing.T) {
		key := s.CreateKey(session, []string{"asset.update"}, nil)
		appendVersion(t, s, key, a.ID, "k.png", pngImage(t, 8, 8, 4))
	})
	t.Run("bad files are refused", func(t *testing.T) {
		mp4 := append([]byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"), make([]byte, 64)...)
		for name, data := range map[string][]byte{"text": []byte("not an image at all, just text"), "a video": mp4,
			"an empty file": {}} {
			r := sendVersion(t, s, session, "POST", base, "f.jpg", data, nil)
			require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s: %s", name, r.Body)
		}
		items := validationItems(t, sendVersion(t, s, session, "POST", base, "", nil, nil))
		require.Equal(t, []any{"body", "file"}, items[0].Loc)
		items = validationItems(t, sendVersion(t, s, session, "POST", base, "x.png", pngImage(t, 8, 8, 5),
			map[string]string{"library_id": "x"}))
		require.Equal(t, []any{"body", "library_id"}, items[0].Loc)
		items = validationItems(t, s.Do("POST", base, session, map[string]any{}))
		require.Equal(t, []any{"header", "content-type"}, items[0].Loc)
	})
	t.Run("larger than the upload maximum is 413", func(t *testing.T) {
		requireDetail(t, sendVersion(t, s, session, "POST", base, "big.jpg", servertest.JPEG(t, 300, 300, 6), nil),
			http.StatusRequestEntityTooLarge)
	})
	t.Run("refusals leave no file behind", func(t *testing.T) {
		require.Len(t, versionFiles(t, s), 2)
		require.Zero(t, countFiles(t, filepath.Join(s.Config.DataDir, "tmp")))
	})
}

func TestVersionsAreChargedToTheLibraryOwner(t *testing.T) {
	s := servertest.Start(t)
	u, session := s.Session()
	orig := servertest.JPEG(t, 64, 64, 1)
	e1, e2 := servertest.JPEG(t, 64, 64, 2), servertest.JPEG(t, 64, 64, 3)
	s.SetQuota(u.ID, int64(len(orig)+max(len(e1), len(e2))+100))
	a := s.UploadAsset(session, "a.jpg", orig, nil)
	base := "/api/assets/" + a.ID + "/versions"

	v1 := appendVersion(t, s, session, a.ID, "e1.jpg", e1)
	requireDetail(t, sendVersion(t, s, session, "POST", base, "e2.jpg", e2, nil), http.StatusInsufficientStorage)
	requireDetail(t, sendVersion(t, s, session, "PUT", base+"/"+v1.ID, "big.jpg", servertest.JPEG(t, 128, 128, 4), nil),
		http.StatusInsufficientStorage)
	require.Len(t, listVersions(t, s, session, a.ID, "").Data, 2, "a refused version is not stored")

	small := servertest.JPEG(t, 8, 8, 5)
	r := sendVersion(t, s, session, "PUT", base+"/"+v1.ID, "small.jpg", small, nil)
	require.Equal(t, http.StatusOK, r.Status, "shrinking is charged as a credit: %s", r.Body)
	require.Equal(t, http.StatusNoContent, s.Do("DELETE", base+"/"+v1.ID, session, nil).Status)
	appendVersion(t, s, session, a.ID, "e2.jpg", e2) // fits once v1 is freed

	// Permanently deleting the asset frees the original and every version.
	r = s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{a.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	b := s.UploadAsset(session, "again.jpg", orig, nil)
	appendVersion(t, s, session, b.ID, "e1.jpg", e1)
}

func TestDeletingAnAssetRemovesItsVersionFiles(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 32, 32, 1), nil)
	v := appendVersion(t, s, session, a.ID, "1.png", pngImage(t, 16, 16, 1))
	appendVersion(t, s, session, a.ID, "2.png", pngImage(t, 16, 16, 2))
	r := sendVersion(t, s, session, "PUT", "/api/assets/"+a.ID+"/versions/"+v.ID, "1b.png", pngImage(t, 20, 20, 3), nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Len(t, versionFiles(t, s), 2)

	r = s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{a.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Empty(t, versionFiles(t, s))
	require.Zero(t, countFiles(t, filepath.Join(s.Config.DataDir, "blobs")))
	requireDetail(t, s.Do("GET", "/api/assets/"+a.ID+"/versions", session, nil), http.StatusNotFound)
}

// TestVersionsWithBlobsInABucket: with storage.s3 set, an appended version
// goes to the bucket and its file comes back whole and by range; the
// original's file stays what was uploaded.
func TestVersionsWithBlobsInABucket(t *testing.T) {
	svc := s3test.Start(t, "photos")
	s := servertest.Start(t, servertest.WithBucket(svc, "photos", ""))
	_, session := s.Session()
	original := servertest.JPEG(t, 32, 32, 1)
	a := s.UploadAsset(session, "a.jpg", original, nil)
	edit := servertest.JPEG(t, 48, 32, 2)
	v := appendVersion(t, s, session, a.ID, "a-edit.jpg", edit)

	resp, body := download(t, s, session, "/api/assets/"+a.ID+"/versions/"+v.ID+"/file", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, edit, body)
	resp, body = download(t, s, session, "/api/assets/"+a.ID+"/versions/"+v.ID+"/file", map[string]string{"Range": "bytes=0-9"})
	require.Equal(t, http.StatusPartialContent, resp.StatusCode)
	require.Equal(t, edit[:10], body)
	requests := svc.Requests("")
	resp, _ = download(t, s, session, "/api/assets/"+a.ID+"/versions/"+v.ID+"/file",
		map[string]string{"If-None-Match": resp.Header.Get("ETag")})
	require.Equal(t, http.StatusNotModified, resp.StatusCode)
	require.Equal(t, requests, svc.Requests(""), "a version the client has costs the bucket nothing")
	_, body = download(t, s, session, "/api/assets/"+a.ID+"/original", nil)
	require.Equal(t, original, body)
	blobs, _ := os.ReadDir(filepath.Join(s.Config.DataDir, "blobs"))
	require.Empty(t, blobs)
}

// TestBucketOutageAnswers503: when the bucket's service cannot be
// reached, an upload and a download answer 503 with a detail, and the
// upload leaves no row behind.
func TestBucketOutageAnswers503(t *testing.T) {
	svc := s3test.Start(t, "photos")
	s := servertest.Start(t, servertest.WithBucket(svc, "photos", ""))
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 16, 16, 1), nil)
	svc.Stop()

	r := s.Upload(session, "b.jpg", servertest.JPEG(t, 16, 16, 2), nil)
	require.Equal(t, http.StatusServiceUnavailable, r.Status, "%s", r.Body)
	require.Contains(t, r.Map(t)["detail"], "blob storage")
	r = s.Do("GET", "/api/assets/"+a.ID+"/original", session, nil)
	require.Equal(t, http.StatusServiceUnavailable, r.Status, "%s", r.Body)
	require.Len(t, servertest.List[api.Asset](s, session, "/api/assets"), 1, "the failed upload left no asset")
	tmp, _ := os.ReadDir(filepath.Join(s.Config.DataDir, "tmp"))
	require.Len(t, tmp, 1, "nor its staging copy (the one left is the first upload's, kept a while)")
}
