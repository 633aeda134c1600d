package httpapi_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func download(t *testing.T, s *servertest.Server, token, path string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	r := s.Get(path, token, headers)
	return &http.Response{StatusCode: r.Status, Header: r.Header}, r.Body
}

func TestOriginalDownload(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	data := servertest.JPEG(t, 64, 64, 7)
	a := s.UploadAsset(session, "Été à Paris \"1\".jpg", data, nil)
	path := "/api/assets/" + a.ID + "/original"

	resp, body := download(t, s, session, path, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, data, body)
	require.Equal(t, "image/jpeg", resp.Header.Get("Content-Type"))
	cd := resp.Header.Get("Content-Disposition")
	require.True(t, strings.HasPrefix(cd, "attachment;"), cd)
	require.Contains(t, cd, "filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Paris%20%221%22.jpg")
	require.NotContains(t, cd, "\n")
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)

	t.Run("If-None-Match answers 304", func(t *testing.T) {
		resp, body := download(t, s, session, path, map[string]string{"If-None-Match": etag})
		require.Equal(t, http.StatusNotModified, resp.StatusCode)
		require.Empty(t, body)
	})
	t.Run("a byte range", func(t *testing.T) {
		resp, body := download(t, s, session, path, map[string]string{"Range": "bytes=10-19"})
		require.Equal(t, http.StatusPartialContent, resp.StatusCode)
		require.Equal(t, data[10:20], body)
		require.Equal(t, fmt.Sprintf("bytes 10-19/%d", len(data)), resp.Header.Get("Content-Range"))
	})
	t.Run("several ranges get the whole file", func(t *testing.T) {
		resp, body := download(t, s, session, path, map[string]string{"Range": "bytes=0-1,5-6"})
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Equal(t, data, body)
	})
	t.Run("a suffix range", func(t *testing.T) {
		resp, body := download(t, s, session, path, map[string]string{"Range": "bytes=-5"})
		require.Equal(t, http.StatusPartialContent, resp.StatusCode)
		require.Equal(t, data[len(data)-5:], body)
	})
	t.Run("If-Range with another ETag sends the whole file", func(t *testing.T) {
		resp, body := download(t, s, session, path, map[string]string{"Range": "bytes=0-1", "If-Range": `"other"`})
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Equal(t, data, body)
	})
	t.Run("another user gets 404", func(t *testing.T) {
		_, other := s.Session()
		resp, _ := download(t, s, other, path, nil)
		require.Equal(t, http.StatusNotFound, resp.StatusCode)
	})
	t.Run("a rendering not generated yet is 404, an unknown name 422", func(t *testing.T) {
		requireDetail(t, s.Do("GET", "/api/assets/"+a.ID+"/variants/thumbnail", session, nil), http.StatusNotFound)
		validationItems(t, s.Do("GET", "/api/assets/"+a.ID+"/variants/huge", session, nil))
	})
}

func TestParallelUploadsOfTheSameBytesYieldOneAsset(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	data := servertest.JPEG(t, 128, 128, 9)
	const n = 8
	var wg sync.WaitGroup
	statuses := make([]int, n)
	idsSeen := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.Upload(session, "same.jpg", data, nil)
			statuses[i] = r.Status
			var body struct{ ID string }
			r.JSON(t, &body)
			idsSeen[i] = body.ID
		}()
	}
	wg.Wait()
	created := 0
	for i := range n {
		require.Contains(t, []int{http.StatusCreated, http.StatusOK}, statuses[i])
		if statuses[i] == http.StatusCreated {
			created++
		}
		require.Equal(t, idsSeen[0], idsSeen[i], "every upload names the same asset")
	}
	require.Equal(t, 1, created)
	require.Len(t, listAssets(t, s, session, ""), 1)
	require.Equal(t, 1, countFiles(t, filepath.Join(s.Config.DataDir, "blobs")))
}

// countFiles counts regular files under dir.
func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

func TestClientDisconnectingMidUploadLeavesNothing(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	require.NoError(t, err)
	const boundary = "XBOUNDARYX"
	head := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.jpg\"\r\n" +
		"Content-Type: image/jpeg\r\n\r\n"
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "POST /api/assets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n%s", session, boundary, 50<<20, head)
	w.Write(servertest.JPEG(t, 256, 256, 3))
	w.Write(make([]byte, 2<<20))
	require.NoError(t, w.Flush())
	time.Sleep(200 * time.Millisecond)
	conn.Close()

	require.Eventually(t, func() bool {
		return countFiles(t, filepath.Join(s.Config.DataDir, "tmp")) == 0
	}, 5*time.Second, 50*time.Millisecond, "the temporary file is removed")
	require.Zero(t, countFiles(t, filepath.Join(s.Config.DataDir, "blobs")))
	require.Empty(t, listAssets(t, s, session, "?state=all"))
}

func TestTrashRetentionPurges(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	key := s.CreateKey(session, []string{"all"}, nil) // outlives the clock jumps below
	old := s.UploadAsset(key, "old.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	recent := s.UploadAsset(key, "recent.jpg", servertest.JPEG(t, 8, 8, 2), nil)
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", key, api.AssetIDs{IDs: []string{old.ID}}).Status)

	s.Clock.Advance(s.Config.Trash.Retention - time.Hour)
	require.Zero(t, s.PurgeTrash(), "inside the retention window")
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", key, api.AssetIDs{IDs: []string{recent.ID}}).Status)

	s.Clock.Advance(2 * time.Hour)
	require.Equal(t, 1, s.PurgeTrash(), "only the asset trashed longer than the window")
	requireDetail(t, s.Do("GET", "/api/assets/"+old.ID, key, nil), http.StatusNotFound)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/assets/"+recent.ID, key, nil).Status)
	require.Equal(t, 1, countFiles(t, filepath.Join(s.Config.DataDir, "blobs")))
}

func TestVariantsAreServedAndDeletedWithTheAsset(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 32, 32, 1), nil)
	// Stand in for the ingest pipeline: a thumbnail where it writes one.
	thumb := servertest.JPEG(t, 8, 8, 2)
	dir := servertest.BlobFile(t, s.Config.DataDir, "variants/"+a.ID)
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "thumbnail.jpg"), thumb, 0o600))

	resp, body := download(t, s, session, "/api/assets/"+a.ID+"/variants/thumbnail", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, thumb, body)
	require.Equal(t, "image/jpeg", resp.Header.Get("Content-Type"))
	resp, _ = download(t, s, session, "/api/assets/"+a.ID+"/variants/thumbnail",
		map[string]string{"If-None-Match": resp.Header.Get("ETag")})
	require.Equal(t, http.StatusNotModified, resp.StatusCode)

	// A JPEG's fullsize is the original itself; no copy is stored.
	resp, body = download(t, s, session, "/api/assets/"+a.ID+"/variants/fullsize", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, servertest.JPEG(t, 32, 32, 1), body)
	require.Equal(t, "image/jpeg", resp.Header.Get("Content-Type"))

	require.Equal(t, http.StatusOK, s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{a.ID}}).Status)
	_, err := os.Stat(dir)
	require.ErrorIs(t, err, os.ErrNotExist, "the asset's renderings go with it")
}
