package httpapi_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// countsPage gets one page of counts and returns it as "bucket:count"
// items with has_more.
func countsPage(t *testing.T, s *servertest.Server, token, query string) ([]string, bool) {
	t.Helper()
	r := s.Do("GET", "/api/assets/counts"+query, token, nil)
	p := servertest.Expect[api.Page[api.AssetCount]](t, r, http.StatusOK)
	require.NotNil(t, p.Data, "data is never null: %s", r.Body)
	out := make([]string, len(p.Data))
	for i, c := range p.Data {
		out[i] = fmt.Sprintf("%s:%d", c.Bucket, c.Count)
	}
	return out, p.HasMore
}

func countBuckets(t *testing.T, s *servertest.Server, token, query string) []string {
	t.Helper()
	out, more := countsPage(t, s, token, query)
	require.False(t, more)
	return out
}

// requireCountsMatchList checks that the day counts for filters equal the
// list, with the same filters, grouped by the date of local_datetime (the
// wall-clock date).
func requireCountsMatchList(t *testing.T, s *servertest.Server, token, filters string) {
	t.Helper()
	want := map[string]int{}
	for _, a := range listAssets(t, s, token, "?limit=200&"+filters) {
		want[a.LocalDatetime[:len("2006-01-02")]]++
	}
	got := map[string]int{}
	for _, item := range countBuckets(t, s, token, "?bucket=day&limit=200&"+filters) {
		day, n, _ := strings.Cut(item, ":")
		got[day], _ = strconv.Atoi(n)
	}
	require.Equal(t, want, got, "filters %q", filters)
}

func TestCountsBucketByWallClockDate(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	place(t, s, session, 1, "2024-05-31T23:30:00-02:00") // instant 1 June 01:30Z: counts on 31 May
	place(t, s, session, 2, "2024-05-01T00:00:00")
	place(t, s, session, 3, "2024-06-15T12:00:00+09:00")
	place(t, s, session, 4, "2023-12-31T23:59:59")
	place(t, s, session, 5, "2024-05-31T08:00:00Z")

	tests := []struct {
		name, query string
		want        []string
	}{
		{"months by default, newest first", "", []string{"2024-06:1", "2024-05:3", "2023-12:1"}},
		{"days", "?bucket=day", []string{"2024-06-15:1", "2024-05-31:2", "2024-05-01:1", "2023-12-31:1"}},
		{"years", "?bucket=year", []string{"2024:4", "2023:1"}},
		{"oldest first", "?bucket=month&order=asc", []string{"2023-12:1", "2024-05:3", "2024-06:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, countBuckets(t, s, session, tt.query))
		})
	}
	t.Run("pages follow starting_after_bucket", func(t *testing.T) {
		for _, order := range []string{"desc", "asc"} {
			for _, bucket := range []string{"day", "month", "year"} {
				all := countBuckets(t, s, session, "?bucket="+bucket+"&order="+order)
				var paged []string
				after := ""
				for {
					page, more := countsPage(t, s, session, "?limit=1&bucket="+bucket+"&order="+order+after)
					paged = append(paged, page...)
					if !more {
						break
					}
					require.Len(t, page, 1)
					label, _, _ := strings.Cut(page[0], ":")
					after = "&starting_after_bucket=" + label
				}
				require.Equal(t, all, paged, "%s %s", bucket, order)
			}
		}
		page, more := countsPage(t, s, session, "?limit=2")
		require.Equal(t, []string{"2024-06:1", "2024-05:3"}, page)
		require.True(t, more)
		require.Equal(t, []string{"2023-12:1"}, countBuckets(t, s, session, "?starting_after_bucket=2024-03"),
			"a cursor between buckets continues after it")
		require.Empty(t, countBuckets(t, s, session, "?starting_after_bucket=2023-12"))
	})
}

func TestCountsFilters(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	paris := place(t, s, session, 1, "2024-05-31T23:30:00-02:00", 2.35, 48.85)
	place(t, s, session, 2, "2024-05-31T08:00:00Z", 2.30, 48.87)
	london := place(t, s, session, 3, "2024-05-01T00:00:00", -0.12, 51.5)
	place(t, s, session, 4, "2024-06-15T12:00:00+09:00", 178.4, -18.1)
	place(t, s, session, 5, "2023-12-31T23:59:59")
	require.Equal(t, http.StatusOK, s.Do("PATCH", "/api/assets/"+paris, session, map[string]any{"rating": 4}).Status)
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{london}}).Status)

	tests := []struct {
		name, filters string
		want          []string // day buckets
	}{
		{"trashed assets are left out by default", "", []string{"2024-06-15:1", "2024-05-31:2", "2023-12-31:1"}},
		{"state=trashed", "state=trashed", []string{"2024-05-01:1"}},
		{"state=all", "state=all", []string{"2024-06-15:1", "2024-05-31:2", "2024-05-01:1", "2023-12-31:1"}},
		{"media_type", "media_type=image", []string{"2024-06-15:1", "2024-05-31:2", "2023-12-31:1"}},
		{"media_type without matches", "media_type=video", []string{}},
		{"min_rating", "min_rating=3", []string{"2024-05-31:1"}},
		{"midnight wall-clock bounds", "local_datetime_after=2024-05-01&local_datetime_before=2024-06-01&state=all",
			[]string{"2024-05-31:2", "2024-05-01:1"}},
		{"wall-clock bounds within a day", "local_datetime_after=2024-05-31T12:00:00",
			[]string{"2024-06-15:1", "2024-05-31:1"}},
		{"offset-aware bounds compare instants", "local_datetime_after=2024-06-01T00:00:00Z",
			[]string{"2024-06-15:1", "2024-05-31:1"}},
		{"bbox", "bbox=2,48,3,49", []string{"2024-05-31:2"}},
		{"full-world bbox counts every asset with coordinates", "bbox=-180,-90,180,90&state=all",
			[]string{"2024-06-15:1", "2024-05-31:2", "2024-05-01:1"}},
		{"bbox crossing the antimeridian", "bbox=170,-30,-170,0", []string{"2024-06-15:1"}},
		{"center and radius", "center=2.29,48.86&radius=10000", []string{"2024-05-31:2"}},
		{"every filter at once", "state=all&media_type=image&min_rating=0&bbox=-1,48,3,52&" +
			"local_datetime_after=2024-05-01&local_datetime_before=2024-06-01", []string{"2024-05-31:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := "?bucket=day"
			if tt.filters != "" {
				q += "&" + tt.filters
			}
			require.Equal(t, tt.want, countBuckets(t, s, session, q))
			requireCountsMatchList(t, s, session, tt.filters)
		})
	}

	t.Run("library_id selects one of several libraries", func(t *testing.T) {
		lib := s.CreateLibrary(session, "Holidays")
		validationItems(t, s.Do("GET", "/api/assets/counts", session, nil))
		a := s.UploadAsset(session, "h.jpg", servertest.JPEG(t, 8, 8, 9), map[string]string{"library_id": lib.ID})
		require.Equal(t, http.StatusOK, s.Do("PATCH", "/api/assets/"+a.ID, session,
			map[string]any{"original_datetime": "2020-02-02T10:00:00"}).Status)
		require.Equal(t, []string{"2020:1"}, countBuckets(t, s, session, "?bucket=year&library_id="+lib.ID))
		requireDetail(t, s.Do("GET", "/api/assets/counts?library_id=lib_01hzzzzzzzzzzzzzzzzzzzzzzz", session, nil),
			http.StatusNotFound)
	})
}

func TestCountsRefusals(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	tests := []struct{ query, loc string }{
		{"?ids=asset_x", "ids"},
		{"?stack_id=stack_x", "stack_id"},
		{"?starting_after_id=x", "starting_after_id"},
		{"?include=variants", "include"},
		{"?cell_size=1", "cell_size"},
		{"?bucket=week", "bucket"},
		{"?limit=0", "limit"},
		{"?limit=201", "limit"},
		{"?order=up", "order"},
		{"?state=gone", "state"},
		{"?bbox=1,2,3", "bbox"},
		{"?center=1,2", "radius"},
		{"?starting_after_bucket=2024-05&bucket=year", "starting_after_bucket"},
		{"?starting_after_bucket=2024&bucket=month", "starting_after_bucket"},
		{"?starting_after_bucket=2024-5", "starting_after_bucket"},
		{"?starting_after_bucket=2024-05-01", "starting_after_bucket"},
		{"?starting_after_bucket=2024-02-30&bucket=day", "starting_after_bucket"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			items := validationItems(t, s.Do("GET", "/api/assets/counts"+tt.query, session, nil))
			require.Equal(t, []any{"query", tt.loc}, items[0].Loc)
		})
	}
	t.Run("a key without asset.read gets 403", func(t *testing.T) {
		key := s.CreateKey(session, []string{"album.read"}, nil)
		requireDetail(t, s.Do("GET", "/api/assets/counts", key, nil), http.StatusForbidden)
	})
}

func TestCountsFollowEdits(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	a := place(t, s, session, 1, "2024-05-10T10:00:00", 2.35, 48.85)
	b := place(t, s, session, 2, "2024-05-11T10:00:00", 2.35, 48.85)
	// Each query twice: from the maintained counts, and from the assets
	// (a wall-clock bound inside a day takes the fallback).
	both := func(query string) []string {
		t.Helper()
		fast := countBuckets(t, s, session, "?bucket=month&"+query)
		slow := countBuckets(t, s, session, "?bucket=month&local_datetime_after=1900-01-01T00:00:01&"+query)
		require.Equal(t, fast, slow, "the two paths disagree on %q", query)
		return fast
	}
	require.Equal(t, []string{"2024-05:2"}, both(""))

	r := s.Do("POST", "/api/assets/bulk-update", session, map[string]any{"updates": []map[string]any{
		{"id": a, "change": map[string]any{"original_datetime": "2023-01-05T10:00:00+01:00"}},
		{"id": b, "change": map[string]any{"latitude": 51.5, "longitude": -0.12}}}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, []string{"2024-05:1", "2023-01:1"}, both(""))

	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{a}}).Status)
	require.Equal(t, []string{"2024-05:1"}, both(""))
	require.Equal(t, []string{"2023-01:1"}, both("state=trashed"))
	require.Equal(t, []string{"2024-05:1", "2023-01:1"}, both("state=all"))

	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/restore", session, api.AssetIDs{IDs: []string{a}}).Status)
	require.Equal(t, []string{"2024-05:1", "2023-01:1"}, both(""))
	require.Empty(t, both("state=trashed"))

	require.Equal(t, http.StatusOK, s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{b}}).Status)
	require.Equal(t, []string{"2023-01:1"}, both("state=all"))
}

// TestAggregatesAnswerAsDocumented checks counts and geo-clusters answers
// against the OpenAPI document.
func TestAggregatesAnswerAsDocumented(t *testing.T) {
	s := servertest.Start(t)
	v := newValidator(t, servedDocument(t, s))
	_, session := s.Session()
	place(t, s, session, 1, "2024-05-10T10:00:00", 2.35, 48.85)
	exchange(t, s, v, "GET", "/api/assets/counts?bucket=day&limit=1", session, nil, http.StatusOK)
	exchange(t, s, v, "GET", "/api/assets/counts?bucket=fortnight", session, nil, http.StatusUnprocessableEntity)
	exchange(t, s, v, "GET", "/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=2", session, nil, http.StatusOK)
	exchange(t, s, v, "GET", "/api/assets/geo-clusters?bbox=-180,-90,180,90", session, nil, http.StatusUnprocessableEntity)
}

// TestCountsAndClustersTakeAlbumAndPeople checks that counts and
// geo-clusters narrow by album_id and person_ids like the list does (these
// filters bypass the aggregate tables and count the rows).
func TestCountsAndClustersTakeAlbumAndPeople(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	in := place(t, s, session, 1, "2024-05-01T10:00:00", 2.35, 48.85)
	both := place(t, s, session, 2, "2024-05-02T10:00:00", 2.36, 48.86)
	place(t, s, session, 3, "2024-05-03T10:00:00", 2.37, 48.87)

	album := servertest.Expect[api.Album](t, s.Do("POST", "/api/albums", session, map[string]any{"name": "Paris"}), http.StatusCreated)
	r := s.Do("POST", "/api/albums/"+album.ID+"/assets", session, map[string]any{"asset_ids": []string{in, both}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	person := servertest.Expect[api.Person](t, s.Do("POST", "/api/people", session, map[string]any{"name": "Ada"}), http.StatusCreated)
	r = s.Do("POST", "/api/faces", session, map[string]any{"asset_id": both, "person_id": person.ID,
		"bounding_box": map[string]any{"x": 0.1, "y": 0.1, "width": 0.2, "height": 0.2}})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)

	require.Equal(t, []string{"2024-05-02:1", "2024-05-01:1"}, countBuckets(t, s, session, "?bucket=day&album_id="+album.ID))
	require.Equal(t, []string{"2024-05-02:1"}, countBuckets(t, s, session, "?bucket=day&person_ids="+person.ID))
	requireCountsMatchList(t, s, session, "album_id="+album.ID)
	requireCountsMatchList(t, s, session, "person_ids="+person.ID)

	r = s.Do("GET", "/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=10&album_id="+album.ID, session, nil)
	clusters := servertest.Expect[api.GeoClusters](t, r, http.StatusOK)
	require.Len(t, clusters.Data, 1)
	require.EqualValues(t, 2, clusters.Data[0].Count)
	r = s.Do("GET", "/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=10&person_ids="+person.ID, session, nil)
	clusters = servertest.Expect[api.GeoClusters](t, r, http.StatusOK)
	require.Len(t, clusters.Data, 1)
	require.EqualValues(t, 1, clusters.Data[0].Count)
	require.Equal(t, both, clusters.Data[0].RepresentativeAssetID)

	// An album of another library, or none, is not found, as in the list.
	_, other := s.Session()
	for _, path := range []string{"/api/assets/counts?album_id=" + album.ID,
		"/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=10&album_id=" + album.ID} {
		require.Equal(t, http.StatusNotFound, s.Do("GET", path, other, nil).Status, path)
	}
}
