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
		r := s.Do("GET", "/api/events", session, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var p api.Page[api.Event]
		r.JSON(t, &p)
		require.Len(t, p.Data, 1)
		require.Equal(t, "library.created", p.Data[0].Type)
		require.Equal(t, only.ID, p.Data[0].LibraryID)
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
		r := s.Do("GET", "/api/events", key, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var p api.Page[api.Event]
		r.JSON(t, &p)
		require.Equal(t, second.ID, p.Data[0].LibraryID)
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
		r := s.Do("GET", path, session, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var p api.Page[api.Library]
		r.JSON(t, &p)
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
