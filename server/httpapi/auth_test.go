package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// requireDetail asserts an ErrorResponse: exactly one field, a non-empty detail.
func requireDetail(t *testing.T, r *servertest.Response, status int) string {
	t.Helper()
	require.Equal(t, status, r.Status, "body: %s", r.Body)
	m := r.Map(t)
	require.Len(t, m, 1, "ErrorResponse has only detail: %s", r.Body)
	d, ok := m["detail"].(string)
	require.True(t, ok && d != "", "detail is a non-empty string: %s", r.Body)
	return d
}

func TestHealthNeedsNoCredential(t *testing.T) {
	s := servertest.Start(t)
	r := s.Do("GET", "/api/health/ping", "", nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.JSONEq(t, `{"status":"ok","version":"dev"}`, string(r.Body), "servertest passes no version: dev")
	require.NotEmpty(t, r.Header.Get("X-Request-Id"))
}

func TestRequestIDIsEchoed(t *testing.T) {
	s := servertest.Start(t)
	req, _ := http.NewRequest("GET", s.URL+"/api/health/ping", nil)
	req.Header.Set("X-Request-Id", "abc-123")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, "abc-123", resp.Header.Get("X-Request-Id"))
}

func TestUnauthenticated(t *testing.T) {
	s := servertest.Start(t)
	u, session := s.Session()
	key := s.CreateKey(session, []string{"all"}, nil)

	cases := []struct {
		name   string
		header string
	}{
		{"missing credential", ""},
		{"malformed header without scheme", session},
		{"basic scheme", "Basic dXNlcjpwYXNz"},
		{"bearer without token", "Bearer "},
		{"garbage token", "Bearer not-a-jwt"},
		{"unknown api key", "Bearer apikey_doesnotexist"},
		{"session token with a flipped signature", "Bearer " + flipSignature(session)},
		{"alg none token", "Bearer " + algNone(session)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", s.URL+"/api/users/me", nil)
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		})
	}

	t.Run("expired access token", func(t *testing.T) {
		tok := s.Login(u).AccessToken
		s.Clock.Advance(s.Config.Auth.AccessTTL + time.Second)
		t.Cleanup(func() { s.Clock.Advance(-(s.Config.Auth.AccessTTL + time.Second)) })
		d := requireDetail(t, s.Do("GET", "/api/users/me", tok, nil), http.StatusUnauthorized)
		assert.Contains(t, d, "expired")
	})

	t.Run("inactive user with session, api key and password", func(t *testing.T) {
		v, vs := s.Session()
		vk := s.CreateKey(vs, []string{"all"}, nil)
		s.SetActive(v.ID, false)
		requireDetail(t, s.Do("GET", "/api/users/me", vs, nil), http.StatusUnauthorized)
		requireDetail(t, s.Do("GET", "/api/users/me", vk, nil), http.StatusUnauthorized)
		requireDetail(t, s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: v.Email, Password: v.Password}),
			http.StatusUnauthorized)
		s.SetActive(v.ID, true)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", vk, nil).Status)
	})

	t.Run("wrong password", func(t *testing.T) {
		requireDetail(t, s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: u.Email, Password: "nope-nope"}),
			http.StatusUnauthorized)
	})

	t.Run("logged out session", func(t *testing.T) {
		tok := s.Login(u).AccessToken
		require.Equal(t, http.StatusNoContent, s.Do("POST", "/api/auth/logout", tok, nil).Status)
		requireDetail(t, s.Do("GET", "/api/users/me", tok, nil), http.StatusUnauthorized)
	})

	t.Run("deleted api key", func(t *testing.T) {
		k := s.Do("POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: "gone",
			Scope: &api.APIKeyScope{Actions: []string{"all"}}})
		var created api.APIKeyCreated
		k.JSON(t, &created)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", created.Secret, nil).Status)
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/api-keys/"+created.ID, session, nil).Status)
		requireDetail(t, s.Do("GET", "/api/users/me", created.Secret, nil), http.StatusUnauthorized)
	})
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", key, nil).Status)
}

// flipSignature changes one character in the middle of the signature.
// (The last base64url character of an HMAC-SHA256 signature carries two
// padding bits, so changing it may leave the decoded bytes unchanged.)
func flipSignature(token string) string {
	i := strings.LastIndex(token, ".") + 10
	c := byte('A')
	if token[i] == 'A' {
		c = 'B'
	}
	return token[:i] + string(c) + token[i+1:]
}

// algNone re-signs a token's claims with "alg":"none".
func algNone(token string) string {
	parts := strings.Split(token, ".")
	return "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + parts[1] + "."
}

func TestForbidden(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	libs := s.Libraries(session)
	require.Len(t, libs, 1)
	first := libs[0].ID
	second := s.CreateLibrary(session, "Second")

	allKey := s.CreateKey(session, []string{"all"}, nil)
	readOnly := s.CreateKey(session, []string{"library.read"}, nil)
	scoped := s.CreateKey(session, []string{"all"}, []string{first})

	cases := []struct {
		name         string
		method, path string
		token        string
		body         any
	}{
		{"api key cannot create api keys", "POST", "/api/api-keys", allKey,
			api.APIKeyCreateRequest{Name: "x", Scope: &api.APIKeyScope{Actions: []string{"all"}}}},
		{"api key cannot list api keys", "GET", "/api/api-keys", allKey, nil},
		{"api key cannot delete api keys", "DELETE", "/api/api-keys/key_01hzzzzzzzzzzzzzzzzzzzzzzz", allKey, nil},
		{"api key cannot create libraries", "POST", "/api/libraries", allKey, api.LibraryCreateRequest{Name: "x"}},
		{"key without user.read cannot read the profile", "GET", "/api/users/me", readOnly, nil},
		{"key without user.update cannot change preferences", "PATCH", "/api/users/me/preferences", readOnly,
			map[string]any{"immich_library_id": nil}},
		{"key without event.read cannot read events", "GET", "/api/events?library_id=" + first, readOnly, nil},
		{"key scoped to another library cannot read this one", "GET", "/api/libraries/" + second.ID, scoped, nil},
		{"key scoped to another library cannot read its events", "GET", "/api/events?library_id=" + second.ID, scoped, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			requireDetail(t, s.Do(tc.method, tc.path, tc.token, tc.body), http.StatusForbidden)
		})
	}

	t.Run("the same operations succeed with an allowed credential", func(t *testing.T) {
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/api-keys", session, nil).Status)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", allKey, nil).Status)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/libraries/"+first, scoped, nil).Status)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/libraries/"+second.ID, readOnly, nil).Status)
	})

	t.Run("a scoped key lists only its libraries", func(t *testing.T) {
		got := s.Libraries(scoped)
		require.Len(t, got, 1)
		require.Equal(t, first, got[0].ID)
	})

	t.Run("another user's library is not found", func(t *testing.T) {
		_, other := s.Session()
		requireDetail(t, s.Do("GET", "/api/libraries/"+first, other, nil), http.StatusNotFound)
	})
}
