package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func listAssets(t *testing.T, s *servertest.Server, token, query string) []api.Asset {
	t.Helper()
	return servertest.List[api.Asset](s, token, "/api/assets"+query)
}

func ids(list []api.Asset) []string {
	return mapped(list, func(a api.Asset) string { return a.ID })
}

// place uploads an asset and sets its capture time and, when lat/lon are
// given, its coordinates.
func place(t *testing.T, s *servertest.Server, token string, seed int, when string, lonlat ...float64) string {
	t.Helper()
	a := s.UploadAsset(token, "p.jpg", servertest.JPEG(t, 8, 8, seed), nil)
	change := map[string]any{"original_datetime": when}
	if len(lonlat) == 2 {
		change["longitude"], change["latitude"] = lonlat[0], lonlat[1]
	}
	r := s.Do("PATCH", "/api/assets/"+a.ID, token, change)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	return a.ID
}

func TestCaptureTimeFilters(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	paris := place(t, s, session, 1, "2024-05-01T10:00:00+02:00") // instant 08:00Z
	tokyo := place(t, s, session, 2, "2024-05-01T10:00:00+09:00") // instant 01:00Z
	wallOnly := place(t, s, session, 3, "2024-05-01T09:00:00")    // no offset: 09:00 as UTC
	later := place(t, s, session, 4, "2024-05-02T00:00:00+02:00")

	q := func(after, before string) []string {
		v := url.Values{}
		if after != "" {
			v.Set("local_datetime_after", after)
		}
		if before != "" {
			v.Set("local_datetime_before", before)
		}
		return ids(listAssets(t, s, session, "?order=asc&"+v.Encode()))
	}
	t.Run("offsetless bounds compare the wall clock", func(t *testing.T) {
		require.ElementsMatch(t, []string{paris, tokyo}, q("2024-05-01T10:00:00", "2024-05-01T10:00:01"))
		require.ElementsMatch(t, []string{wallOnly}, q("2024-05-01T09:00:00", "2024-05-01T10:00:00"))
	})
	t.Run("offset-aware bounds compare instants; unknown offsets read as UTC", func(t *testing.T) {
		require.ElementsMatch(t, []string{paris}, q("2024-05-01T08:00:00Z", "2024-05-01T08:00:01Z"))
		require.ElementsMatch(t, []string{tokyo}, q("2024-05-01T01:00:00Z", "2024-05-01T02:00:00Z"))
		require.ElementsMatch(t, []string{wallOnly, paris}, q("2024-05-01T08:00:00Z", "2024-05-01T09:30:00Z"))
		require.ElementsMatch(t, []string{later}, q("2024-05-01T22:00:00Z", ""))
	})
	t.Run("after is inclusive and before exclusive", func(t *testing.T) {
		require.ElementsMatch(t, []string{paris}, q("2024-05-01T10:00:00+02:00", "2024-05-01T10:00:01+02:00"))
		require.Empty(t, q("2024-05-01T09:00:00+02:00", "2024-05-01T10:00:00+02:00"))
	})
	t.Run("mixing offsetless and offset-aware bounds is 422", func(t *testing.T) {
		r := s.Do("GET", "/api/assets?local_datetime_after=2024-05-01T00:00:00&local_datetime_before=2024-05-02T00:00:00Z", session, nil)
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)
	})
	t.Run("default order is newest first", func(t *testing.T) {
		require.Equal(t, []string{later, tokyo, paris, wallOnly}, ids(listAssets(t, s, session, "")), "equal wall times tie-break by id")
	})
}

func TestLocationFilters(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	const when = "2024-01-01T12:00:00Z"
	fiji := place(t, s, session, 1, when, 178.4, -18.1)
	samoa := place(t, s, session, 2, when, -171.8, -13.8)
	paris := place(t, s, session, 3, when, 2.35, 48.85)
	nowhere := place(t, s, session, 4, when)
	_ = nowhere

	get := func(query string) []string { return ids(listAssets(t, s, session, query)) }
	t.Run("a west-greater-than-east box crosses the antimeridian", func(t *testing.T) {
		require.ElementsMatch(t, []string{fiji, samoa}, get("?bbox=170,-30,-160,0"))
	})
	t.Run("the full-world box selects exactly the assets with coordinates", func(t *testing.T) {
		require.ElementsMatch(t, []string{fiji, samoa, paris}, get("?bbox=-180,-90,180,90"))
	})
	t.Run("center and radius use great-circle distance", func(t *testing.T) {
		require.ElementsMatch(t, []string{paris}, get("?center=2.29,48.86&radius=10000"))
		require.Empty(t, get("?center=2.29,48.86&radius=1000"))
		require.ElementsMatch(t, []string{fiji}, get("?center=179.9,-18&radius=200000"))
	})
	for _, bad := range []string{"?bbox=1,2,3", "?center=2,48", "?radius=100", "?bbox=-10,-10,10,10&center=0,0&radius=5",
		"?bbox=-10,-100,10,10", "?center=200,0&radius=5", "?bbox=180,-10,-180,10"} {
		t.Run("422 for "+bad, func(t *testing.T) {
			require.Equal(t, http.StatusUnprocessableEntity, s.Do("GET", "/api/assets"+bad, session, nil).Status)
		})
	}
}

func TestListFiltersAndParameters(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	a := place(t, s, session, 1, "2024-01-01T00:00:00Z")
	b := place(t, s, session, 2, "2024-01-02T00:00:00Z")
	require.Equal(t, http.StatusOK, s.Do("PATCH", "/api/assets/"+a, session, map[string]any{"rating": 4}).Status)

	require.Equal(t, []string{a}, ids(listAssets(t, s, session, "?min_rating=3")))
	require.ElementsMatch(t, []string{a, b}, ids(listAssets(t, s, session, "?ids="+a+"&ids="+b)))
	require.ElementsMatch(t, []string{a, b}, ids(listAssets(t, s, session, "?ids="+a+","+b)))
	require.Equal(t, []string{a}, ids(listAssets(t, s, session, "?ids="+a)))
	require.ElementsMatch(t, []string{a, b}, ids(listAssets(t, s, session, "?media_type=image")))
	require.Empty(t, listAssets(t, s, session, "?media_type=video"))

	only := listAssets(t, s, session, "?include=variants&variants=thumbnail&ids="+a)[0]
	require.NotNil(t, only.AssetURLs.Thumbnail)
	require.Nil(t, only.AssetURLs.Preview)

	page1 := listAssets(t, s, session, "?limit=1")
	require.Equal(t, []string{b}, ids(page1))
	require.Equal(t, []string{a}, ids(listAssets(t, s, session, "?limit=1&starting_after_id="+b)))

	for _, bad := range []string{"?colour=red", "?state=gone", "?order=sideways", "?min_rating=6", "?media_type=audio",
		"?captured_after=2024-01-01T00:00:00Z", "?variants=thumbnail", "?include=faces"} {
		require.Equal(t, http.StatusUnprocessableEntity, s.Do("GET", "/api/assets"+bad, session, nil).Status, bad)
	}
}
