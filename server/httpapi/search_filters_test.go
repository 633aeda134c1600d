package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest"
)

// with adds parameters to a query.
func with(q url.Values, kv ...string) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.Add(kv[i], kv[i+1])
	}
	return out
}

func TestSearchFiltersNarrowTheText(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	st := searchStore(t, s)
	beach := func(seed int, when string, lonlat ...float64) string {
		id := place(t, s, session, seed, when, lonlat...)
		editAsset(t, st, id, func(a *catalog.Asset) { a.Description = ptr("a sandy beach") })
		return id
	}
	lisbon := beach(1, "2023-06-01T10:00:00+01:00", -9.14, 38.72)
	nice := beach(2, "2023-07-01T10:00:00+02:00", 7.26, 43.70)
	sydney := beach(3, "2024-01-05T10:00:00+11:00", 151.21, -33.87)
	nowhere := beach(4, "2024-02-01T10:00:00")
	video := s.UploadAsset(session, "beach.mp4", servertest.JPEG(t, 8, 8, 5), nil).ID
	editAsset(t, st, video, func(a *catalog.Asset) {
		a.MediaType, a.MIMEType = catalog.MediaVideo, "video/mp4"
		a.Description = ptr("waves on a beach")
	})
	ann := person(t, s, session, "Ann")
	face(t, s, session, nice, &ann.ID)
	face(t, s, session, nowhere, &ann.ID)
	album := newAlbum(t, s, session, "Trips")
	addToAlbum(t, s, session, album.ID, lisbon, sydney)
	q := text("beach")

	t.Run("every match without filters", func(t *testing.T) {
		require.ElementsMatch(t, []string{lisbon, nice, sydney, nowhere, video}, hitIDs(searchHits(t, s, session, q)))
	})
	t.Run("capture-time bounds, offsetless and with an offset", func(t *testing.T) {
		require.ElementsMatch(t, []string{lisbon, nice}, hitIDs(searchHits(t, s, session,
			with(q, "local_datetime_after", "2023-01-01T00:00:00", "local_datetime_before", "2024-01-01T00:00:00"))))
		require.ElementsMatch(t, []string{sydney}, hitIDs(searchHits(t, s, session,
			with(q, "local_datetime_after", "2024-01-04T22:00:00Z", "local_datetime_before", "2024-01-05T00:00:00Z"))))
	})
	t.Run("a new capture time moves the asset to its new window", func(t *testing.T) {
		march := with(q, "local_datetime_after", "2022-03-01T00:00:00", "local_datetime_before", "2022-04-01T00:00:00")
		require.Empty(t, hitIDs(searchHits(t, s, session, march)))
		r := s.Do("PATCH", "/api/assets/"+nowhere, session, map[string]any{"original_datetime": "2022-03-03T10:00:00"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, []string{nowhere}, hitIDs(searchHits(t, s, session, march)))
		r = s.Do("PATCH", "/api/assets/"+nowhere, session, map[string]any{"original_datetime": "2024-02-01T10:00:00"})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Empty(t, hitIDs(searchHits(t, s, session, march)))
	})
	t.Run("dates alone are a criterion; the hits come newest first, unscored", func(t *testing.T) {
		got := searchHits(t, s, session, url.Values{"local_datetime_after": {"2024-01-01T00:00:00"}})
		require.Equal(t, []string{video, nowhere, sydney}, hitIDs(got))
		for _, h := range got.Data {
			require.Zero(t, h.Score)
		}
	})
	t.Run("people and albums, with or without text", func(t *testing.T) {
		require.ElementsMatch(t, []string{nice, nowhere}, hitIDs(searchHits(t, s, session, with(q, "person_ids", ann.ID))))
		require.Equal(t, []string{nowhere, nice}, hitIDs(searchHits(t, s, session, url.Values{"person_ids": {ann.ID}})))
		require.ElementsMatch(t, []string{lisbon, sydney}, hitIDs(searchHits(t, s, session, with(q, "album_id", album.ID))))
		require.Equal(t, []string{sydney, lisbon}, hitIDs(searchHits(t, s, session, url.Values{"album_id": {album.ID}})))
	})
	t.Run("a location only narrows", func(t *testing.T) {
		require.ElementsMatch(t, []string{lisbon, nice}, hitIDs(searchHits(t, s, session, with(q, "bbox", "-10,35,10,45"))))
		require.ElementsMatch(t, []string{sydney}, hitIDs(searchHits(t, s, session, with(q, "center", "151.2,-33.9", "radius", "10000"))))
		items := validationItems(t, s.Do("GET", "/api/search?bbox=-10,35,10,45", session, nil))
		require.Equal(t, "missing", items[0].Type, "a location is no criterion")
	})
	t.Run("media type and state", func(t *testing.T) {
		require.Equal(t, []string{video}, hitIDs(searchHits(t, s, session, with(q, "media_type", "video"))))
		require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{lisbon}}).Status)
		require.NotContains(t, hitIDs(searchHits(t, s, session, q)), lisbon, "trashed assets are left out")
		require.Equal(t, []string{lisbon}, hitIDs(searchHits(t, s, session, with(q, "state", "trashed"))))
		require.Len(t, hitIDs(searchHits(t, s, session, with(q, "state", "all"))), 5)
	})
}

func TestSearchPagesByScoreThenID(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	st := searchStore(t, s)
	var all []string
	for i := range 7 {
		id := place(t, s, session, i+1, "2024-01-01T10:00:00")
		desc := "a red bicycle"
		if i%3 == 0 {
			desc = "a red bicycle, red as a red fire truck" // scores higher
		}
		editAsset(t, st, id, func(a *catalog.Asset) { a.Description = ptr(desc) })
		all = append(all, id)
	}
	whole := searchHits(t, s, session, with(text("red"), "limit", "200"))
	require.Len(t, whole.Data, 7)
	for i := 1; i < len(whole.Data); i++ {
		a, b := whole.Data[i-1], whole.Data[i]
		require.True(t, a.Score > b.Score || a.Score == b.Score && a.ID > b.ID, "ordered by score, then id, descending")
	}
	var paged []string
	after := ""
	for pages := 1; ; pages++ {
		q := with(text("red"), "limit", "3")
		if after != "" {
			q = with(q, "starting_after_id", after)
		}
		p := searchHits(t, s, session, q)
		paged = append(paged, hitIDs(p)...)
		if !p.HasMore {
			require.Equal(t, 3, pages)
			break
		}
		require.Len(t, p.Data, 3)
		after = p.Data[len(p.Data)-1].ID
	}
	require.Equal(t, hitIDs(whole), paged, "pages neither repeat nor skip")
	items := validationItems(t, s.Do("GET", "/api/search?query=blue&starting_after_id="+all[0], session, nil))
	require.Equal(t, []any{"query", "starting_after_id"}, items[0].Loc, "a cursor outside the search")
}

func TestSearchValidation(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	for _, c := range []struct {
		query string
		loc   []any
		typ   string
	}{
		{"", []any{"query"}, "missing"},
		{"query=", []any{"query"}, "missing"},
		{"media_type=image&state=all&bbox=-10,-10,10,10", []any{"query"}, "missing"},
		{"query=x&captured_after=2024-01-01T00:00:00Z", []any{"query", "captured_after"}, "extra_forbidden"},
		{"local_datetime_after=2024-01-01T00:00:00&captured_before=2024-01-01T00:00:00", []any{"query", "captured_before"}, "extra_forbidden"},
		{"query=x&album_ids=album_1", []any{"query", "album_ids"}, "extra_forbidden"},
		{"query=x&person_id=person_1", []any{"query", "person_id"}, "extra_forbidden"},
		{"query=x&threshold=0.5", []any{"query", "threshold"}, "extra_forbidden"},
		{"query=x&min_score=0.5", []any{"query", "min_score"}, "extra_forbidden"},
		{"query=x&colour=red", []any{"query", "colour"}, "extra_forbidden"},
		{"query=x&order=asc", []any{"query", "order"}, "extra_forbidden"},
		{"local_datetime_after=2024-01-01T00:00:00&local_datetime_before=2024-02-01T00:00:00Z", nil, ""},
		{"query=x&bbox=1,2,3,4&center=1,2&radius=5", nil, ""},
		{"query=x&media_type=audio", []any{"query", "media_type"}, "enum"},
		{"query=x&state=gone", []any{"query", "state"}, "enum"},
		{"query=x&limit=201", []any{"query", "limit"}, "less_than_equal"},
		{"query=w1+w2+w3+w4+w5+w6+w7+w8+w9", []any{"query", "query"}, "too_long"},
		{"query=" + strings.Repeat("x", 1001), []any{"query", "query"}, "string_too_long"},
	} {
		t.Run(c.query, func(t *testing.T) {
			r := s.Do("GET", "/api/search?"+c.query, session, nil)
			if c.loc == nil { // a semantic message
				requireDetail(t, r, http.StatusUnprocessableEntity)
				return
			}
			items := validationItems(t, r)
			require.Equal(t, c.loc, items[0].Loc)
			require.Equal(t, c.typ, items[0].Type)
		})
	}
	t.Run("a legacy name says what replaced it", func(t *testing.T) {
		items := validationItems(t, s.Do("GET", "/api/search?query=x&captured_after=2024-01-01T00:00:00Z&person_id=p", session, nil))
		require.Len(t, items, 2)
		require.Contains(t, items[0].Msg, "local_datetime_after")
		require.Contains(t, items[1].Msg, "person_ids")
	})
	t.Run("an album of another library is not found", func(t *testing.T) {
		_, other := s.Session()
		album := newAlbum(t, s, other, "Theirs")
		requireDetail(t, s.Do("GET", "/api/search?album_id="+album.ID, session, nil), http.StatusNotFound)
	})
}

func TestSearchAccess(t *testing.T) {
	s := servertest.Start(t)
	_, owner := s.Session()
	lib := s.Libraries(owner)[0]
	st := searchStore(t, s)
	id := place(t, s, owner, 1, "2024-01-01T10:00:00")
	editAsset(t, st, id, func(a *catalog.Asset) { a.Description = ptr("a lighthouse") })
	_, viewer := s.AddMember(owner, lib.ID, "viewer")
	_, stranger := s.Session()
	searchKey := s.CreateKey(owner, []string{"search"}, nil)
	scopedKey := s.CreateKey(owner, []string{"search"}, []string{lib.ID})
	readKey := s.CreateKey(owner, []string{"asset.read"}, nil)
	q := "/api/search?query=lighthouse&library_id=" + lib.ID

	for name, token := range map[string]string{"owner": owner, "viewer": viewer, "search key": searchKey,
		"key scoped to the library": scopedKey} {
		t.Run(name+" finds it", func(t *testing.T) {
			p := servertest.Expect[api.Page[api.SearchHit]](t, s.Do("GET", q, token, nil), http.StatusOK)
			require.Equal(t, []string{id}, hitIDs(p))
		})
	}
	t.Run("a key without the search action gets 403", func(t *testing.T) {
		requireDetail(t, s.Do("GET", q, readKey, nil), http.StatusForbidden)
	})
	t.Run("a key scoped to another library gets 403", func(t *testing.T) {
		second := s.CreateLibrary(owner, "Second")
		key := s.CreateKey(owner, []string{"search"}, []string{second.ID})
		requireDetail(t, s.Do("GET", q, key, nil), http.StatusForbidden)
	})
	t.Run("a non-member gets 404; in their own library, nothing", func(t *testing.T) {
		requireDetail(t, s.Do("GET", q, stranger, nil), http.StatusNotFound)
		require.Empty(t, hitIDs(searchHits(t, s, stranger, text("lighthouse"))))
	})
	t.Run("no credential gets 401", func(t *testing.T) {
		requireDetail(t, s.Do("GET", q, "", nil), http.StatusUnauthorized)
	})
}

func TestSearchResponsesMatchTheDocument(t *testing.T) {
	s := servertest.Start(t)
	v := newValidator(t, servedDocument(t, s))
	_, session := s.Session()
	st := searchStore(t, s)
	id := place(t, s, session, 1, "2024-01-01T10:00:00")
	editAsset(t, st, id, func(a *catalog.Asset) { a.Description = ptr("a lighthouse") })
	var page api.Page[api.SearchHit]
	exchange(t, s, v, "GET", "/api/search?query=lighthouse", session, nil, http.StatusOK).JSON(t, &page)
	require.Len(t, page.Data, 1)
	exchange(t, s, v, "GET", "/api/search?local_datetime_after=2024-01-01T00:00:00", session, nil, http.StatusOK)
	exchange(t, s, v, "GET", "/api/search", session, nil, http.StatusUnprocessableEntity)
	exchange(t, s, v, "GET", "/api/search?query=x&captured_after=2024-01-01T00:00:00Z", session, nil, http.StatusUnprocessableEntity)
}
