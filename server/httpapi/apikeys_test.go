package httpapi_test

import (
	"database/sql"
	"net/http"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func createKey(t *testing.T, s *servertest.Server, session, name string, actions ...string) api.APIKeyCreated {
	t.Helper()
	r := s.Do("POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: name,
		Scope: &api.APIKeyScope{Actions: actions}})
	return servertest.Expect[api.APIKeyCreated](t, r, http.StatusCreated)
}

func listKeys(t *testing.T, s *servertest.Server, session, query string) []api.APIKey {
	t.Helper()
	return servertest.List[api.APIKey](s, session, "/api/api-keys"+query)
}

func names(keys []api.APIKey) []string {
	return mapped(keys, func(k api.APIKey) string { return k.Name })
}

func TestAPIKeyLifecycle(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()

	k := createKey(t, s, session, "backup script", "asset.read", "library.read")
	require.Regexp(t, `^key_[0-9a-z]{26}$`, k.ID)
	require.Regexp(t, `^apikey_`, k.Secret)
	require.Nil(t, k.LastUsedAt)
	require.Nil(t, k.Scope.LibraryIDs, "null scope means every library")

	t.Run("the secret is never shown again and only its hash is stored", func(t *testing.T) {
		r := s.Do("GET", "/api/api-keys/"+k.ID, session, nil)
		require.Equal(t, http.StatusOK, r.Status)
		require.NotContains(t, string(r.Body), k.Secret)
		require.NotContains(t, r.Map(t), "secret")
		path := servertest.SQLitePath(t, s.Config, "reads the api_keys table through go-sqlite3")
		db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
		require.NoError(t, err)
		defer db.Close()
		var n int
		require.NoError(t, db.QueryRow(`SELECT count(*) FROM api_keys WHERE CAST(secret_hash AS TEXT) LIKE '%apikey_%'`).Scan(&n))
		require.Zero(t, n)
		var hashLen int
		require.NoError(t, db.QueryRow(`SELECT length(secret_hash) FROM api_keys WHERE id = ?`, k.ID).Scan(&hashLen))
		require.Equal(t, 32, hashLen)
	})

	t.Run("use records last_used_at", func(t *testing.T) {
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/libraries", k.Secret, nil).Status)
		var got api.APIKey
		s.Do("GET", "/api/api-keys/"+k.ID, session, nil).JSON(t, &got)
		require.NotNil(t, got.LastUsedAt)
		require.WithinDuration(t, s.Clock.Now(), *got.LastUsedAt, 5*time.Second)
	})

	t.Run("update renames and narrows the scope", func(t *testing.T) {
		r := s.Do("PATCH", "/api/api-keys/"+k.ID, session, map[string]any{"name": "nightly backup",
			"scope": map[string]any{"actions": []string{"library.read"}, "library_ids": nil}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, "nightly backup", r.Map(t)["name"])
		requireDetail(t, s.Do("GET", "/api/users/me", k.Secret, nil), http.StatusForbidden)
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/libraries", k.Secret, nil).Status)
	})

	t.Run("another user's key is not found", func(t *testing.T) {
		_, other := s.Session()
		requireDetail(t, s.Do("GET", "/api/api-keys/"+k.ID, other, nil), http.StatusNotFound)
		requireDetail(t, s.Do("DELETE", "/api/api-keys/"+k.ID, other, nil), http.StatusNotFound)
		requireDetail(t, s.Do("PATCH", "/api/api-keys/"+k.ID, other, map[string]any{"name": "x"}), http.StatusNotFound)
	})

	t.Run("delete", func(t *testing.T) {
		require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/api-keys/"+k.ID, session, nil).Status)
		requireDetail(t, s.Do("GET", "/api/api-keys/"+k.ID, session, nil), http.StatusNotFound)
	})
}

func TestAPIKeyListFiltersAndOrders(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0]
	createKey(t, s, session, "Bravo", "all")
	charlie := createKey(t, s, session, "charlie", "all")
	r := s.Do("POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: "alpha",
		Scope: &api.APIKeyScope{Actions: []string{"all"}, LibraryIDs: []string{lib.ID}}})
	require.Equal(t, http.StatusCreated, r.Status)
	other := s.CreateLibrary(session, "Other")
	s.Do("POST", "/api/api-keys", session, api.APIKeyCreateRequest{Name: "delta",
		Scope: &api.APIKeyScope{Actions: []string{"all"}, LibraryIDs: []string{other.ID}}})

	require.Equal(t, []string{"delta", "alpha", "charlie", "Bravo"}, names(listKeys(t, s, session, "")))
	require.Equal(t, []string{"Bravo", "charlie", "alpha", "delta"}, names(listKeys(t, s, session, "?order=asc")))
	require.Equal(t, []string{"alpha", "Bravo", "charlie", "delta"}, names(listKeys(t, s, session, "?order_by=name&order=asc")))
	require.Equal(t, []string{"charlie", "Bravo"}, names(listKeys(t, s, session, "?name=R")))
	require.Equal(t, []string{"alpha", "charlie", "Bravo"}, names(listKeys(t, s, session, "?library_id="+lib.ID)))

	s.Clock.Advance(10 * time.Minute) // within the session's access TTL
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/libraries", charlie.Secret, nil).Status)
	used := listKeys(t, s, session, "?order_by=last_used_at&order=desc")
	require.Equal(t, "charlie", used[0].Name)

	// Paging by name keeps the composite order.
	page1 := listKeys(t, s, session, "?order_by=name&order=asc&limit=2")
	require.Equal(t, []string{"alpha", "Bravo"}, names(page1))
	page2 := listKeys(t, s, session, "?order_by=name&order=asc&limit=2&starting_after_id="+page1[1].ID)
	require.Equal(t, []string{"charlie", "delta"}, names(page2))
}
