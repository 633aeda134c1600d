package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func refresh(s *servertest.Server, token string) *servertest.Response {
	return s.Do("POST", "/api/auth/refresh", "", api.RefreshRequest{RefreshToken: token})
}

func TestLoginResponse(t *testing.T) {
	s := servertest.Start(t)
	u := s.CreateUser()
	tok := s.Login(u)
	require.Equal(t, "Bearer", tok.TokenType)
	require.Equal(t, int(s.Config.Auth.AccessTTL.Seconds()), tok.ExpiresIn)
	require.NotEmpty(t, tok.RefreshToken)
	require.NotNil(t, tok.User)
	require.Equal(t, u.ID, tok.User.ID)
	// The e-mail matches case-insensitively.
	r := s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: "USER1@Example.com", Password: u.Password})
	require.Equal(t, http.StatusOK, r.Status)
}

func TestRefreshRotationAndReuseDetection(t *testing.T) {
	s := servertest.Start(t)
	u := s.CreateUser()
	first := s.Login(u)

	r := refresh(s, first.RefreshToken)
	second := servertest.Expect[api.TokenResponse](t, r, http.StatusOK)
	require.NotEqual(t, first.RefreshToken, second.RefreshToken, "refresh tokens rotate")
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", second.AccessToken, nil).Status)

	r = refresh(s, second.RefreshToken)
	third := servertest.Expect[api.TokenResponse](t, r, http.StatusOK)

	// Presenting the rotated first token again revokes the whole family.
	requireDetail(t, refresh(s, first.RefreshToken), http.StatusUnauthorized)
	requireDetail(t, refresh(s, third.RefreshToken), http.StatusUnauthorized)
	requireDetail(t, s.Do("GET", "/api/users/me", third.AccessToken, nil), http.StatusUnauthorized)

	// Other sessions of the same user are untouched.
	other := s.Login(u)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", other.AccessToken, nil).Status)
	require.Equal(t, http.StatusOK, refresh(s, other.RefreshToken).Status)
}

func TestRefreshRefusals(t *testing.T) {
	s := servertest.Start(t)
	u := s.CreateUser()
	tok := s.Login(u)
	requireDetail(t, refresh(s, "rt_unknown"), http.StatusUnauthorized)
	requireDetail(t, refresh(s, tok.AccessToken), http.StatusUnauthorized)
	validationItems(t, refresh(s, ""))

	t.Run("after logout", func(t *testing.T) {
		tok := s.Login(u)
		require.Equal(t, http.StatusNoContent, s.Do("POST", "/api/auth/logout", tok.AccessToken, nil).Status)
		requireDetail(t, refresh(s, tok.RefreshToken), http.StatusUnauthorized)
	})
	t.Run("inactive user", func(t *testing.T) {
		tok := s.Login(u)
		s.SetActive(u.ID, false)
		defer s.SetActive(u.ID, true)
		requireDetail(t, refresh(s, tok.RefreshToken), http.StatusUnauthorized)
	})
	t.Run("expired refresh token", func(t *testing.T) {
		tok := s.Login(u)
		s.Clock.Advance(s.Config.Auth.RefreshTTL)
		defer s.Clock.Advance(-s.Config.Auth.RefreshTTL)
		requireDetail(t, refresh(s, tok.RefreshToken), http.StatusUnauthorized)
	})
	t.Run("logout needs a session", func(t *testing.T) {
		key := s.CreateKey(s.Login(u).AccessToken, []string{"all"}, nil)
		requireDetail(t, s.Do("POST", "/api/auth/logout", key, nil), http.StatusForbidden)
	})
}
