package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestRenderingsAreCachedUnderTheirVersion: asset_urls name a rendering
// with the asset's rendering version; under it the thumbnail may be kept a
// year, without it it is revalidated; the strong ETag answers 304; a change
// to the asset gives the thumbnail a new address, under which the old one
// is no longer immutable.
func TestRenderingsAreCachedUnderTheirVersion(t *testing.T) {
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.ML.Enabled = false })
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 640, 480, 7), nil)
	s.WaitForTasks(session, a.ID, 3*time.Minute)

	var got api.Asset
	s.Do("GET", "/api/assets/"+a.ID, session, nil).JSON(t, &got)
	thumb := *got.AssetURLs.Thumbnail
	require.True(t, strings.HasPrefix(thumb, "/api/assets/"+a.ID+"/variants/thumbnail?v="), thumb)
	require.Equal(t, strings.Replace(thumb, "thumbnail", "preview", 1), *got.AssetURLs.Preview)

	r := s.Get(thumb, session, nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, "private, max-age=31536000, immutable", r.Header.Get("Cache-Control"))
	etag := r.Header.Get("ETag")
	require.Regexp(t, `^"[^"]+"$`, etag, "a strong validator")
	require.Equal(t, http.StatusNotModified, s.Get(thumb, session, map[string]string{"If-None-Match": etag}).Status)

	bare := s.Get("/api/assets/"+a.ID+"/variants/thumbnail", session, nil)
	require.Equal(t, http.StatusOK, bare.Status)
	require.Equal(t, "private, no-cache", bare.Header.Get("Cache-Control"))
	require.Equal(t, etag, bare.Header.Get("ETag"), "the same file")
	require.Equal(t, r.Body, bare.Body)

	require.Equal(t, http.StatusOK, s.Do("PATCH", "/api/assets/"+a.ID, session, map[string]any{"rating": 3}).Status)
	s.Do("GET", "/api/assets/"+a.ID, session, nil).JSON(t, &got)
	require.NotEqual(t, thumb, *got.AssetURLs.Thumbnail, "a new address after a change")
	require.Equal(t, "private, no-cache", s.Get(thumb, session, nil).Header.Get("Cache-Control"), "the old address revalidates")

	require.Equal(t, http.StatusUnprocessableEntity, s.Get("/api/assets/"+a.ID+"/variants/thumbnail?w=1", session, nil).Status)
}
