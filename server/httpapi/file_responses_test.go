package httpapi_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob/s3test"
	"github.com/photoctl/photoctl/server/servertest"
)

// servedFile is a file the server streams, and the bytes it must send.
type servedFile struct {
	name, path string
	headers    map[string]string // the credential
	data       []byte
	head       bool // HEAD is routed too
}

// servedFiles uploads an asset and a version and returns the files the
// server streams of them: original, version file, renderings (on disk,
// where the pipeline writes them) and the Immich layer's original.
func servedFiles(t *testing.T, s *servertest.Server, onDisk bool) []servedFile {
	t.Helper()
	_, session := s.Session()
	key := s.CreateKey(session, []string{"all"}, nil)
	bearer := map[string]string{"Authorization": "Bearer " + session}
	original := servertest.JPEG(t, 64, 64, 1)
	a := s.UploadAsset(session, "a.jpg", original, nil)
	edit := servertest.JPEG(t, 48, 64, 2)
	v := appendVersion(t, s, session, a.ID, "a-edit.jpg", edit)
	files := []servedFile{
		{"original", "/api/assets/" + a.ID + "/original", bearer, original, true},
		{"version file", "/api/assets/" + a.ID + "/versions/" + v.ID + "/file", bearer, edit, true},
		{"Immich original", "/immich/api/assets/" + a.ID + "/original", map[string]string{"x-api-key": key}, original, false},
	}
	if onDisk {
		thumb := servertest.JPEG(t, 16, 16, 3)
		dir := servertest.BlobFile(t, s.Config.DataDir, "variants/"+a.ID)
		require.NoError(t, os.MkdirAll(dir, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "thumbnail.jpg"), thumb, 0o600))
		files = append(files, servedFile{"thumbnail", "/api/assets/" + a.ID + "/variants/thumbnail", bearer, thumb, true})
	}
	return files
}

// withHeader returns h plus one more header.
func withHeader(h map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for hk, hv := range h {
		out[hk] = hv
	}
	return out
}

// TestFileResponsesRangesHeadAndNosniff: every streamed file honours one
// byte range, answers one it cannot satisfy (bytes=-0, a start at or past
// the end) with 416 and Content-Range: bytes */size, ignores a malformed
// one, answers HEAD as GET without the body, and is sent with
// X-Content-Type-Options: nosniff; from the local disk and from a bucket.
func TestFileResponsesRangesHeadAndNosniff(t *testing.T) {
	for _, where := range []string{"local disk", "bucket"} {
		t.Run(where, func(t *testing.T) {
			var s *servertest.Server
			if where == "bucket" {
				s = servertest.Start(t, servertest.WithBucket(s3test.Start(t, "photos"), "photos", ""))
			} else {
				s = servertest.Start(t)
			}
			for _, f := range servedFiles(t, s, where == "local disk") {
				t.Run(f.name, func(t *testing.T) { checkFileResponses(t, s, f) })
			}
		})
	}
}

func checkFileResponses(t *testing.T, s *servertest.Server, f servedFile) {
	n := len(f.data)
	whole := s.Get(f.path, "", f.headers)
	require.Equal(t, http.StatusOK, whole.Status, "%s", whole.Body)
	require.Equal(t, f.data, whole.Body)
	require.Equal(t, "nosniff", whole.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "bytes", whole.Header.Get("Accept-Ranges"))

	for _, c := range []struct {
		name, header string
		status       int
		first, last  int // the bytes sent, for 206
	}{
		{"an empty suffix", "bytes=-0", 416, 0, 0},
		{"a start at the end", fmt.Sprintf("bytes=%d-", n), 416, 0, 0},
		{"a start past the end", fmt.Sprintf("bytes=%d-%d", n+5, n+10), 416, 0, 0},
		{"a start past any end", "bytes=99999999999999999999999-", 416, 0, 0},
		{"the first byte", "bytes=0-0", 206, 0, 0},
		{"the last byte", "bytes=-1", 206, n - 1, n - 1},
		{"from the last byte", fmt.Sprintf("bytes=%d-", n-1), 206, n - 1, n - 1},
		{"an end past the end", "bytes=10-99999999", 206, 10, n - 1},
		{"a suffix longer than the file", fmt.Sprintf("bytes=-%d", n+100), 206, 0, n - 1},
		{"an end before the start is ignored", "bytes=5-2", 200, 0, 0},
		{"another unit is ignored", "items=0-1", 200, 0, 0},
		{"a malformed range is ignored", "bytes=a-b", 200, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := s.Get(f.path, "", withHeader(f.headers, "Range", c.header))
			require.Equal(t, c.status, r.Status, "%s", r.Body)
			require.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"))
			switch c.status {
			case 416:
				require.Equal(t, fmt.Sprintf("bytes */%d", n), r.Header.Get("Content-Range"))
			case 206:
				require.Equal(t, fmt.Sprintf("bytes %d-%d/%d", c.first, c.last, n), r.Header.Get("Content-Range"))
				require.Equal(t, f.data[c.first:c.last+1], r.Body)
			default:
				require.Empty(t, r.Header.Get("Content-Range"))
				require.Equal(t, f.data, r.Body)
			}
		})
	}
	if !f.head {
		return
	}
	t.Run("HEAD answers as GET without the body", func(t *testing.T) {
		for _, rh := range []string{"", "bytes=0-9", "bytes=-0"} {
			h := f.headers
			if rh != "" {
				h = withHeader(h, "Range", rh)
			}
			get := s.Get(f.path, "", h)
			head, next := headThenPing(t, s, f.path, h)
			require.Equal(t, get.Status, head.StatusCode, "Range %q", rh)
			for _, name := range []string{"Content-Length", "Content-Type", "ETag", "Accept-Ranges",
				"Content-Disposition", "Content-Range", "Cache-Control", "X-Content-Type-Options"} {
				require.Equal(t, get.Header.Get(name), head.Header.Get(name), "%s, Range %q", name, rh)
			}
			require.Equal(t, fmt.Sprint(len(get.Body)), head.Header.Get("Content-Length"), "Range %q", rh)
			require.Equal(t, http.StatusOK, next.StatusCode, "no body came before the next answer")
		}
	})
}

// headThenPing sends HEAD path and then a ping on one connection, and
// returns both answers: the ping parses only if HEAD sent no body.
func headThenPing(t *testing.T, s *servertest.Server, path string, headers map[string]string) (head, next *http.Response) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	var req strings.Builder
	fmt.Fprintf(&req, "HEAD %s HTTP/1.1\r\nHost: photoctl.test\r\n", path)
	for k, v := range headers {
		fmt.Fprintf(&req, "%s: %s\r\n", k, v)
	}
	req.WriteString("\r\nGET /api/health/ping HTTP/1.1\r\nHost: photoctl.test\r\n\r\n")
	_, err = io.WriteString(conn, req.String())
	require.NoError(t, err)
	r := bufio.NewReader(conn)
	head, err = http.ReadResponse(r, &http.Request{Method: "HEAD"})
	require.NoError(t, err)
	next, err = http.ReadResponse(r, nil)
	require.NoError(t, err, "the answer after HEAD")
	body, err := io.ReadAll(next.Body)
	require.NoError(t, err)
	require.JSONEq(t, `{"status":"ok","version":"dev"}`, string(body))
	return head, next
}

// TestFaceThumbnailIsSentNosniff: a file the server makes (a face
// thumbnail) is marked nosniff like the stored ones.
func TestFaceThumbnailIsSentNosniff(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "1.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	f := face(t, s, session, a.ID, nil)
	dir := servertest.BlobFile(t, s.Config.DataDir, "variants/"+a.ID)
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "preview.jpg"), servertest.JPEG(t, 400, 200, 3), 0o600))
	r := s.Get(f.ThumbnailURL, session, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "image/webp", r.Header.Get("Content-Type"))
	require.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"))
}
