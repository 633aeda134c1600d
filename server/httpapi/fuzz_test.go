package httpapi_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// The fuzz targets of the HTTP surface go through the real server: one
// loopback server per fuzz process (started before f.Fuzz, so a fuzz
// worker starts it once and sends it every input), a user with a session
// and an "all" API key, and one asset, album and person to aim at. Each
// input must get an answer below 500: a panic would surface as a 500
// through the recover middleware, a refused input as 4xx.

// fuzzTarget is the server under fuzzing and the ids its inputs aim at.
type fuzzTarget struct {
	url, token, key           string
	asset, album, person, lib string
	http                      *http.Client
}

func startFuzzTarget(f *testing.F) *fuzzTarget {
	s := servertest.Start(f)
	_, token := s.Session()
	a := s.UploadAsset(token, "seed.jpg", servertest.JPEG(f, 32, 24, 1), nil)
	r := s.Do("POST", "/api/albums", token, api.AlbumCreateRequest{Name: "fuzz"})
	al := servertest.Expect[api.Album](f, r, http.StatusCreated)
	r = s.Do("POST", "/api/people", token, map[string]any{"name": "Fuzz"})
	p := servertest.Expect[api.Person](f, r, http.StatusCreated)
	return &fuzzTarget{url: s.URL, token: token, key: s.CreateKey(token, []string{"all"}, nil),
		asset: a.ID, album: al.ID, person: p.ID, lib: a.LibraryID, http: &http.Client{Timeout: 60 * time.Second}}
}

// expand puts the target's ids into a path template.
func (ft *fuzzTarget) expand(path string) string {
	return strings.NewReplacer("{asset}", ft.asset, "{album}", ft.album, "{person}", ft.person, "{lib}", ft.lib).Replace(path)
}

// send sends one request (a session bearer, or the API key under /immich)
// and fails the input on a 5xx.
func (ft *fuzzTarget) send(t *testing.T, method, path, contentType string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ft.url+path, bytes.NewReader(body))
	require.NoError(t, err, "%s %q", method, path)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if strings.HasPrefix(path, "/immich/") {
		req.Header.Set("x-api-key", ft.key)
	} else {
		req.Header.Set("Authorization", "Bearer "+ft.token)
	}
	resp, err := ft.http.Do(req)
	require.NoError(t, err, "%s %s", method, path)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Less(t, resp.StatusCode, 500, "%s %s\nbody sent: %q\nanswer: %s", method, path, body, out)
	return resp.StatusCode, out
}

// queryEscape percent-encodes the bytes a request line cannot carry, and
// nothing else, so the server sees the fuzzer's query as it was meant.
func queryEscape(q string) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if c := q[i]; c <= ' ' || c >= 0x7f || c == '#' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// queryPaths are the lists whose query parameters FuzzListQuery tries.
var queryPaths = []string{"/api/assets", "/api/assets/counts", "/api/assets/geo-clusters", "/api/search",
	"/api/album-assets", "/api/albums", "/api/people", "/api/faces", "/api/tasks", "/api/events", "/api/stacks",
	"/api/libraries", "/api/api-keys"}

// FuzzListQuery fuzzes the query strings of the list endpoints: bbox,
// center/radius, capture datetimes with and without offsets, id lists,
// cursors (starting_after_id), limits, enums, text (query=).
func FuzzListQuery(f *testing.F) {
	for _, q := range []string{
		"bbox=170,-10,-170,10&order=asc", "center=2.35,48.85&radius=1000", "local_datetime_after=2024-05-01T10:00:00%2B02:00&local_datetime_before=2024-05-02",
		"ids=a,b,,c&ids=d", "starting_after_id=ast_0000&limit=200", "limit=0", "limit=-1", "limit=99999999999999999999",
		"query=%27%3B%20DROP%20TABLE%20assets%3B--&person_ids=x", "query=%22%25_%5C", "min_rating=5&media_type=video&state=all",
		"include=variants&variants=thumbnail,preview", "radius=1e309&center=0,0", "starting_after_id=%00", "query=NEAR(a b)*:^",
	} {
		for i := range queryPaths {
			if i < 5 {
				f.Add(uint8(i), q)
			}
		}
	}
	ft := startFuzzTarget(f)
	f.Fuzz(func(t *testing.T, which uint8, q string) {
		path := queryPaths[int(which)%len(queryPaths)]
		if strings.Contains(path, "album-assets") && !strings.Contains(q, "album_id") {
			q = "album_id=" + ft.album + "&" + q
		}
		ft.send(t, "GET", path+"?"+queryEscape(q), "", nil)
	})
}

// patchBodies are the JSON bodies FuzzJSONBody sends (method, path).
var patchBodies = [][2]string{
	{"PATCH", "/api/assets/{asset}"}, {"POST", "/api/assets/bulk-update"}, {"PATCH", "/api/albums/{album}"},
	{"PATCH", "/api/people/{person}"}, {"PATCH", "/api/users/me/preferences"}, {"PATCH", "/api/libraries/{lib}"},
	{"POST", "/api/assets/check"}, {"POST", "/api/albums/{album}/assets"}, {"POST", "/api/assets/restore"},
}

// FuzzJSONBody fuzzes the strictly decoded JSON bodies of the PATCH
// endpoints and bulk update (decodeJSON and the services behind it).
func FuzzJSONBody(f *testing.F) {
	seeds := []string{
		`{"description":"x","latitude":48.85,"longitude":2.35,"original_datetime":"2024-05-01T10:00:00+02:00","rating":5}`,
		`{"updates":[{"id":"{asset}","change":{"rating":3,"latitude":null}}]}`,
		`{"updates":[{"id":"{asset}","change":{"original_datetime":"9999-12-31T23:59:59-23:59"}},{"id":"{asset}","change":{}}]}`,
		`{"name":"'; DROP TABLE albums; --","description":"\u0000"}`, `{"latitude":1e309}`, `{"rating":-1}`,
		`{"updates":[]}`, `{"a":{"b":[{"c":1}]}}`, `[]`, `null`, `{"description":"x"} trailing`, `{"rating":1.5}`,
		`{"checksums":["00"]}`, `{"asset_ids":["{asset}","{asset}"]}`, `{"ids":["{asset}"]}`, `{`, "\xff\xfe",
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
	}
	ft := startFuzzTarget(f)
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		ep := patchBodies[int(which)%len(patchBodies)]
		ft.send(t, ep[0], ft.expand(ep[1]), "application/json", []byte(ft.expand(string(body))))
	})
}

// uploadPaths are the multipart endpoints FuzzMultipartUpload sends to.
var uploadPaths = []string{"/api/assets", "/immich/api/assets", "/api/assets/{asset}/versions", "/api/search"}

// multipartSeed builds a well-formed multipart body with the boundary b.
func multipartSeed(f *testing.F, b string, parts [][3]string) []byte {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	require.NoError(f, mw.SetBoundary(b))
	for _, p := range parts { // field, file name ("" for a plain field), content
		var w io.Writer
		var err error
		if p[1] == "" {
			w, err = mw.CreateFormField(p[0])
		} else {
			w, err = mw.CreateFormFile(p[0], p[1])
		}
		require.NoError(f, err)
		_, err = io.WriteString(w, p[2])
		require.NoError(f, err)
	}
	require.NoError(f, mw.Close())
	return buf.Bytes()
}

// FuzzMultipartUpload fuzzes multipart bodies (and their boundary) of the
// native and Immich uploads, version uploads and image search.
func FuzzMultipartUpload(f *testing.F) {
	jpeg := string(servertest.JPEG(f, 8, 8, 7))
	xmp := `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="9"/></rdf:RDF></x:xmpmeta>`
	seeds := [][][3]string{
		{{"file", "a.jpg", jpeg}},
		{{"file", "../../etc/passwd.jpg", jpeg}, {"sidecar", "a.jpg.xmp", xmp}},
		{{"assetData", "b.jpg", jpeg}, {"deviceAssetId", "", "x"}, {"deviceId", "", "y"}, {"fileCreatedAt", "", "2024-05-01T10:00:00.000Z"}, {"fileModifiedAt", "", "not a date"}},
		{{"file", "a\x00b.jpg", "GIF89a<script>"}, {"file", "second.jpg", jpeg}},
		{{"library_id", "", "'; --"}, {"file", "", ""}},
		{{"image", "q.png", "\x89PNG\r\n\x1a\n"}, {"query", "", "%_\\"}},
	}
	for i, s := range seeds {
		f.Add(uint8(i), "fuzzboundary", multipartSeed(f, "fuzzboundary", s))
	}
	f.Add(uint8(0), "", []byte("--\r\n"))
	f.Add(uint8(1), strings.Repeat("b", 80), []byte("--"+strings.Repeat("b", 80)+"\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''%E2%80%AEgpj.exe\r\n\r\nx\r\n--"+strings.Repeat("b", 80)+"--\r\n"))
	ft := startFuzzTarget(f)
	f.Fuzz(func(t *testing.T, which uint8, boundary string, body []byte) {
		path := ft.expand(uploadPaths[int(which)%len(uploadPaths)])
		ct := "multipart/form-data; boundary=" + boundary
		if strings.ContainsFunc(boundary, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			ct = "multipart/form-data" // a header cannot carry controls
		}
		ft.send(t, "POST", path, ct, body)
	})
}

// immichBodies are the JSON bodies of the Immich layer.
var immichBodies = [][2]string{
	{"POST", "/immich/api/assets/bulk-upload-check"}, {"POST", "/immich/api/search/metadata"},
	{"POST", "/immich/api/albums"}, {"PUT", "/immich/api/albums/{album}/assets"},
}

// FuzzImmichBody fuzzes the Immich compat bodies (camelCase, lenient
// decoding as Immich clients expect).
func FuzzImmichBody(f *testing.F) {
	seeds := []string{
		`{"assets":[{"id":"/photos/a.jpg","checksum":"da39a3ee5e6b4b0d3255bfef95601890afd80709"},{"id":"b","checksum":"2jmj7l5rSw0yVb/vlWAYkK/YBwk="}]}`,
		`{"page":"2","size":1000,"withExif":true,"order":"asc","type":"IMAGE","trashedAfter":"2024-05-01T00:00:00.000Z"}`,
		`{"albumName":"'; DROP TABLE albums; --","assetIds":["{asset}","nope"],"albumUsers":[{}]}`,
		`{"ids":["{asset}","{asset}",""]}`, `{"page":-1,"size":-5}`, `{"page":"9223372036854775807"}`, `{"assets":null}`,
		`{"trashedBefore":"9999-99-99"}`, `{"albumName":""}`, `[]`, `{"ids":[1,2]}`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
	}
	ft := startFuzzTarget(f)
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		ep := immichBodies[int(which)%len(immichBodies)]
		ft.send(t, ep[0], ft.expand(ep[1]), "application/json", []byte(ft.expand(string(body))))
	})
}
