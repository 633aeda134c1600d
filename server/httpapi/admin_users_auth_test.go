package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// credentialsOf signs u in and gives it an API key and an OAuth token (of
// an app the superuser behind admin registered).
func credentialsOf(t *testing.T, s *servertest.Server, admin string, u servertest.User) (tokens api.TokenResponse, key, oauth string) {
	t.Helper()
	tokens = s.Login(u)
	key = s.CreateKey(tokens.AccessToken, []string{"user.read"}, nil)
	c := registerClient(t, s, admin, api.OAuthClientCreateRequest{Name: "app of " + u.Email, Scopes: []string{"all"}})
	oauth = newThirdParty(t, s, c, "user.read").tokens(tokens.AccessToken).AccessToken
	return tokens, key, oauth
}

func TestADeactivatedUserCannotAuthenticate(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)
	u := s.CreateUser()
	tokens, key, oauth := credentialsOf(t, s, admin, u)
	for _, tok := range []string{tokens.AccessToken, key, oauth} {
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", tok, nil).Status)
	}

	r := s.Do("PATCH", "/api/admin/users/"+u.ID, admin, api.AdminUserUpdate{IsActive: ptr(false)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: u.Email, Password: u.Password})
	require.Equal(t, http.StatusUnauthorized, r.Status, "sign-in: %s", r.Body)
	for name, tok := range map[string]string{"session": tokens.AccessToken, "API key": key, "OAuth token": oauth} {
		require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", tok, nil).Status, name)
	}
	require.Equal(t, http.StatusUnauthorized, refresh(s, tokens.RefreshToken).Status)

	r = s.Do("PATCH", "/api/admin/users/"+u.ID, admin, api.AdminUserUpdate{IsActive: ptr(true)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	s.Login(u)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", key, nil).Status, "reactivated, the key works again")
}

func TestAdminPasswordResetEndsEverySession(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)
	u := s.CreateUser()
	first, second := s.Login(u), s.Login(u)

	r := s.Do("PATCH", "/api/admin/users/"+u.ID, admin, api.AdminUserUpdate{Password: ptr("a brand new password")})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	for _, tok := range []api.TokenResponse{first, second} {
		require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", tok.AccessToken, nil).Status)
		require.Equal(t, http.StatusUnauthorized, refresh(s, tok.RefreshToken).Status)
	}
	r = s.Do("POST", "/api/auth/login", "", api.LoginRequest{Email: u.Email, Password: u.Password})
	require.Equal(t, http.StatusUnauthorized, r.Status)
	s.Login(servertest.User{Email: u.Email, Password: "a brand new password"})

	r = s.Do("PATCH", "/api/admin/users/"+u.ID, admin, api.AdminUserUpdate{Password: ptr("short")})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)
}

func TestChangingMyPasswordEndsMyOtherSessions(t *testing.T) {
	s := servertest.Start(t)
	u := s.CreateUser()
	mine, other := s.Login(u), s.Login(u)
	key := s.CreateKey(mine.AccessToken, []string{"user.read"}, nil)

	r := s.Do("PATCH", "/api/users/me", mine.AccessToken, api.UserUpdate{FirstName: ptr("Grace"), LastName: ptr("Hopper")})
	me := servertest.Expect[api.User](t, r, http.StatusOK)
	require.Equal(t, []string{"Grace", "Hopper"}, []string{me.FirstName, me.LastName})
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", other.AccessToken, nil).Status, "a rename ends nothing")

	r = s.Do("PATCH", "/api/users/me", mine.AccessToken, api.UserUpdate{CurrentPassword: ptr("wrong password"),
		Password: ptr("the next password")})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "a wrong current password: %s", r.Body)
	require.Contains(t, string(r.Body), "current_password")
	r = s.Do("PATCH", "/api/users/me", mine.AccessToken, api.UserUpdate{Password: ptr("the next password")})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "no current password: %s", r.Body)
	r = s.Do("PATCH", "/api/users/me", mine.AccessToken, api.UserUpdate{CurrentPassword: ptr(u.Password), Password: ptr("short")})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", other.AccessToken, nil).Status, "refusals end nothing")

	r = s.Do("PATCH", "/api/users/me", mine.AccessToken, api.UserUpdate{CurrentPassword: ptr(u.Password),
		Password: ptr("the next password")})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", mine.AccessToken, nil).Status, "the caller's session stays")
	require.Equal(t, http.StatusOK, refresh(s, mine.RefreshToken).Status)
	require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", other.AccessToken, nil).Status)
	require.Equal(t, http.StatusUnauthorized, refresh(s, other.RefreshToken).Status)
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", key, nil).Status, "API keys are not sessions")
	s.Login(servertest.User{Email: u.Email, Password: "the next password"})

	// A key needs user.update to change the profile.
	require.Equal(t, http.StatusForbidden, s.Do("PATCH", "/api/users/me", key, api.UserUpdate{FirstName: ptr("K")}).Status)
}
