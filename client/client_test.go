package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/servertest"
)

// sessionClient signs a new user in through the client and returns a
// client carrying that session, with its token store.
func sessionClient(t *testing.T, s *servertest.Server, opts ...func(*client.Options)) (*client.Client, *client.MemoryTokens, servertest.User) {
	t.Helper()
	u := s.CreateUser()
	anon := newClient(t, client.Options{Server: s.URL})
	tokens, user, err := anon.Login(context.Background(), u.Email, u.Password)
	require.NoError(t, err)
	require.Equal(t, u.Email, user.Email)
	store := client.NewMemoryTokens(tokens)
	o := client.Options{Server: s.URL, Session: store}
	for _, f := range opts {
		f(&o)
	}
	return newClient(t, o), store, u
}

func newClient(t *testing.T, opts client.Options) *client.Client {
	t.Helper()
	c, err := client.New(opts)
	require.NoError(t, err)
	return c
}

// flakyProxy forwards to target but answers the first `fail` requests
// matching path with status and Retry-After, as a load balancer in front of
// a restarting server would.
func flakyProxy(t *testing.T, target, path string, fail int32, status int, retryAfter string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	u, err := url.Parse(target)
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(u)
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == path && seen.Add(1) <= fail {
			// Drain what the client sends, as a real server would before answering.
			_, _ = httputil.DumpRequest(r, true)
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"detail":"try again later"}`))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

// recordSleeps returns a Sleep hook that records the waits and moves the
// server's clock instead of waiting.
func recordSleeps(s *servertest.Server, waits *[]time.Duration) func(context.Context, time.Duration) error {
	return func(_ context.Context, d time.Duration) error {
		*waits = append(*waits, d)
		s.Clock.Advance(d)
		return nil
	}
}

func TestNormalizeServer(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"http://127.0.0.1:2283", "http://127.0.0.1:2283", ""},
		{"https://photos.example.com/", "https://photos.example.com", ""},
		{"http://h:1/api/", "http://h:1", ""},
		{"http://h/photos/api", "http://h/photos", ""},
		{"localhost:2283", "", "want http://HOST"},
		{"ftp://h", "", "want http://HOST"},
		{"", "", "no server address"},
	}
	for _, tt := range tests {
		got, err := client.NormalizeServer(tt.in)
		if tt.err != "" {
			require.ErrorContains(t, err, tt.err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		require.Equal(t, tt.want, got)
	}
}
