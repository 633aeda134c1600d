package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/servertest"
)

// benchGet issues GET path with token b.N times over one keep-alive client
// and fails on any non-200. The answers come uncompressed; benchGetGzip's
// come compressed when large enough, and are decompressed, as a client would.
func benchGet(b *testing.B, s *servertest.Server, path, token string) {
	b.Helper()
	benchGetEncoded(b, s, path, token, "identity")
}

func benchGetGzip(b *testing.B, s *servertest.Server, path, token string) {
	b.Helper()
	benchGetEncoded(b, s, path, token, "") // net/http asks for gzip and decompresses it
}

func benchGetEncoded(b *testing.B, s *servertest.Server, path, token, acceptEncoding string) {
	b.Helper()
	client := &http.Client{}
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

// BenchmarkAuthenticatedRequest measures a whole request through the real
// server: authentication (one indexed lookup of the credential, one of the
// user), rate limiting, authorization and a small JSON answer.
func BenchmarkAuthenticatedRequest(b *testing.B) {
	s := servertest.Start(b)
	_, session := s.Session()
	key := s.CreateKey(session, []string{"all"}, nil)
	b.Run("session", func(b *testing.B) { benchGet(b, s, "/api/users/me", session) })
	b.Run("api_key", func(b *testing.B) { benchGet(b, s, "/api/users/me", key) })
}

// BenchmarkListPage measures a keyset-paged list of 100 from 1,000 API keys,
// from the middle of the list (cursor resolution included).
func BenchmarkListPage(b *testing.B) {
	s := servertest.Start(b)
	_, session := s.Session()
	var mid string
	for i := range 1000 {
		r := s.Do("POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: fmt.Sprintf("key %04d", i),
			Scope: &api.APIKeyScope{Actions: []string{"asset.read"}}})
		if i == 500 {
			var k api.APIKeyCreated
			r.JSON(b, &k)
			mid = k.ID
		}
	}
	benchGet(b, s, "/api/api-keys?limit=100&order_by=name&starting_after_id="+mid, session)
}

// BenchmarkLogin measures a password sign-in: argon2id verification
// (19 MiB, 2 passes) dominates by design.
func BenchmarkLogin(b *testing.B) {
	s := servertest.Start(b)
	u := s.CreateUser()
	b.ReportAllocs()
	for b.Loop() {
		if r := s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: u.Email, Password: u.Password}); r.Status != 200 {
			b.Fatalf("status %d", r.Status)
		}
	}
}

// BenchmarkAssetList measures pages of 100 assets through the real server
// over a library seeded with realistic rows (server/devseed): the first
// page, and the month window scenario of scripts/bench. Set
// PHOTOCTL_BENCH_ASSETS to change the library size (default 20,000).
func BenchmarkAssetList(b *testing.B) {
	n := 20_000
	if v, err := strconv.Atoi(os.Getenv("PHOTOCTL_BENCH_ASSETS")); err == nil && v > 0 {
		n = v
	}
	s := servertest.Start(b)
	_, session := s.Session()
	key := s.CreateKey(session, []string{"all"}, nil)
	lib := s.Libraries(session)[0].ID
	// A second store on the same file seeds while the server runs.
	st, err := app.OpenStore(b.Context(), s.Config)
	require.NoError(b, err)
	_, err = devseed.Seed(b.Context(), st, devseed.Options{LibraryID: lib, Assets: n, Seed: 1})
	require.NoError(b, st.Close())
	require.NoError(b, err)
	b.Run("first page of 100", func(b *testing.B) { benchGet(b, s, "/api/assets?limit=100", key) })
	b.Run("first page of 100, gzip", func(b *testing.B) { benchGetGzip(b, s, "/api/assets?limit=100", key) })
	b.Run("month window", func(b *testing.B) {
		benchGet(b, s, "/api/assets?limit=100&local_datetime_after=2024-05-01T00:00:00&local_datetime_before=2024-06-01T00:00:00", key)
	})
}
