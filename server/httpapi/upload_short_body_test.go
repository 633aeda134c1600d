package httpapi_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// uploadBody is a complete multipart upload: text fields, then the file
// in a part named field, always with the same boundary.
func uploadBody(t *testing.T, field string, data []byte, fields map[string]string) (body []byte, contentType string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	require.NoError(t, mw.SetBoundary("a-boundary-as-long-as-curl-makes-it-0123"))
	for k, v := range fields {
		require.NoError(t, mw.WriteField(k, v))
	}
	fw, err := mw.CreateFormFile(field, "short.jpg")
	require.NoError(t, err)
	_, err = fw.Write(data)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	return b.Bytes(), mw.FormDataContentType()
}

// sendAndHangUp writes a request's head and body by hand, then closes the
// write side as a client that gave up does, and returns what the server
// answered (0 when it answered nothing).
func sendAndHangUp(t *testing.T, addr, method, path string, head []string, body []byte) int {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: photoctl.test\r\n%s\r\n\r\n", method, path, strings.Join(head, "\r\n"))
	req.Write(body)
	_, err = conn.Write(req.Bytes())
	require.NoError(t, err)
	require.NoError(t, conn.(*net.TCPConn).CloseWrite())
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// chunksWithoutTheLast frames body as chunks of 4 KiB without the
// terminating zero-size chunk.
func chunksWithoutTheLast(body []byte) []byte {
	var b bytes.Buffer
	for chunk := range slicesChunk(body, 4<<10) {
		fmt.Fprintf(&b, "%x\r\n%s\r\n", len(chunk), chunk)
	}
	return b.Bytes()
}

// shortBody is a body that ends before its end, with the header that
// announces its length or framing.
type shortBody struct {
	name, header string
	bytes        []byte
}

// shortBodies are the ways an upload body ends early: cut short of its
// Content-Length (in the file, in the closing boundary), complete but
// shorter than declared, or chunked without its last chunk.
func shortBodies(body []byte) []shortBody {
	cl := func(n int) string { return fmt.Sprintf("Content-Length: %d", n) }
	chunks := chunksWithoutTheLast(body)
	return []shortBody{
		{"10 bytes short of its Content-Length", cl(len(body)), body[:len(body)-10]},
		{"1,000 bytes short of its Content-Length", cl(len(body)), body[:len(body)-1000]},
		{"1 byte short of its Content-Length", cl(len(body)), body[:len(body)-1]},
		{"complete but 10 bytes shorter than declared", cl(len(body) + 10), body},
		{"complete but 1,000 bytes shorter than declared", cl(len(body) + 1000), body},
		{"chunked without its last chunk", "Transfer-Encoding: chunked", chunks},
		{"chunked, cut in a chunk", "Transfer-Encoding: chunked", chunks[:len(chunks)/2]},
	}
}

// holdings is what an upload could have changed: the assets, the first
// asset's versions, the files on disk (temporary ones too) and the
// owner's charge.
type holdings struct {
	assets    int
	versions  []string // checksums
	originals []string
	files     []string
	temps     int
	used      int64
}

func holdingsOf(t *testing.T, s *servertest.Server, session, assetID string) holdings {
	t.Helper()
	h := holdings{assets: len(servertest.List[api.Asset](s, session, "/api/assets")),
		originals: servertest.BlobNames(t, s.Config.DataDir, "originals"), files: versionFiles(t, s),
		temps: countFiles(t, filepath.Join(s.Config.DataDir, "tmp")), used: storageOf(t, s, session).UsedBytes}
	for _, v := range listVersions(t, s, session, assetID, "").Data {
		h.versions = append(h.versions, v.Checksum)
	}
	return h
}

// TestUploadCutShortStoresNothing: a client that hangs up before sending
// the whole body it announced leaves no asset, no version, no file and no
// charge, on the native upload, the version routes and the Immich layer.
func TestUploadCutShortStoresNothing(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	key := s.CreateKey(session, []string{"all"}, nil)
	addr := strings.TrimPrefix(s.URL, "http://")
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 64, 64, 1), nil)
	edit := appendVersion(t, s, session, a.ID, "edit.jpg", servertest.JPEG(t, 64, 64, 2))
	bearer, apiKey := "Authorization: Bearer "+session, "x-api-key: "+key
	immichFields := map[string]string{"deviceAssetId": "d1", "deviceId": "cli",
		"fileCreatedAt": "2024-05-01T10:00:00Z", "fileModifiedAt": "2024-05-01T10:00:00Z"}
	targets := []struct {
		name, method, path, credential, field string
		fields                                map[string]string
	}{
		{"native upload", "POST", "/api/assets", bearer, "file", map[string]string{"device_asset_id": "d1"}},
		{"version append", "POST", "/api/assets/" + a.ID + "/versions", bearer, "file", nil},
		{"version replace", "PUT", "/api/assets/" + a.ID + "/versions/" + edit.ID, bearer, "file", nil},
		{"Immich upload", "POST", "/immich/api/assets", apiKey, "assetData", immichFields},
	}
	for i, target := range targets {
		// New bytes for every target, so that none is a duplicate.
		body, contentType := uploadBody(t, target.field, servertest.JPEG(t, 400, 400, 10+i), target.fields)
		require.Greater(t, len(body), 20<<10, "more than fasthttp reads before the handler")
		head := []string{target.credential, "Content-Type: " + contentType}
		for _, sb := range shortBodies(body) {
			t.Run(target.name+", "+sb.name, func(t *testing.T) {
				before := holdingsOf(t, s, session, a.ID)
				status := sendAndHangUp(t, addr, target.method, target.path, append(head, sb.header), sb.bytes)
				require.Contains(t, []int{0, http.StatusBadRequest}, status, "400, if anyone is left to read it")
				require.Equal(t, before, holdingsOf(t, s, session, a.ID), "no asset, version, file or charge")
			})
		}
		t.Run(target.name+", whole, then the client hangs up", func(t *testing.T) {
			before := holdingsOf(t, s, session, a.ID)
			status := sendAndHangUp(t, addr, target.method, target.path,
				append(head, fmt.Sprintf("Content-Length: %d", len(body))), body)
			require.Contains(t, []int{200, 201}, status, "a complete body is taken")
			require.NotEqual(t, before, holdingsOf(t, s, session, a.ID))
		})
		t.Run(target.name+", whole and chunked, the client waiting", func(t *testing.T) {
			before := holdingsOf(t, s, session, a.ID)
			other, _ := uploadBody(t, target.field, servertest.JPEG(t, 400, 400, 20+i), target.fields)
			resp := dialRaw(t, addr).send(target.method, target.path, other, true, head...)
			require.Contains(t, []int{200, 201}, resp.StatusCode, "a complete chunked body is taken")
			require.NotEqual(t, before, holdingsOf(t, s, session, a.ID))
		})
	}
}
