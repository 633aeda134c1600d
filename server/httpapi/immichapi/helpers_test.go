package immichapi_test

import (
	"bytes"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// immichClient talks to the Immich layer of a test server as an Immich
// client does: x-api-key (or a bearer token) and camelCase bodies.
type immichClient struct {
	t      *testing.T
	s      *servertest.Server
	base   string // http://host:port/immich, or a second listener's root
	key    string // sent as x-api-key
	bearer string // sent as Authorization: Bearer when key is empty
}

// newImmich starts a server, creates a user and an "all" key, and returns
// a client of its /immich layer.
func newImmich(t *testing.T) (*immichClient, servertest.User, string) {
	t.Helper()
	s := servertest.Start(t)
	u, session := s.Session()
	return &immichClient{t: t, s: s, base: s.URL + "/immich", key: s.CreateKey(session, []string{"all"}, nil)}, u, session
}

// with returns a copy of c that authenticates with another key.
func (c *immichClient) with(key string) *immichClient {
	cp := *c
	cp.key = key
	return &cp
}

// send sends a request with the client's credential and extra headers.
func (c *immichClient) send(req *http.Request, header map[string]string) *servertest.Response {
	c.t.Helper()
	if c.key != "" {
		req.Header.Set("x-api-key", c.key)
	} else if c.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return c.s.RoundTrip(req)
}

// do sends a JSON request (body nil for none).
func (c *immichClient) do(method, path string, body any) *servertest.Response {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		require.NoError(c.t, err)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	require.NoError(c.t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.send(req, nil)
}

// ok sends a request, requires status want and decodes the body into out.
func (c *immichClient) ok(want int, method, path string, body, out any) {
	c.t.Helper()
	r := c.do(method, path, body)
	require.Equal(c.t, want, r.Status, "%s %s: %s", method, path, r.Body)
	require.Equal(c.t, "application/json", r.Header.Get("Content-Type"), "%s %s", method, path)
	if out != nil {
		r.JSON(c.t, out)
	}
}

// immichUploadResponse is the body of an upload answer.
type immichUploadResponse struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// upload sends an Immich upload as the CLI does (text fields first, then
// the file) with extra headers; fields may override the defaults.
func (c *immichClient) upload(name string, data []byte, fields, header map[string]string) *servertest.Response {
	c.t.Helper()
	all := map[string]string{"fileCreatedAt": "2024-05-01T10:00:00.000Z", "fileModifiedAt": "2024-05-01T10:00:00.000Z",
		"fileSize": "1", "isFavorite": "false"}
	for k, v := range fields {
		all[k] = v
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range all {
		if v != "" {
			require.NoError(c.t, mw.WriteField(k, v))
		}
	}
	fw, err := mw.CreateFormFile("assetData", name)
	require.NoError(c.t, err)
	_, err = fw.Write(data)
	require.NoError(c.t, err)
	require.NoError(c.t, mw.Close())
	req, err := http.NewRequest("POST", c.base+"/api/assets", &body)
	require.NoError(c.t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.send(req, header)
}

// uploadNew uploads data and requires a 201, returning the asset id.
func (c *immichClient) uploadNew(name string, data []byte) string {
	c.t.Helper()
	r := c.upload(name, data, nil, nil)
	res := servertest.Expect[immichUploadResponse](c.t, r, http.StatusCreated)
	require.Equal(c.t, "created", res.Status)
	return res.ID
}

// immichError is Immich's error body.
type immichError struct {
	Message    string `json:"message"`
	Error      string `json:"error"`
	StatusCode int    `json:"statusCode"`
}

// requireImmichError requires status and Immich's error body for it.
func requireImmichError(t *testing.T, r *servertest.Response, status int) immichError {
	t.Helper()
	e := servertest.Expect[immichError](t, r, status)
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	require.Equal(t, status, e.StatusCode)
	require.Equal(t, http.StatusText(status), e.Error)
	require.NotEmpty(t, e.Message)
	return e
}

func sha1Hex(data []byte) string {
	sum := sha1.Sum(data)
	return hex.EncodeToString(sum[:])
}

func sha1Base64(data []byte) string {
	sum := sha1.Sum(data)
	return base64.StdEncoding.EncodeToString(sum[:])
}
