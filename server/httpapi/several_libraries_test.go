package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestTaskListSpansEveryLibraryTheCallerCanRead(t *testing.T) {
	s, _ := startWithoutWorkers(t)
	_, session := s.Session()
	first := s.Libraries(session)[0].ID
	second := s.CreateLibrary(session, "Second").ID
	a1 := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, 1), map[string]string{"library_id": first})
	a2 := s.UploadAsset(session, "b.jpg", servertest.JPEG(t, 8, 8, 2), map[string]string{"library_id": second})
	// A library the caller only views counts; a stranger's does not.
	_, other := s.Session()
	shared := s.Libraries(other)[0].ID
	a3 := s.UploadAsset(other, "c.jpg", servertest.JPEG(t, 8, 8, 3), nil)
	_, stranger := s.Session()
	s.UploadAsset(stranger, "d.jpg", servertest.JPEG(t, 8, 8, 4), nil)
	inv := invite(t, s, other, shared, inviteBody(s, "viewer", time.Hour, 1))
	require.Equal(t, http.StatusOK, join(s, session, inv.Token).Status)

	assetsOf := func(list []api.Task) []string {
		var out []string
		for _, task := range list {
			out = append(out, *task.AssetID)
		}
		return out
	}
	t.Run("without library_id every readable library, newest first", func(t *testing.T) {
		list := servertest.List[api.Task](s, session, "/api/tasks")
		require.Equal(t, []string{a3.ID, a2.ID, a1.ID}, assetsOf(list))
	})
	t.Run("pages walk across the libraries", func(t *testing.T) {
		var walked []string
		after := ""
		for {
			page := servertest.Expect[api.Page[api.Task]](t, s.Do("GET", "/api/tasks?limit=1&state=queued&starting_after_id="+after, session, nil), http.StatusOK)
			walked = append(walked, assetsOf(page.Data)...)
			if !page.HasMore {
				break
			}
			after = page.Data[len(page.Data)-1].ID
		}
		require.Equal(t, []string{a3.ID, a2.ID, a1.ID}, walked)
	})
	t.Run("library_id filters to one", func(t *testing.T) {
		require.Equal(t, []string{a2.ID}, assetsOf(servertest.List[api.Task](s, session, "/api/tasks?library_id="+second)))
		require.Equal(t, []string{a3.ID}, assetsOf(servertest.List[api.Task](s, session, "/api/tasks?library_id="+shared)))
	})
	t.Run("a library the caller is not in is 404", func(t *testing.T) {
		strangerLib := s.Libraries(stranger)[0].ID
		require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/tasks?library_id="+strangerLib, session, nil).Status)
	})
	t.Run("a key scoped to one library lists that one", func(t *testing.T) {
		key := s.CreateKey(session, []string{"task.read"}, []string{second})
		require.Equal(t, []string{a2.ID}, assetsOf(servertest.List[api.Task](s, key, "/api/tasks")))
	})
	t.Run("a cursor from a stranger's list is 422", func(t *testing.T) {
		theirs := servertest.List[api.Task](s, stranger, "/api/tasks")[0].ID
		require.Equal(t, http.StatusUnprocessableEntity, s.Do("GET", "/api/tasks?starting_after_id="+theirs, session, nil).Status)
	})
}

func TestStackCreateTakesItsLibraryFromItsAssets(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	first := s.Libraries(session)[0].ID
	second := s.CreateLibrary(session, "Second").ID
	in := func(lib string, seed int) string {
		return s.UploadAsset(session, "x.jpg", servertest.JPEG(t, 8, 8, seed), map[string]string{"library_id": lib}).ID
	}
	x1, x2, y1 := in(second, 1), in(second, 2), in(first, 3)
	_, stranger := s.Session()
	theirs := s.UploadAsset(stranger, "t.jpg", servertest.JPEG(t, 8, 8, 4), nil).ID

	st := createStack(t, s, session, "", x1, x2)
	require.Equal(t, second, st.LibraryID)
	require.Equal(t, x1, st.CoverAssetID)

	for name, ids := range map[string][]string{
		"assets of two libraries":   {y1, in(second, 5)},
		"an asset of a stranger":    {in(first, 6), theirs},
		"only assets of a stranger": {theirs, theirs[:len(theirs)-1] + "0"},
	} {
		t.Run(name+" is 422", func(t *testing.T) {
			r := s.Do("POST", "/api/stacks", session, map[string]any{"asset_ids": ids})
			require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)
		})
	}
	t.Run("a viewer of the assets' library is refused", func(t *testing.T) {
		_, owner := s.Session()
		lib := s.Libraries(owner)[0].ID
		v1 := s.UploadAsset(owner, "v.jpg", servertest.JPEG(t, 8, 8, 7), nil).ID
		v2 := s.UploadAsset(owner, "w.jpg", servertest.JPEG(t, 8, 8, 8), nil).ID
		inv := invite(t, s, owner, lib, inviteBody(s, "viewer", time.Hour, 1))
		require.Equal(t, http.StatusOK, join(s, session, inv.Token).Status)
		r := s.Do("POST", "/api/stacks", session, map[string]any{"asset_ids": []string{v1, v2}})
		require.Equal(t, http.StatusForbidden, r.Status, "%s", r.Body)
	})
}

func TestBulkTrashRestoreAndDeleteHonourLibraryID(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	first := s.Libraries(session)[0].ID
	second := s.CreateLibrary(session, "Second").ID
	x := s.UploadAsset(session, "x.jpg", servertest.JPEG(t, 8, 8, 1), map[string]string{"library_id": second}).ID
	_, stranger := s.Session()
	strangerLib := s.Libraries(stranger)[0].ID
	unknown := "lib_01j00000000000000000000000"

	ops := []struct{ method, path string }{
		{"POST", "/api/assets/trash"}, {"POST", "/api/assets/restore"}, {"DELETE", "/api/assets"},
	}
	for _, op := range ops {
		for _, c := range []struct {
			name, lib string
			status    int
		}{
			{"a stranger's library", strangerLib, http.StatusNotFound},
			{"an unknown library", unknown, http.StatusNotFound},
			{"a malformed library id", "nonsense", http.StatusUnprocessableEntity},
			{"another of the caller's libraries than the asset's", first, http.StatusUnprocessableEntity},
		} {
			t.Run(op.method+" "+op.path+" naming "+c.name, func(t *testing.T) {
				r := s.Do(op.method, op.path+"?library_id="+c.lib, session, api.AssetIDs{IDs: []string{x}})
				require.Equal(t, c.status, r.Status, "%s", r.Body)
				a := getAsset(t, s, session, x) // nothing was written
				require.Nil(t, a.TrashedAt)
			})
		}
	}
	r := s.Do("POST", "/api/assets/trash?library_id="+second, session, api.AssetIDs{IDs: []string{x}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.NotNil(t, getAsset(t, s, session, x).TrashedAt)
	r = s.Do("POST", "/api/assets/restore?library_id="+second, session, api.AssetIDs{IDs: []string{x}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = s.Do("DELETE", "/api/assets?library_id="+second, session, api.AssetIDs{IDs: []string{x}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/assets/"+x, session, nil).Status)
}

func TestNamesWithControlCharactersAre422(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	admin := adminSession(t, s)
	lib := s.Libraries(session)[0].ID
	al := servertest.Expect[api.Album](t, s.Do("POST", "/api/albums", session, map[string]any{"name": "Plain"}), http.StatusCreated)
	for _, name := range []string{"\u001b[2J", "Ann\u001b]0;pwned\u0007", "tab\there", "line\nbreak", "c1\u009b31m", "del\u007f"} {
		for _, c := range []struct{ what, method, path string }{
			{"album", "POST", "/api/albums"},
			{"album rename", "PATCH", "/api/albums/" + al.ID},
			{"library", "POST", "/api/libraries"},
			{"library rename", "PATCH", "/api/libraries/" + lib},
			{"person", "POST", "/api/people"},
		} {
			r := s.Do(c.method, c.path, session, map[string]any{"name": name})
			require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s %q: %s", c.what, name, r.Body)
			require.Contains(t, string(r.Body), "control characters", "%s", r.Body)
		}
		r := s.Do("POST", "/api/api-keys", session, map[string]any{"name": name,
			"scope": map[string]any{"actions": []string{"all"}, "library_ids": nil}})
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "api key %q: %s", name, r.Body)
		for _, field := range []string{"first_name", "last_name"} {
			r := s.Do("PATCH", "/api/users/me", session, map[string]any{field: name})
			require.Equal(t, http.StatusUnprocessableEntity, r.Status, "my %s %q: %s", field, name, r.Body)
			r = s.Do("POST", "/api/admin/users", admin, map[string]any{"email": field + "@example.com", field: name})
			require.Equal(t, http.StatusUnprocessableEntity, r.Status, "a new user's %s %q: %s", field, name, r.Body)
		}
	}
	// Letters of any script, emoji and inner spaces stay fine.
	r := s.Do("POST", "/api/albums", session, map[string]any{"name": "Été à Zürich 🇨🇭 — 東京"})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
}

func TestMembersWithoutANameShowTheirEmailLocalPart(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	lib := s.Libraries(session)[0].ID
	u := servertest.User{Email: "no.name@example.com", Password: "correct horse battery"}
	created, err := s.App().CreateUser(t.Context(), app.NewUser{Email: u.Email, Password: u.Password})
	require.NoError(t, err)
	u.ID = created.ID
	inv := invite(t, s, session, lib, inviteBody(s, "viewer", time.Hour, 1))
	require.Equal(t, http.StatusOK, join(s, s.Login(u).AccessToken, inv.Token).Status)
	members := servertest.List[api.Member](s, session, "/api/libraries/"+lib+"/members")
	require.Len(t, members, 2)
	require.Equal(t, u.ID, members[0].ID)
	require.NotNil(t, members[0].DisplayName)
	require.Equal(t, "no.name", *members[0].DisplayName)
}
