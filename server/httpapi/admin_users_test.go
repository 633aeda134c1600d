package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// createAdminUser has the superuser behind admin create an account and
// requires a 201.
func createAdminUser(t *testing.T, s *servertest.Server, admin string, req api.AdminUserCreate) api.AdminUserCreated {
	t.Helper()
	return servertest.Expect[api.AdminUserCreated](t, s.Do("POST", "/api/admin/users", admin, req), http.StatusCreated)
}

// adminOAuthToken gives the superuser behind admin an OAuth access token
// with scopes, through the real code flow.
func adminOAuthToken(t *testing.T, s *servertest.Server, admin string, scopes ...string) string {
	t.Helper()
	c := registerClient(t, s, admin, api.OAuthClientCreateRequest{Name: "admin app", Scopes: []string{"all"}})
	return newThirdParty(t, s, c, scopes...).tokens(admin).AccessToken
}

// TestAdminUsersRoleMatrix: a superuser administers with a first-party
// session, or with an API key or OAuth token whose scope grants user.read
// (reads) or user.update (writes); an ordinary account never does,
// whatever its credential grants.
func TestAdminUsersRoleMatrix(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)
	_, plain := s.Session()
	creds := []struct {
		name         string
		token        string
		read, update bool
	}{
		{"a superuser's session", admin, true, true},
		{"a superuser's API key with every action", s.CreateKey(admin, []string{"all"}, nil), true, true},
		{"a superuser's API key with user.read", s.CreateKey(admin, []string{"user.read"}, nil), true, false},
		{"a superuser's API key with user.update", s.CreateKey(admin, []string{"user.update"}, nil), false, true},
		{"a superuser's API key without user actions", s.CreateKey(admin, []string{"asset.read", "library.read"}, nil), false, false},
		{"a superuser's OAuth token with user.read and user.update", adminOAuthToken(t, s, admin, "user.read", "user.update"), true, true},
		{"a superuser's OAuth token with asset.read", adminOAuthToken(t, s, admin, "asset.read"), false, false},
		{"an ordinary user's session", plain, false, false},
		{"an ordinary user's API key with every action", s.CreateKey(plain, []string{"all"}, nil), false, false},
	}
	for i, c := range creds {
		t.Run(c.name, func(t *testing.T) {
			target := s.CreateUser()
			status := func(ok bool, success int) int {
				if ok {
					return success
				}
				return http.StatusForbidden
			}
			path := "/api/admin/users/" + target.ID
			require.Equal(t, status(c.read, 200), s.Do("GET", "/api/admin/users", c.token, nil).Status)
			require.Equal(t, status(c.read, 200), s.Do("GET", path, c.token, nil).Status)
			r := s.Do("POST", "/api/admin/users", c.token, api.AdminUserCreate{Email: fmt.Sprintf("m%d@example.com", i)})
			require.Equal(t, status(c.update, 201), r.Status, "%s", r.Body)
			r = s.Do("PATCH", path, c.token, api.AdminUserUpdate{FirstName: ptr("Renamed")})
			require.Equal(t, status(c.update, 200), r.Status, "%s", r.Body)
			r = s.Do("DELETE", path, c.token, nil)
			require.Equal(t, status(c.update, 204), r.Status, "%s", r.Body)
		})
	}
	require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/admin/users", "", nil).Status)
}

func TestAdminCreatesListsAndUpdatesUsers(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)

	gen := createAdminUser(t, s, admin, api.AdminUserCreate{Email: "gen@example.com", FirstName: "Gen",
		QuotaBytes: ptr(int64(1000))})
	require.NotNil(t, gen.Password, "a generated password is returned once")
	require.GreaterOrEqual(t, len(*gen.Password), 16)
	require.Equal(t, int64(1000), *gen.QuotaBytes)
	require.False(t, gen.IsSuperuser)
	tok := s.Login(servertest.User{Email: "gen@example.com", Password: *gen.Password}).AccessToken
	require.Len(t, s.Libraries(tok), 1, "a new account has its first library")

	own := createAdminUser(t, s, admin, api.AdminUserCreate{Email: "own@example.com", Password: ptr("a long password"),
		IsSuperuser: true})
	require.Nil(t, own.Password, "a supplied password is not echoed")
	require.True(t, own.IsSuperuser)
	require.Nil(t, own.QuotaBytes)

	r := s.Do("POST", "/api/admin/users", admin, api.AdminUserCreate{Email: "GEN@example.com"})
	require.Equal(t, http.StatusConflict, r.Status, "%s", r.Body)
	r = s.Do("POST", "/api/admin/users", admin, api.AdminUserCreate{Email: "short@example.com", Password: ptr("short")})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)
	r = s.Do("POST", "/api/admin/users", admin, api.AdminUserCreate{Email: "not an address"})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)

	// Paged newest first, filtered by e-mail substring.
	page := servertest.List[api.AdminUser](s, admin, "/api/admin/users?limit=2")
	require.Equal(t, []string{own.ID, gen.ID}, []string{page[0].ID, page[1].ID})
	var p api.Page[api.AdminUser]
	s.Do("GET", "/api/admin/users?limit=1&starting_after_id="+own.ID, admin, nil).JSON(t, &p)
	require.Equal(t, gen.ID, p.Data[0].ID)
	require.True(t, p.HasMore, "the bootstrap admin comes after")
	found := servertest.List[api.AdminUser](s, admin, "/api/admin/users?email=GEN%40")
	require.Len(t, found, 1)
	require.Equal(t, gen.ID, found[0].ID)

	path := "/api/admin/users/" + gen.ID
	r = s.Do("PATCH", path, admin, map[string]any{"first_name": "Ada", "last_name": "L", "quota_bytes": 5})
	u := servertest.Expect[api.AdminUser](t, r, http.StatusOK)
	require.Equal(t, "Ada", u.FirstName)
	require.Equal(t, int64(5), *u.QuotaBytes)
	r = s.Do("PATCH", path, admin, map[string]any{"quota_bytes": nil})
	r.JSON(t, &u)
	require.Nil(t, u.QuotaBytes, "null clears the quota")
	require.Equal(t, "Ada", u.FirstName, "absent fields stay")
	r = s.Do("PATCH", path, admin, map[string]any{"quota_bytes": -1})
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/admin/users/intuser_01jzzzzzzzzzzzzzzzzzzzzzzz", admin, nil).Status)
}

func TestTheLastActiveSuperuserStays(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)
	var me api.User
	s.Do("GET", "/api/users/me", admin, nil).JSON(t, &me)
	path := "/api/admin/users/" + me.ID

	requireCode(t, s.Do("PATCH", path, admin, api.AdminUserUpdate{IsSuperuser: ptr(false)}), http.StatusConflict, "last_superuser")
	requireCode(t, s.Do("PATCH", path, admin, api.AdminUserUpdate{IsActive: ptr(false)}), http.StatusConflict, "last_superuser")
	requireCode(t, s.Do("DELETE", path, admin, nil), http.StatusConflict, "last_superuser")

	// An inactive superuser does not count.
	other := createAdminUser(t, s, admin, api.AdminUserCreate{Email: "two@example.com", IsSuperuser: true})
	r := s.Do("PATCH", "/api/admin/users/"+other.ID, admin, api.AdminUserUpdate{IsActive: ptr(false)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	requireCode(t, s.Do("PATCH", path, admin, api.AdminUserUpdate{IsSuperuser: ptr(false)}), http.StatusConflict, "last_superuser")

	r = s.Do("PATCH", "/api/admin/users/"+other.ID, admin, api.AdminUserUpdate{IsActive: ptr(true)})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = s.Do("PATCH", path, admin, api.AdminUserUpdate{IsSuperuser: ptr(false)})
	require.Equal(t, http.StatusOK, r.Status, "with another active superuser the first may step down: %s", r.Body)
	require.Equal(t, http.StatusForbidden, s.Do("GET", "/api/admin/users", admin, nil).Status)
}
