package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func clusterCells(t *testing.T, s *servertest.Server, token, query string) []api.GeoCluster {
	t.Helper()
	r := s.Do("GET", "/api/assets/geo-clusters"+query, token, nil)
	out := servertest.Expect[api.GeoClusters](t, r, http.StatusOK)
	require.NotNil(t, out.Data, "data is never null: %s", r.Body)
	return out.Data
}

// cellSummary renders cells as "lon,lat:count:representative" with the
// centroid rounded to 1e-4 degree.
func cellSummary(cells []api.GeoCluster) []string {
	return mapped(cells, func(c api.GeoCluster) string {
		return fmt.Sprintf("%.4f,%.4f:%d:%s", c.Longitude, c.Latitude, c.Count, c.RepresentativeAssetID)
	})
}

// bothClusterPaths gets a query's cells from the maintained grid and from
// the assets (media_type=image, which every test asset is, takes the
// fallback) and requires the same answer.
func bothClusterPaths(t *testing.T, s *servertest.Server, token, query string) []api.GeoCluster {
	t.Helper()
	fast := clusterCells(t, s, token, query)
	require.Equal(t, fast, clusterCells(t, s, token, query+"&media_type=image"), "the two paths disagree on %q", query)
	return fast
}

func TestGeoClustersGroupAssetsIntoCells(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	const when = "2024-01-01T12:00:00Z"
	paris1 := place(t, s, session, 1, when, 2.34, 48.84)
	paris2 := place(t, s, session, 2, when, 2.36, 48.86)
	london := place(t, s, session, 3, when, -0.12, 51.5)
	place(t, s, session, 4, when)
	fiji := place(t, s, session, 5, when, 178.4, -18.1)
	samoa := place(t, s, session, 6, when, -171.8, -13.8)

	t.Run("one item per non-empty cell, south to north, west to east", func(t *testing.T) {
		require.Equal(t, []string{
			"-171.8000,-13.8000:1:" + samoa,
			"178.4000,-18.1000:1:" + fiji,
			"2.3500,48.8500:2:" + paris2, // the representative is the latest upload
			"-0.1200,51.5000:1:" + london,
		}, cellSummary(bothClusterPaths(t, s, session, "?bbox=-180,-90,180,90&cell_size=10")))
	})
	t.Run("the full-world box covers exactly the assets with coordinates", func(t *testing.T) {
		for _, size := range []string{"0.01", "0.05", "0.1", "0.5", "1", "2", "7", "45", "180"} {
			var total int64
			for _, c := range bothClusterPaths(t, s, session, "?bbox=-180,-90,180,90&cell_size="+size) {
				total += c.Count
			}
			require.EqualValues(t, 5, total, "cell_size %s", size)
		}
	})
	t.Run("cells are aligned on -180 and -90", func(t *testing.T) {
		cells := bothClusterPaths(t, s, session, "?bbox=2,48,3,49&cell_size=0.01")
		require.Equal(t, []string{"2.3400,48.8400:1:" + paris1, "2.3600,48.8600:1:" + paris2}, cellSummary(cells))
		require.Len(t, bothClusterPaths(t, s, session, "?bbox=2.3,48,2.4,49&cell_size=0.1"), 1)
		require.Len(t, bothClusterPaths(t, s, session, "?bbox=2.3,48,2.4,49&cell_size=0.015"), 2,
			"a size no level divides takes the fallback")
	})
	t.Run("a viewport crossing the antimeridian is one band", func(t *testing.T) {
		require.Equal(t, []string{"178.4000,-18.1000:1:" + fiji, "-171.8000,-13.8000:1:" + samoa},
			cellSummary(bothClusterPaths(t, s, session, "?bbox=170,-30,-170,0&cell_size=1")))
		require.Equal(t, []string{"178.4000,-18.1000:1:" + fiji, "-171.8000,-13.8000:1:" + samoa},
			cellSummary(bothClusterPaths(t, s, session, "?bbox=170,-30,-170,0&cell_size=20")),
			"in one row, the band runs east from its west edge")
		// 30° cells from the grid line at 150: [150, 180) and [180, 210) = [-180, -150).
		require.Len(t, bothClusterPaths(t, s, session, "?bbox=170,-30,-170,0&cell_size=30"), 2)
		// 7° cells from 170 (a multiple of 7 east of -180): [177, 184) holds both sides.
		e := place(t, s, session, 7, when, 179.9, -1)
		w := place(t, s, session, 8, when, -179.9, -1)
		cells := bothClusterPaths(t, s, session, "?bbox=170,-30,-170,0&cell_size=7")
		var joint *api.GeoCluster
		for i := range cells {
			if cells[i].Count == 2 {
				joint = &cells[i]
			}
		}
		require.NotNil(t, joint, "%v", cellSummary(cells))
		require.InDelta(t, 180, math.Abs(joint.Longitude), 1e-6, "the centroid of 179.9 and -179.9 is on the antimeridian")
		require.Contains(t, []string{e, w}, joint.RepresentativeAssetID)
	})
}

func TestGeoClustersFilters(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	a := place(t, s, session, 1, "2024-05-01T10:00:00+02:00", 2.35, 48.85)
	b := place(t, s, session, 2, "2023-05-01T10:00:00", 2.36, 48.86)
	c := place(t, s, session, 3, "2024-07-01T10:00:00", 2.37, 48.87)
	require.Equal(t, http.StatusOK, s.Do("PATCH", "/api/assets/"+b, session, map[string]any{"rating": 5}).Status)
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{c}}).Status)

	reps := func(query string) string {
		cells := clusterCells(t, s, session, "?bbox=-180,-90,180,90&cell_size=1"+query)
		require.LessOrEqual(t, len(cells), 1)
		if len(cells) == 0 {
			return "none"
		}
		return fmt.Sprintf("%d:%s", cells[0].Count, cells[0].RepresentativeAssetID)
	}
	require.Equal(t, "2:"+b, reps(""))
	require.Equal(t, "1:"+c, reps("&state=trashed"))
	require.Equal(t, "3:"+c, reps("&state=all"))
	require.Equal(t, "none", reps("&media_type=video"))
	require.Equal(t, "1:"+b, reps("&min_rating=4"))
	require.Equal(t, "1:"+a, reps("&local_datetime_after=2024-01-01&local_datetime_before=2025-01-01"))
	require.Equal(t, "1:"+a, reps("&local_datetime_after=2024-05-01T08:00:00Z&local_datetime_before=2024-05-01T08:00:01Z"))
	require.Equal(t, "2:"+c, reps("&state=all&media_type=image&local_datetime_after=2024-01-01T00:00:00"))

	lib := s.CreateLibrary(session, "Elsewhere")
	validationItems(t, s.Do("GET", "/api/assets/geo-clusters?bbox=-180,-90,180,90&cell_size=1", session, nil))
	require.Empty(t, clusterCells(t, s, session, "?bbox=-180,-90,180,90&cell_size=1&library_id="+lib.ID))
}

func TestGeoClustersFollowEdits(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	const when = "2024-01-01T12:00:00Z"
	a := place(t, s, session, 1, when, 2.35, 48.85)
	b := place(t, s, session, 2, when, 2.36, 48.86)
	c := place(t, s, session, 3, when, 2.37, 48.87)
	world := func(query string) []string {
		t.Helper()
		return cellSummary(bothClusterPaths(t, s, session, "?bbox=-180,-90,180,90&cell_size=1"+query))
	}
	require.Equal(t, []string{"2.3600,48.8600:3:" + c}, world(""))

	r := s.Do("POST", "/api/assets/bulk-update", session, map[string]any{"updates": []map[string]any{
		{"id": c, "change": map[string]any{"latitude": 51.5, "longitude": -0.12}}}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, []string{"2.3550,48.8550:2:" + b, "-0.1200,51.5000:1:" + c}, world(""),
		"the representative that moved away is replaced")

	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/trash", session, api.AssetIDs{IDs: []string{b}}).Status)
	require.Equal(t, []string{"2.3500,48.8500:1:" + a, "-0.1200,51.5000:1:" + c}, world(""))
	require.Equal(t, []string{"2.3600,48.8600:1:" + b}, world("&state=trashed"))
	require.Equal(t, http.StatusOK, s.Do("POST", "/api/assets/restore", session, api.AssetIDs{IDs: []string{b}}).Status)
	require.Empty(t, world("&state=trashed"))

	r = s.Do("PATCH", "/api/assets/"+a, session, map[string]any{"latitude": nil, "longitude": nil})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, []string{"2.3600,48.8600:1:" + b, "-0.1200,51.5000:1:" + c}, world(""), "an asset without coordinates leaves")

	require.Equal(t, http.StatusOK, s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{b, c}}).Status)
	require.Empty(t, world("&state=all"))
}

func TestGeoClustersRefusals(t *testing.T) {
	s := servertest.Start(t)
	_, session := s.Session()
	items := validationItems(t, s.Do("GET", "/api/assets/geo-clusters", session, nil))
	require.Len(t, items, 2)
	for i, name := range []string{"bbox", "cell_size"} {
		require.Equal(t, []any{"query", name}, items[i].Loc)
		require.Equal(t, "missing", items[i].Type)
	}
	tests := []struct{ query, loc, typ string }{
		{"cell_size=0", "cell_size", "greater_than"},
		{"cell_size=-1", "cell_size", "greater_than"},
		{"cell_size=180.5", "cell_size", "less_than_equal"},
		{"cell_size=abc", "cell_size", "float_parsing"},
		{"cell_size=NaN", "cell_size", "float_parsing"},
		{"cell_size=0x1p-2", "cell_size", "float_parsing"},
		{"cell_size=1e999", "cell_size", "finite_number"},
		{"cell_size=1&center=0,0&radius=5", "center", "extra_forbidden"},
		{"cell_size=1&order=asc", "order", "extra_forbidden"},
		{"cell_size=1&limit=5", "limit", "extra_forbidden"},
		{"cell_size=1&state=gone", "state", "enum"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			items := validationItems(t, s.Do("GET", "/api/assets/geo-clusters?bbox=-10,-10,10,10&"+tt.query, session, nil))
			require.Equal(t, []any{"query", tt.loc}, items[0].Loc)
			require.Equal(t, tt.typ, items[0].Type)
		})
	}
	items = validationItems(t, s.Do("GET", "/api/assets/geo-clusters?bbox=-10,-100,10,10&cell_size=1", session, nil))
	require.Equal(t, []any{"query", "bbox"}, items[0].Loc)
	require.Len(t, clusterCells(t, s, session, "?bbox=-180,-90,180,90&cell_size=180"), 0, "180 is allowed")
}

// TestGeoClustersRefuseMoreThan1000Cells spreads 1001 assets over both
// sides of the antimeridian, each in its own 0.01° cell: each side alone
// fits in one answer, the band does not.
func TestGeoClustersRefuseMoreThan1000Cells(t *testing.T) {
	t.Parallel()
	s := servertest.Start(t)
	_, session := s.Session()
	const n = 1001
	assetIDs := make([]string, n)
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 4 {
				r := s.Upload(session, "p.jpg", servertest.JPEG(t, 8+i/256, 8, i%256), nil)
				var a api.Asset
				if r.Status != http.StatusCreated || json.Unmarshal(r.Body, &a) != nil {
					errs <- fmt.Sprintf("upload %d: %d %s", i, r.Status, r.Body)
					continue
				}
				assetIDs[i] = a.ID
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	for start := 0; start < n; start += 200 {
		var updates []map[string]any
		for i := start; i < min(n, start+200); i++ {
			// Even ones east of 170, odd ones east of -180; 0.0199° apart.
			lon := 170.005 + float64(i/2)*0.0199
			if i%2 == 1 {
				lon = -179.995 + float64(i/2)*0.0199
			}
			updates = append(updates, map[string]any{"id": assetIDs[i], "change": map[string]any{"longitude": lon, "latitude": -15.005}})
		}
		r := s.Do("POST", "/api/assets/bulk-update", session, map[string]any{"updates": updates})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	}
	require.Len(t, bothClusterPaths(t, s, session, "?bbox=170,-20,180,-10&cell_size=0.01"), 501)
	require.Len(t, bothClusterPaths(t, s, session, "?bbox=-180,-20,-170,-10&cell_size=0.01"), 500)
	for _, q := range []string{"?bbox=170,-20,-170,-10&cell_size=0.01", "?bbox=170,-20,-170,-10&cell_size=0.01&media_type=image",
		"?bbox=-180,-90,180,90&cell_size=0.01"} {
		items := validationItems(t, s.Do("GET", "/api/assets/geo-clusters"+q, session, nil))
		require.Equal(t, []any{"query", "cell_size"}, items[0].Loc, q)
		require.Contains(t, items[0].Msg, "1000")
	}
	require.Len(t, bothClusterPaths(t, s, session, "?bbox=170,-20,-170,-10&cell_size=1"), 20)
}
