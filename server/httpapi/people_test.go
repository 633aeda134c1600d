package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// startPeopleServer starts a server that runs no background tasks, so
// nothing but the test makes faces or renderings.
func startPeopleServer(t *testing.T) *servertest.Server {
	t.Helper()
	return servertest.Start(t, func(c *app.Config) { c.Workers.Concurrency = 0 })
}

// createPerson sends a named create and returns the person and the status.
func createPerson(t *testing.T, s *servertest.Server, token string, body any) (api.Person, int) {
	t.Helper()
	r := s.Do("POST", "/api/people", token, body)
	var p api.Person
	if r.Status < 300 {
		r.JSON(t, &p)
	}
	return p, r.Status
}

// photos uploads n small JPEGs, "1.jpg" to "n.jpg" (seeds 1 to n).
func photos(t *testing.T, s *servertest.Server, token string, n int) []api.Asset {
	t.Helper()
	out := make([]api.Asset, n)
	for i := range out {
		out[i] = s.UploadAsset(token, fmt.Sprintf("%d.jpg", i+1), servertest.JPEG(t, 8, 8, i+1), nil)
	}
	return out
}

// person creates a person named name and requires a 201.
func person(t *testing.T, s *servertest.Server, token, name string) api.Person {
	t.Helper()
	p, status := createPerson(t, s, token, map[string]any{"name": name})
	require.Equal(t, http.StatusCreated, status)
	return p
}

func getPerson(t *testing.T, s *servertest.Server, token, id string) api.Person {
	t.Helper()
	return servertest.Expect[api.Person](t, s.Do("GET", "/api/people/"+id, token, nil), http.StatusOK)
}

func listPeople(t *testing.T, s *servertest.Server, token, query string) []string {
	t.Helper()
	var names []string
	for _, p := range servertest.List[api.Person](s, token, "/api/people"+query) {
		if p.Name == nil {
			names = append(names, "(unnamed)")
		} else {
			names = append(names, *p.Name)
		}
	}
	return names
}

func TestNamedCreateOfPeople(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()

	ann, status := createPerson(t, s, session, map[string]any{"name": " Ann ", "birth_date": "1990-02-03"})
	require.Equal(t, http.StatusCreated, status)
	require.Equal(t, "Ann", *ann.Name)
	require.Equal(t, "1990-02-03", *ann.BirthDate)
	require.Zero(t, ann.AssetCount)
	require.Nil(t, ann.ThumbnailFaceID)
	require.Nil(t, ann.ThumbnailFaceURL)
	require.Nil(t, ann.AssetURLs)

	t.Run("the same name in another case returns the existing person with 200", func(t *testing.T) {
		again, status := createPerson(t, s, session, map[string]any{"name": "ANN"})
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, ann.ID, again.ID)
		again, status = createPerson(t, s, session, map[string]any{"name": "ann", "birth_date": "1990-02-03",
			"is_favorite": false})
		require.Equal(t, http.StatusOK, status, "supplied fields that agree")
		require.Equal(t, ann.ID, again.ID)
	})
	t.Run("supplied fields that disagree are 409", func(t *testing.T) {
		for _, body := range []map[string]any{{"name": "ann", "birth_date": "1991-01-01"},
			{"name": "Ann", "is_favorite": true}, {"name": "Ann", "is_hidden": true}} {
			requireDetail(t, s.Do("POST", "/api/people", session, body), http.StatusConflict)
		}
	})
	t.Run("blank names and bad dates are 422 at their field", func(t *testing.T) {
		for _, c := range []struct {
			body map[string]any
			loc  []any
		}{
			{map[string]any{"name": ""}, []any{"body", "name"}},
			{map[string]any{"name": " \t "}, []any{"body", "name"}},
			{map[string]any{"name": "Zed", "birth_date": "1990-13-01"}, []any{"body", "birth_date"}},
			{map[string]any{"name": "Zed", "birth_date": "3000-01-01"}, []any{"body", "birth_date"}},
			{map[string]any{"name": "Zed", "nickname": "z"}, []any{"body", "nickname"}},
			{map[string]any{"name": 5}, []any{"body", "name"}},
		} {
			items := validationItems(t, s.Do("POST", "/api/people", session, c.body))
			require.Equal(t, c.loc, items[0].Loc, "%v", c.body)
		}
		require.Equal(t, []string{"Ann"}, listPeople(t, s, session, ""), "nothing was written")
	})
	t.Run("renaming to a taken name is 409, to a free one 200", func(t *testing.T) {
		bob := person(t, s, session, "Bob")
		requireDetail(t, s.Do("PATCH", "/api/people/"+bob.ID, session, map[string]any{"name": "aNN"}),
			http.StatusConflict)
		r := s.Do("PATCH", "/api/people/"+bob.ID, session, map[string]any{"name": "Robert", "is_favorite": true,
			"birth_date": "1980-05-06"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		got := getPerson(t, s, session, bob.ID)
		require.Equal(t, "Robert", *got.Name)
		require.True(t, got.IsFavorite)
		require.Equal(t, "1980-05-06", *got.BirthDate)
		require.True(t, got.UpdatedAt.After(bob.UpdatedAt) || got.UpdatedAt.Equal(bob.UpdatedAt))
	})
	t.Run("a name and a birth date can be cleared; the flags cannot be null", func(t *testing.T) {
		p := person(t, s, session, "Temp")
		r := s.Do("PATCH", "/api/people/"+p.ID, session, map[string]any{"name": nil, "birth_date": nil})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Nil(t, getPerson(t, s, session, p.ID).Name)
		for _, field := range []string{"is_hidden", "is_favorite", "thumbnail_face_id"} {
			items := validationItems(t, s.Do("PATCH", "/api/people/"+p.ID, session, map[string]any{field: nil}))
			require.Equal(t, []any{"body", field}, items[0].Loc)
		}
		items := validationItems(t, s.Do("PATCH", "/api/people/"+p.ID, session, map[string]any{"name": "  "}))
		require.Equal(t, []any{"body", "name"}, items[0].Loc)
	})
	t.Run("library_id is required with several libraries and chooses where", func(t *testing.T) {
		second, _ := createLibrary(t, s, session, "Second")
		items := validationItems(t, s.Do("POST", "/api/people", session, map[string]any{"name": "Ann"}))
		require.Equal(t, []any{"body", "library_id"}, items[0].Loc)
		other, status := createPerson(t, s, session, map[string]any{"name": "Ann", "library_id": second.ID})
		require.Equal(t, http.StatusCreated, status, "the same name in another library is another person")
		require.NotEqual(t, ann.ID, other.ID)
		require.Equal(t, second.ID, other.LibraryID)
		r := s.Do("POST", "/api/people?library_id="+second.ID, session, map[string]any{"name": "Ann"})
		require.Equal(t, http.StatusOK, r.Status, "the query names the library too: %s", r.Body)
	})
}

func TestPeopleListFilters(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	up := photos(t, s, session, 2)
	a1, a2 := up[0], up[1]
	alice := person(t, s, session, "Alice Smith")
	alicia := person(t, s, session, "ALICIA")
	bob := person(t, s, session, "Bob")
	nameless := person(t, s, session, "to be unnamed")
	r := s.Do("PATCH", "/api/people/"+nameless.ID, session, map[string]any{"name": nil})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	face(t, s, session, a1.ID, &alice.ID)
	face(t, s, session, a1.ID, &bob.ID)
	face(t, s, session, a2.ID, &alicia.ID)

	for _, c := range []struct {
		name, query string
		want        []string
	}{
		{"every person, newest first", "", []string{"(unnamed)", "Bob", "ALICIA", "Alice Smith"}},
		{"name is a case-insensitive substring", "?name=aLi", []string{"ALICIA", "Alice Smith"}},
		{"a name matching nobody", "?name=zed", nil},
		{"named only", "?named=true", []string{"Bob", "ALICIA", "Alice Smith"}},
		{"unnamed only", "?named=false", []string{"(unnamed)"}},
		{"ids, comma-separated", "?ids=" + alice.ID + "," + bob.ID, []string{"Bob", "Alice Smith"}},
		{"ids, repeated", "?ids=" + alice.ID + "&ids=" + nameless.ID, []string{"(unnamed)", "Alice Smith"}},
		{"in an asset", "?asset_id=" + a1.ID, []string{"Bob", "Alice Smith"}},
		{"in an asset, by name", "?asset_id=" + a1.ID + "&name=smith", []string{"Alice Smith"}},
		{"include_unverified adds machine clusters (none here)", "?include_unverified=true",
			[]string{"(unnamed)", "Bob", "ALICIA", "Alice Smith"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, listPeople(t, s, session, c.query))
		})
	}
	t.Run("in an album", func(t *testing.T) {
		r := s.Do("POST", "/api/albums", session, map[string]any{"name": "Trip"})
		require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
		album := r.Map(t)["id"].(string)
		r = s.Do("POST", "/api/albums/"+album+"/assets", session, map[string]any{"asset_ids": []string{a2.ID}})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, []string{"ALICIA"}, listPeople(t, s, session, "?album_id="+album))
	})
	t.Run("pages follow starting_after_id", func(t *testing.T) {
		first := servertest.List[api.Person](s, session, "/api/people?limit=2")
		require.Len(t, first, 2)
		rest := servertest.List[api.Person](s, session, "/api/people?limit=2&starting_after_id="+first[1].ID)
		require.Equal(t, []string{alicia.ID, alice.ID}, []string{rest[0].ID, rest[1].ID})
	})
	t.Run("bad filters are 422 at their parameter", func(t *testing.T) {
		many := make([]string, 101)
		for i := range many {
			many[i] = alice.ID
		}
		for _, c := range []struct{ query, param string }{
			{"?ids=" + strings.Join(many, ","), "ids"},
			{"?ids=asset_01hzzzzzzzzzzzzzzzzzzzzzzz", "ids"},
			{"?named=maybe", "named"},
			{"?include_unverified=2", "include_unverified"},
			{"?limit=201", "limit"},
			{"?starting_after_id=" + a1.ID, "starting_after_id"},
			{"?order=asc", "order"},
		} {
			items := validationItems(t, s.Do("GET", "/api/people"+c.query, session, nil))
			require.Equal(t, "query", items[0].Loc[0], c.query)
			require.Equal(t, c.param, items[0].Loc[1], c.query)
		}
		require.Len(t, listPeople(t, s, session, "?ids="+strings.Join(many[:100], ",")), 1, "100 ids are allowed")
	})
}

func TestMergeAndReassign(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	up := photos(t, s, session, 3)
	a1, a2, a3 := up[0], up[1], up[2]
	ann, bob, cat := person(t, s, session, "Ann"), person(t, s, session, "Bob"), person(t, s, session, "Cat")
	fa := face(t, s, session, a1.ID, &ann.ID)
	fb1 := face(t, s, session, a1.ID, &bob.ID)
	fb2 := face(t, s, session, a2.ID, &bob.ID)
	fc := face(t, s, session, a3.ID, &cat.ID)
	require.Equal(t, 2, getPerson(t, s, session, bob.ID).AssetCount)

	t.Run("merging moves the faces here and deletes the others", func(t *testing.T) {
		r := s.Do("POST", "/api/people/"+ann.ID+"/merge", session, map[string]any{"ids": []string{bob.ID, cat.ID}})
		merged := servertest.Expect[api.Person](t, r, http.StatusOK)
		require.Equal(t, ann.ID, merged.ID)
		require.Equal(t, "Ann", *merged.Name)
		require.Equal(t, 3, merged.AssetCount)
		require.Equal(t, fa.ID, *merged.ThumbnailFaceID, "the featured face stays")
		for _, gone := range []string{bob.ID, cat.ID} {
			requireDetail(t, s.Do("GET", "/api/people/"+gone, session, nil), http.StatusNotFound)
		}
		faces := servertest.List[api.Face](s, session, "/api/faces?person_id="+ann.ID)
		require.ElementsMatch(t, []string{fa.ID, fb1.ID, fb2.ID, fc.ID}, faceIDs(faces))
		require.Equal(t, []string{"Ann"}, listPeople(t, s, session, ""))
	})
	t.Run("reassigning moves faces and both people's counts", func(t *testing.T) {
		dan := person(t, s, session, "Dan")
		r := s.Do("POST", "/api/people/"+dan.ID+"/reassign", session,
			map[string]any{"face_ids": []string{fb2.ID, fc.ID, fc.ID}})
		got := servertest.Expect[api.Person](t, r, http.StatusOK)
		require.Equal(t, 2, got.AssetCount)
		require.Contains(t, []string{fb2.ID, fc.ID}, *got.ThumbnailFaceID, "one of its faces is featured")
		require.Equal(t, 1, getPerson(t, s, session, ann.ID).AssetCount, "a1 only")
		r = s.Do("POST", "/api/people/"+dan.ID+"/reassign", session, map[string]any{"face_ids": []string{fc.ID}})
		require.Equal(t, http.StatusOK, r.Status, "faces already there are left alone: %s", r.Body)
	})
	t.Run("the featured face must be one of the person's", func(t *testing.T) {
		r := s.Do("PATCH", "/api/people/"+ann.ID, session, map[string]any{"thumbnail_face_id": fb1.ID})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, fb1.ID, *getPerson(t, s, session, ann.ID).ThumbnailFaceID)
		items := validationItems(t, s.Do("PATCH", "/api/people/"+ann.ID, session,
			map[string]any{"thumbnail_face_id": fc.ID}))
		require.Equal(t, []any{"body", "thumbnail_face_id"}, items[0].Loc)
	})
	t.Run("bad merges and reassignments are 422 at the id and write nothing", func(t *testing.T) {
		_, other := s.Session()
		stranger := person(t, s, other, "Stranger")
		eve := person(t, s, session, "Eve")
		many := make([]string, 101)
		for i := range many {
			many[i] = eve.ID
		}
		for _, c := range []struct {
			path string
			body any
			loc  []any
		}{
			{"/merge", map[string]any{"ids": []string{eve.ID, ann.ID}}, []any{"body", "ids", 1.0}},
			{"/merge", map[string]any{"ids": []string{stranger.ID}}, []any{"body", "ids", 0.0}},
			{"/merge", map[string]any{"ids": []string{}}, []any{"body", "ids"}},
			{"/merge", map[string]any{"ids": many}, []any{"body", "ids"}},
			{"/merge", map[string]any{"ids": []string{fa.ID}}, []any{"body", "ids", 0.0}},
			{"/merge", map[string]any{}, []any{"body", "ids"}},
			{"/reassign", map[string]any{"face_ids": []string{fa.ID, "face_01hzzzzzzzzzzzzzzzzzzzzzzz"}},
				[]any{"body", "face_ids", 1.0}},
			{"/reassign", map[string]any{"face_ids": []string{ann.ID}}, []any{"body", "face_ids", 0.0}},
			{"/reassign", map[string]any{"face_ids": nil}, []any{"body", "face_ids"}},
		} {
			items := validationItems(t, s.Do("POST", "/api/people/"+ann.ID+c.path, session, c.body))
			require.Equal(t, c.loc, items[0].Loc, "%s %v", c.path, c.body)
		}
		require.Equal(t, 1, getPerson(t, s, session, ann.ID).AssetCount)
		require.Equal(t, 0, getPerson(t, s, session, eve.ID).AssetCount)
		requireDetail(t, s.Do("POST", "/api/people/"+stranger.ID+"/merge", session,
			map[string]any{"ids": []string{eve.ID}}), http.StatusNotFound)
	})
}

// faceEvents lists the types and resource ids of the people and face
// events of the caller's only library, in feed order.
func faceEvents(t *testing.T, s *servertest.Server, token string) []string {
	t.Helper()
	var out []string
	for _, e := range servertest.List[api.Event](s, token, "/api/events?limit=200") {
		if strings.HasPrefix(e.Type, "person.") || strings.HasPrefix(e.Type, "face.") {
			out = append(out, fmt.Sprintf("%s %s %s", e.Type, e.ResourceID, e.Data))
		}
	}
	return out
}

func TestPeopleEvents(t *testing.T) {
	s := startPeopleServer(t)
	_, session := s.Session()
	a := s.UploadAsset(session, "1.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	ann, bob := person(t, s, session, "Ann"), person(t, s, session, "Bob")
	f := face(t, s, session, a.ID, &bob.ID)
	r := s.Do("PATCH", "/api/people/"+ann.ID, session, map[string]any{"is_hidden": true, "is_favorite": false})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	r = s.Do("POST", "/api/people/"+ann.ID+"/merge", session, map[string]any{"ids": []string{bob.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, http.StatusNoContent, s.Do("DELETE", "/api/faces/"+f.ID, session, nil).Status)

	require.Equal(t, []string{
		"person.created " + ann.ID + ` {"name":"Ann"}`,
		"person.created " + bob.ID + ` {"name":"Bob"}`,
		"face.created " + f.ID + ` {"asset_id":"` + a.ID + `","person_id":"` + bob.ID + `","source":"manual"}`,
		"person.updated " + bob.ID + ` {"fields":["faces"]}`,
		"person.updated " + ann.ID + ` {"fields":["is_hidden"]}`,
		"face.updated " + f.ID + ` {"person_id":"` + ann.ID + `"}`,
		"person.deleted " + bob.ID + ` {"merged_into":"` + ann.ID + `"}`,
		"person.updated " + ann.ID + ` {"fields":["faces"]}`,
		"face.deleted " + f.ID + ` {"asset_id":"` + a.ID + `","person_id":"` + ann.ID + `"}`,
		"person.updated " + ann.ID + ` {"fields":["faces"]}`,
	}, faceEvents(t, s, session))
}

func TestPeopleAccess(t *testing.T) {
	s := startPeopleServer(t)
	_, owner := s.Session()
	lib := s.Libraries(owner)[0]
	a := s.UploadAsset(owner, "1.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	ann := person(t, s, owner, "Ann")
	f := face(t, s, owner, a.ID, &ann.ID)
	_, viewer := s.AddMember(owner, lib.ID, "viewer")
	_, collaborator := s.AddMember(owner, lib.ID, "collaborator")
	_, stranger := s.Session()
	readKey := s.CreateKey(owner, []string{"person.read"}, nil)
	q := "?library_id=" + lib.ID

	writes := []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/people" + q, map[string]any{"name": "Zed"}},
		{"PATCH", "/api/people/" + ann.ID, map[string]any{"is_favorite": true}},
		{"POST", "/api/people/" + ann.ID + "/reassign", map[string]any{"face_ids": []string{f.ID}}},
		{"POST", "/api/faces", map[string]any{"asset_id": a.ID, "bounding_box": box(0.1, 0.1, 0.2, 0.2)}},
		{"DELETE", "/api/faces/" + f.ID, nil},
	}
	t.Run("a viewer and a read-only key read but do not write", func(t *testing.T) {
		for _, token := range []string{viewer, readKey} {
			require.Equal(t, []string{"Ann"}, listPeople(t, s, token, q))
			require.Equal(t, ann.ID, getPerson(t, s, token, ann.ID).ID)
			require.Len(t, servertest.List[api.Face](s, token, "/api/faces"+q), 1)
			for _, w := range writes {
				requireDetail(t, s.Do(w.method, w.path, token, w.body), http.StatusForbidden)
			}
		}
	})
	t.Run("another user's people and faces read as not found", func(t *testing.T) {
		requireDetail(t, s.Do("GET", "/api/people/"+ann.ID, stranger, nil), http.StatusNotFound)
		requireDetail(t, s.Do("PATCH", "/api/people/"+ann.ID, stranger, map[string]any{"name": "x"}), http.StatusNotFound)
		requireDetail(t, s.Do("DELETE", "/api/faces/"+f.ID, stranger, nil), http.StatusNotFound)
		requireDetail(t, s.Do("GET", "/api/faces/"+f.ID+"/thumbnail", stranger, nil), http.StatusNotFound)
		requireDetail(t, s.Do("GET", "/api/people"+q, stranger, nil), http.StatusNotFound)
		items := validationItems(t, s.Do("POST", "/api/faces", stranger,
			map[string]any{"asset_id": a.ID, "bounding_box": box(0.1, 0.1, 0.2, 0.2)}))
		require.Equal(t, []any{"body", "asset_id"}, items[0].Loc)
	})
	t.Run("a collaborator writes", func(t *testing.T) {
		for _, w := range writes {
			r := s.Do(w.method, w.path, collaborator, w.body)
			require.Less(t, r.Status, 300, "%s %s: %s", w.method, w.path, r.Body)
		}
	})
	t.Run("no credential is 401", func(t *testing.T) {
		requireDetail(t, s.Do("GET", "/api/people", "", nil), http.StatusUnauthorized)
	})
}
