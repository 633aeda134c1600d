package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestJSONAnswersAreCompressedForClientsThatAcceptIt: a page of assets
// goes out compressed when the client accepts it (brotli preferred, then
// gzip), with Vary, and decompresses to the very bytes a client that does
// not accept it gets; small answers and files go out as they are.
func TestJSONAnswersAreCompressedForClientsThatAcceptIt(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "response compression")
	s := servertest.Start(t)
	_, session := s.Session()
	original := servertest.JPEG(t, 64, 64, 1)
	a := s.UploadAsset(session, "a.jpg", original, nil)
	s.UploadAsset(session, "b.jpg", servertest.JPEG(t, 64, 64, 2), nil)

	plain := s.Get("/api/assets", session, map[string]string{"Accept-Encoding": "identity"})
	require.Equal(t, http.StatusOK, plain.Status, "%s", plain.Body)
	require.Empty(t, plain.Header.Get("Content-Encoding"))
	require.Greater(t, len(plain.Body), 1024)

	zipped := s.Get("/api/assets", session, map[string]string{"Accept-Encoding": "gzip"})
	require.Equal(t, http.StatusOK, zipped.Status)
	require.Equal(t, "gzip", zipped.Header.Get("Content-Encoding"))
	require.Contains(t, zipped.Header.Values("Vary"), "Accept-Encoding")
	require.Less(t, len(zipped.Body), len(plain.Body)/2)
	zr, err := gzip.NewReader(bytes.NewReader(zipped.Body))
	require.NoError(t, err)
	body, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Equal(t, plain.Body, body)

	r := s.Get("/api/assets", session, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
	require.Equal(t, "br", r.Header.Get("Content-Encoding"), "brotli, when offered")

	r = s.Get("/api/users/me", session, map[string]string{"Accept-Encoding": "gzip"})
	require.Equal(t, http.StatusOK, r.Status)
	require.Less(t, len(r.Body), 1024)
	require.Empty(t, r.Header.Get("Content-Encoding"), "a small answer goes as it is")

	r = s.Get("/api/assets/"+a.ID+"/original", session, map[string]string{"Accept-Encoding": "gzip"})
	require.Equal(t, http.StatusOK, r.Status)
	require.Empty(t, r.Header.Get("Content-Encoding"), "a file goes as it is")
	require.Equal(t, original, r.Body)

	u := s.CreateUser()
	r = s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: u.Email, Password: u.Password})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"), "tokens are never cached (nor compressed)")
	require.Equal(t, "no-cache", r.Header.Get("Pragma"))
	r = s.Do("POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: "script", Scope: &api.APIKeyScope{Actions: []string{"asset.read"}}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"), "nor a new key's secret")

	off := servertest.Start(t, func(c *app.Config) { c.Compression = false })
	_, session = off.Session()
	off.UploadAsset(session, "a.jpg", original, nil)
	off.UploadAsset(session, "b.jpg", servertest.JPEG(t, 64, 64, 2), nil)
	r = off.Get("/api/assets", session, map[string]string{"Accept-Encoding": "gzip, br"})
	require.Equal(t, http.StatusOK, r.Status)
	require.Greater(t, len(r.Body), 1024)
	require.Empty(t, r.Header.Get("Content-Encoding"), "compression off")
}
