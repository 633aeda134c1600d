package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func createLibrary(t *testing.T, s *servertest.Server, token, name string) (api.Library, int) {
	t.Helper()
	r := s.Do("POST", "/api/libraries", token, api.LibraryCreateRequest{Name: name})
	var l api.Library
	if r.Status < 300 {
		r.JSON(t, &l)
	}
	return l, r.Status
}

func TestNamedCreateOfLibraries(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()

	holiday, status := createLibrary(t, s, session, "Holidays")
	require.Equal(t, http.StatusCreated, status)
	require.Equal(t, "owner", holiday.Role)

	t.Run("the same name returns the existing library with 200", func(t *testing.T) {
		again, status := createLibrary(t, s, session, "  holidays ")
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, holiday.ID, again.ID)
		require.Len(t, s.Libraries(session), 2)
	})
	t.Run("blank and whitespace-only names are 422", func(t *testing.T) {
		for _, name := range []string{"", "   ", "\t\n"} {
			items := validationItems(t, s.Do("POST", "/api/libraries", session, api.LibraryCreateRequest{Name: name}))
			require.Equal(t, []any{"body", "name"}, items[0].Loc)
		}
	})
	t.Run("another user may use the same name", func(t *testing.T) {
		_, other := s.Session()
		_, status := createLibrary(t, s, other, "Holidays")
		require.Equal(t, http.StatusCreated, status)
	})
	t.Run("renaming to a taken name is 409", func(t *testing.T) {
		work, _ := createLibrary(t, s, session, "Work")
		requireDetail(t, s.Do("PATCH", "/api/libraries/"+work.ID, session, map[string]string{"name": "HOLIDAYS"}),
			http.StatusConflict)
		r := s.Do("PATCH", "/api/libraries/"+work.ID, session, map[string]string{"name": "Office"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, "Office", r.Map(t)["name"])
	})
	t.Run("renaming to a blank name is 422", func(t *testing.T) {
		validationItems(t, s.Do("PATCH", "/api/libraries/"+holiday.ID, session, map[string]string{"name": " "}))
	})
}

func TestLibrarySelection(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	only := s.Libraries(session)[0]

	t.Run("optional with one library", func(t *testing.T) {
		events := servertest.List[api.Event](s, session, "/api/events")
		require.Len(t, events, 1)
		require.Equal(t, "library.created", events[0].Type)
		require.Equal(t, only.ID, events[0].LibraryID)
	})

	second, _ := createLibrary(t, s, session, "Second")
	t.Run("required with several, naming library_id", func(t *testing.T) {
		items := validationItems(t, s.Do("GET", "/api/events", session, nil))
		require.Equal(t, []any{"query", "library_id"}, items[0].Loc)
		require.Equal(t, "missing", items[0].Type)
	})
	t.Run("explicit library works", func(t *testing.T) {
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/events?library_id="+second.ID, session, nil).Status)
	})
	t.Run("a library the caller cannot reach is 404", func(t *testing.T) {
		_, other := s.Session()
		requireDetail(t, s.Do("GET", "/api/events?library_id="+second.ID, other, nil), http.StatusNotFound)
		requireDetail(t, s.Do("GET", "/api/events?library_id=lib_nope", session, nil), http.StatusNotFound)
	})
	t.Run("a key scoped to one library selects it without library_id", func(t *testing.T) {
		key := s.CreateKey(session, []string{"event.read"}, []string{second.ID})
		require.Equal(t, second.ID, servertest.List[api.Event](s, key, "/api/events")[0].LibraryID)
	})
}

func TestPaginationIsStableAcrossInserts(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	for i := range 6 {
		createLibrary(t, s, session, fmt.Sprintf("lib %d", i))
	}
	// 7 libraries now (the first one plus 6). Page through with inserts
	// between pages: nothing seen twice, nothing that existed skipped.
	before := s.Libraries(session)
	require.Len(t, before, 7)
	seen := map[string]int{}
	after := ""
	pages := 0
	for {
		path := "/api/libraries?limit=2"
		if after != "" {
			path += "&starting_after_id=" + after
		}
		p := servertest.Expect[api.Page[api.Library]](t, s.Do("GET", path, session, nil), http.StatusOK)
		for _, l := range p.Data {
			seen[l.ID]++
		}
		pages++
		createLibrary(t, s, session, fmt.Sprintf("inserted %d", pages))
		if !p.HasMore {
			require.LessOrEqual(t, len(p.Data), 2)
			break
		}
		require.Len(t, p.Data, 2)
		after = p.Data[len(p.Data)-1].ID
	}
	for _, l := range before {
		require.Equal(t, 1, seen[l.ID], "library %s seen once", l.Name)
	}
	for id, n := range seen {
		require.Equal(t, 1, n, "%s duplicated", id)
	}
	require.Equal(t, 4, pages)
}

func TestCursorIsScopedToTheCaller(t *testing.T) {
	s := servertest.Start(t)
	_, a := s.Session()
	_, b := s.Session()
	aLib := s.Libraries(a)[0]
	items := validationItems(t, s.Do("GET", "/api/libraries?starting_after_id="+aLib.ID, b, nil))
	require.Equal(t, []any{"query", "starting_after_id"}, items[0].Loc)
}

func TestLibraryTrashAndRestore(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	first := s.Libraries(session)[0]
	shared, _ := createLibrary(t, s, session, "Shared")
	_, collab := s.AddMember(session, shared.ID, "collaborator")
	_, viewer := s.AddMember(session, shared.ID, "viewer")
	asset := s.UploadAsset(collab, "a.jpg", servertest.JPEG(t, 16, 16, 1), map[string]string{"library_id": shared.ID})
	trashPath, restorePath := "/api/libraries/"+shared.ID+"/trash", "/api/libraries/"+shared.ID+"/restore"

	t.Run("members who are not the owner get 403 not_library_owner", func(t *testing.T) {
		requireCode(t, s.Do("POST", trashPath, collab, nil), http.StatusForbidden, "not_library_owner")
		requireCode(t, s.Do("POST", trashPath, viewer, nil), http.StatusForbidden, "not_library_owner")
		_, stranger := s.Session()
		requireCode(t, s.Do("POST", trashPath, stranger, nil), http.StatusNotFound, "library_not_found")
		key := s.CreateKey(session, []string{"all"}, nil)
		requireCode(t, s.Do("POST", trashPath, key, nil), http.StatusForbidden, "first_party_session_required")
	})

	var trashed api.Library
	t.Run("the owner trashes it and its content is hidden from every member", func(t *testing.T) {
		trashed = servertest.Expect[api.Library](t, s.Do("POST", trashPath, session, nil), http.StatusOK)
		require.NotNil(t, trashed.TrashedAt)
		require.Equal(t, "owner", trashed.Role)
		for _, sess := range []string{session, collab, viewer} {
			requireDetail(t, s.Do("GET", "/api/assets/"+asset.ID, sess, nil), http.StatusNotFound)
			requireDetail(t, s.Do("GET", "/api/assets?library_id="+shared.ID, sess, nil), http.StatusNotFound)
			requireDetail(t, s.Do("GET", "/api/libraries/"+shared.ID, sess, nil), http.StatusNotFound)
			requireDetail(t, s.Upload(sess, "b.jpg", servertest.JPEG(t, 16, 16, 2),
				map[string]string{"library_id": shared.ID}), http.StatusNotFound)
			for _, l := range s.Libraries(sess) {
				require.NotEqual(t, shared.ID, l.ID, "the default list holds live libraries")
			}
		}
		got := servertest.List[api.Library](s, session, "/api/libraries?state=trashed")
		require.Equal(t, []api.Library{trashed}, got)
		require.Len(t, servertest.List[api.Library](s, session, "/api/libraries?state=all"), 2)
		items := validationItems(t, s.Do("GET", "/api/libraries?state=gone", session, nil))
		require.Equal(t, []any{"query", "state"}, items[0].Loc)
	})
	t.Run("trashing again returns it unchanged", func(t *testing.T) {
		r := s.Do("POST", trashPath, session, nil)
		again := servertest.Expect[api.Library](t, r, http.StatusOK)
		require.Equal(t, trashed, again)
	})
	t.Run("the owner's last live library cannot be trashed", func(t *testing.T) {
		requireCode(t, s.Do("POST", "/api/libraries/"+first.ID+"/trash", session, nil),
			http.StatusConflict, "last_live_library")
		require.Len(t, s.Libraries(session), 1)
	})
	t.Run("only the owner restores", func(t *testing.T) {
		requireCode(t, s.Do("POST", restorePath, collab, nil), http.StatusForbidden, "not_library_owner")
	})
	t.Run("restoring brings the content back to every member", func(t *testing.T) {
		r := s.Do("POST", restorePath, session, nil)
		restored := servertest.Expect[api.Library](t, r, http.StatusOK)
		require.Nil(t, restored.TrashedAt)
		for _, sess := range []string{session, collab, viewer} {
			require.Equal(t, asset.ID, getAsset(t, s, sess, asset.ID).ID)
		}
		again := s.Do("POST", restorePath, session, nil)
		require.Equal(t, http.StatusOK, again.Status)
		require.JSONEq(t, string(r.Body), string(again.Body), "restoring a live library changes nothing")
	})
	t.Run("trash and restore are in the library's feed", func(t *testing.T) {
		var types []string
		for _, e := range s.Events(session, shared.ID) {
			if e.Type == "library.trashed" || e.Type == "library.restored" {
				types = append(types, e.Type)
			}
		}
		require.Equal(t, []string{"library.trashed", "library.restored"}, types)
	})
	t.Run("with another live library, the first one can be trashed", func(t *testing.T) {
		r := s.Do("POST", "/api/libraries/"+first.ID+"/trash", session, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	})
}

func TestLibrarySwitch(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	first := s.Libraries(session)[0]
	second, _ := createLibrary(t, s, session, "Second")

	l := servertest.Expect[api.Library](t, s.Do("POST", "/api/libraries/"+second.ID+"/switch", session, nil), http.StatusOK)
	require.Equal(t, second.ID, l.ID)
	var prefs api.Preferences
	s.Do("GET", "/api/users/me/preferences", session, nil).JSON(t, &prefs)
	require.Equal(t, second.ID, *prefs.DefaultLibraryID)

	t.Run("library_id stays required with several libraries", func(t *testing.T) {
		items := validationItems(t, s.Do("GET", "/api/events", session, nil))
		require.Equal(t, []any{"query", "library_id"}, items[0].Loc)
	})
	t.Run("a key with user.update may switch within its scope", func(t *testing.T) {
		key := s.CreateKey(session, []string{"user.update"}, []string{first.ID})
		require.Equal(t, http.StatusOK, s.Do("POST", "/api/libraries/"+first.ID+"/switch", key, nil).Status)
		requireDetail(t, s.Do("POST", "/api/libraries/"+second.ID+"/switch", key, nil), http.StatusForbidden)
		readOnly := s.CreateKey(session, []string{"library.read"}, nil)
		requireDetail(t, s.Do("POST", "/api/libraries/"+first.ID+"/switch", readOnly, nil), http.StatusForbidden)
	})
	t.Run("a library the caller does not reach is 404", func(t *testing.T) {
		_, stranger := s.Session()
		requireDetail(t, s.Do("POST", "/api/libraries/"+second.ID+"/switch", stranger, nil), http.StatusNotFound)
	})
}

func TestScopedKeyListsFullPagesOfItsLibraries(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	var scoped []string
	for i := range 6 {
		l, _ := createLibrary(t, s, session, fmt.Sprintf("lib %d", i))
		if i%2 == 0 {
			scoped = append(scoped, l.ID)
		}
	}
	key := s.CreateKey(session, []string{"library.read"}, scoped)
	var p api.Page[api.Library]
	s.Do("GET", "/api/libraries?limit=2", key, nil).JSON(t, &p)
	require.Len(t, p.Data, 2, "a page is filled from the scope, not filtered after paging")
	require.True(t, p.HasMore)
	require.Equal(t, []string{scoped[2], scoped[1]}, []string{p.Data[0].ID, p.Data[1].ID})
}
