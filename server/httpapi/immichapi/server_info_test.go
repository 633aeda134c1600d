package immichapi_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// rfc3339Millis is the instant format Immich writes and immich-go reads.
var rfc3339Millis = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

func TestImmichDiscoveryAndServerInfo(t *testing.T) {
	c, u, _ := newImmich(t)
	anon := c.with("")

	var wk map[string]map[string]string
	anon.ok(200, "GET", "/.well-known/immich", nil, &wk)
	require.Equal(t, "/immich/api", wk["api"]["endpoint"])

	r := anon.do("GET", "/api/server/ping", nil)
	require.Equal(t, 200, r.Status)
	require.JSONEq(t, `{"res":"pong"}`, string(r.Body))
	require.Equal(t, `{"res":"pong"}`, string(r.Body), "immich-go compares the body exactly")

	var version map[string]int
	anon.ok(200, "GET", "/api/server/version", nil, &version)
	require.Equal(t, 2, version["major"])
	require.Contains(t, version, "minor")
	require.Contains(t, version, "patch")

	var media map[string][]string
	anon.ok(200, "GET", "/api/server/media-types", nil, &media)
	require.Contains(t, media["image"], ".jpg")
	require.Contains(t, media["image"], ".heic")
	require.Contains(t, media["video"], ".mp4")
	require.Equal(t, []string{".xmp"}, media["sidecar"])

	var about map[string]any
	c.ok(200, "GET", "/api/server/about", nil, &about)
	require.Regexp(t, `^v2\.\d+\.\d+$`, about["version"])
	requireImmichError(t, anon.do("GET", "/api/server/about", nil), http.StatusUnauthorized)

	var me map[string]any
	c.ok(200, "GET", "/api/users/me", nil, &me)
	require.Equal(t, u.ID, me["id"])
	require.Equal(t, u.Email, me["email"])
	require.NotEmpty(t, me["name"])
	require.Regexp(t, rfc3339Millis, me["createdAt"])
	require.Regexp(t, rfc3339Millis, me["updatedAt"])
}

func TestImmichAuthentication(t *testing.T) {
	c, u, session := newImmich(t)

	t.Run("a bearer session token works like a key", func(t *testing.T) {
		b := c.with("")
		b.bearer = session
		var me map[string]any
		b.ok(200, "GET", "/api/users/me", nil, &me)
		require.Equal(t, u.ID, me["id"])
		var key map[string]any
		b.ok(200, "GET", "/api/api-keys/me", nil, &key)
		require.Equal(t, []any{"all"}, key["permissions"])
	})
	t.Run("no credential is Immich's 401", func(t *testing.T) {
		e := requireImmichError(t, c.with("").do("GET", "/api/users/me", nil), http.StatusUnauthorized)
		require.Contains(t, e.Message, "x-api-key")
	})
	t.Run("an unknown key is a 401", func(t *testing.T) {
		requireImmichError(t, c.with("apikey_nope").do("GET", "/api/users/me", nil), http.StatusUnauthorized)
	})
	t.Run("an unknown path is Immich's 404", func(t *testing.T) {
		requireImmichError(t, c.do("GET", "/api/nothing/here", nil), http.StatusNotFound)
	})
}

func TestImmichAPIKeyPermissions(t *testing.T) {
	c, _, session := newImmich(t)
	tests := []struct {
		name    string
		actions []string
		want    []string
	}{
		{"a key granted all reports all", []string{"all"}, []string{"all"}},
		{"an upload key reports what the CLI needs", []string{"asset.upload", "asset.read", "user.read"},
			[]string{"asset.download", "asset.read", "asset.statistics", "asset.upload", "asset.view", "server.about", "tag.read", "user.read"}},
		{"an album key maps onto album permissions", []string{"album.write"},
			[]string{"album.create", "album.delete", "album.update", "albumAsset.create", "albumAsset.delete", "server.about"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got struct {
				ID          string   `json:"id"`
				Name        string   `json:"name"`
				CreatedAt   string   `json:"createdAt"`
				Permissions []string `json:"permissions"`
			}
			c.with(c.s.CreateKey(session, tt.actions, nil)).ok(200, "GET", "/api/api-keys/me", nil, &got)
			require.Equal(t, tt.want, got.Permissions)
			require.Regexp(t, "^key_", got.ID)
			require.Equal(t, "test key", got.Name)
			require.Regexp(t, rfc3339Millis, got.CreatedAt)
		})
	}
}

func TestImmichJobsAreANoOp(t *testing.T) {
	c, _, _ := newImmich(t)
	for _, cmd := range []string{"pause", "resume", "start"} {
		var got struct {
			JobCounts   map[string]int  `json:"jobCounts"`
			QueueStatus map[string]bool `json:"queueStatus"`
		}
		c.ok(200, "PUT", "/api/jobs/thumbnailGeneration", map[string]any{"command": cmd, "force": false}, &got)
		require.Contains(t, got.JobCounts, "waiting")
		require.Equal(t, cmd == "pause", got.QueueStatus["isPaused"])
		require.Contains(t, got.QueueStatus, "isActive")
	}
	requireImmichError(t, c.do("PUT", "/api/jobs/thumbnailGeneration", map[string]any{"command": "explode"}),
		http.StatusBadRequest)
}

func TestImmichSecondListenerServesTheLayerAtItsRoot(t *testing.T) {
	s := servertest.Start(t, func(cfg *app.Config) { cfg.Immich.Listen = "127.0.0.1:0" })
	_, session := s.Session()
	addr := s.App().ImmichAddr()
	require.NotEmpty(t, addr)
	c := &immichClient{t: t, s: s, base: "http://" + addr, key: s.CreateKey(session, []string{"all"}, nil)}

	var wk map[string]map[string]string
	c.ok(200, "GET", "/.well-known/immich", nil, &wk)
	require.Equal(t, "/api", wk["api"]["endpoint"])
	id := c.uploadNew("root.jpg", servertest.JPEG(t, 16, 16, 1))
	var me map[string]any
	c.ok(200, "GET", "/api/users/me", nil, &me)

	// The same asset is an ordinary one on the main listener.
	r := s.Do("GET", "/api/assets/"+id, session, nil)
	require.Equal(t, 200, r.Status, "%s", r.Body)
	// The second listener serves nothing but the layer.
	requireImmichError(t, c.do("GET", "/api/health/ping", nil), http.StatusNotFound)
	requireImmichError(t, c.do("GET", "/immich/api/users/me", nil), http.StatusNotFound)
}

func TestImmichListenWithoutConfigHasNoSecondListener(t *testing.T) {
	s := servertest.Start(t)
	require.Empty(t, s.App().ImmichAddr())
}
