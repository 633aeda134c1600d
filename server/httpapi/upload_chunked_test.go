package httpapi_test

import (
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptrace"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestChunkedUploadKeepsTheConnectionUsable uploads with a chunked body
// (no Content-Length, as a client streaming from a pipe sends it) and
// then sends a second request on the same keep-alive connection: the
// server must have read the body's last chunk.
func TestChunkedUploadKeepsTheConnectionUsable(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	client := &http.Client{Transport: &http.Transport{}}
	upload := func(seed int) bool {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			fw, _ := mw.CreateFormFile("file", "c.jpg")
			fw.Write(servertest.JPEG(t, 16, 16, seed))
			pw.CloseWithError(mw.Close())
		}()
		req, err := http.NewRequest("POST", s.URL+"/api/assets", pr)
		require.NoError(t, err)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+session)
		reused := false
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused }}))
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", body)
		return reused
	}
	require.False(t, upload(1))
	require.True(t, upload(2), "the second upload rides the same connection")
	require.True(t, upload(3))
}
