package httpapi_test

import (
	"net/http"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

func TestMeReturnsExactlyTheUserFields(t *testing.T) {
	s := servertest.Start(t)
	u, session := s.Session()
	for _, tok := range []string{session, s.CreateKey(session, []string{"user.read"}, nil)} {
		r := s.Do("GET", "/api/users/me", tok, nil)
		require.Equal(t, http.StatusOK, r.Status)
		m := r.Map(t)
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		require.Equal(t, []string{"created_at", "email", "first_name", "id", "is_active", "is_superuser",
			"is_verified", "last_name", "updated_at"}, keys)
		require.Equal(t, u.ID, m["id"])
		require.Equal(t, u.Email, m["email"])
		require.Regexp(t, `^intuser_[0-9a-z]{26}$`, m["id"])
		require.Regexp(t, `Z$`, m["created_at"])
	}
}

func TestPreferences(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]

	r := s.Do("GET", "/api/users/me/preferences", session, nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.JSONEq(t, `{"immich_library_id": null, "default_library_id": null}`, string(r.Body))

	r = s.Do("PATCH", "/api/users/me/preferences", session, map[string]any{"immich_library_id": lib.ID})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, lib.ID, r.Map(t)["immich_library_id"])

	// An absent field is left alone; null clears.
	r = s.Do("PATCH", "/api/users/me/preferences", session, map[string]any{"default_library_id": lib.ID})
	require.Equal(t, lib.ID, r.Map(t)["immich_library_id"])
	r = s.Do("PATCH", "/api/users/me/preferences", session, map[string]any{"immich_library_id": nil})
	require.JSONEq(t, `{"immich_library_id": null, "default_library_id": "`+lib.ID+`"}`, string(r.Body))

	key := s.CreateKey(session, []string{"user.read", "user.update"}, nil)
	r = s.Do("PATCH", "/api/users/me/preferences", key, map[string]any{"immich_library_id": lib.ID})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = s.Do("GET", "/api/users/me/preferences", key, nil)
	require.Equal(t, lib.ID, r.Map(t)["immich_library_id"])
}
