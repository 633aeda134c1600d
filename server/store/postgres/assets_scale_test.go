package postgres

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// TestAssetListScale times the asset list's paths, first page and the page
// after it, on a library of PHOTOCTL_ASSET_SCALE assets (skipped without
// it; e.g. 200000): a check by hand that each stays a page's work.
func TestAssetListScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PHOTOCTL_ASSET_SCALE"))
	if n == 0 {
		t.Skip("set PHOTOCTL_ASSET_SCALE to a number of assets")
	}
	start := time.Now()
	db := assetPlanDB(t, n)
	t.Logf("seeded %d assets in %v", n, time.Since(start))
	r := assets{conn{db.pool}}
	month := catalog.CaptureRange{After: &catalog.TimeBound{Time: time.Date(2020, 2, 1, 0, 0, 0, 0, time.UTC)},
		Before: &catalog.TimeBound{Time: time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)}}
	for _, c := range []struct {
		name string
		f    query.AssetFilter
	}{
		{"timeline", query.AssetFilter{LibraryID: "lib_a"}},
		{"live and trashed", query.AssetFilter{LibraryID: "lib_a", State: query.StateAll}},
		{"month", query.AssetFilter{LibraryID: "lib_a", Capture: month}},
		{"world", query.AssetFilter{LibraryID: "lib_a", Location: &catalog.Location{Box: &catalog.World}}},
		{"spot", query.AssetFilter{LibraryID: "lib_a",
			Location: &catalog.Location{Box: &catalog.BBox{MinLon: 2.3, MinLat: 48.8, MaxLon: 2.4, MaxLat: 48.9}}}},
		{"empty sea", query.AssetFilter{LibraryID: "lib_a",
			Location: &catalog.Location{Box: &catalog.BBox{MinLon: -30.5, MinLat: 10.1, MaxLon: -30.1, MaxLat: 10.9}}}},
		{"continent", query.AssetFilter{LibraryID: "lib_a",
			Location: &catalog.Location{Box: &catalog.BBox{MinLon: -10, MinLat: 35, MaxLon: 30, MaxLat: 60}}}},
		{"circle", query.AssetFilter{LibraryID: "lib_a",
			Location: &catalog.Location{Circle: &catalog.Circle{Lon: 2.35, Lat: 48.85, RadiusM: 5000}}}},
	} {
		start := time.Now()
		items, _, err := r.List(t.Context(), c.f, query.Page{Limit: 100})
		require.NoError(t, err)
		first := time.Since(start)
		var next time.Duration
		if len(items) > 0 {
			start = time.Now()
			_, _, err = r.List(t.Context(), c.f, query.Page{Limit: 100, AfterID: items[len(items)-1].ID})
			require.NoError(t, err)
			next = time.Since(start)
		}
		t.Logf("%-18s %4d items, first page %v, next %v", c.name, len(items), first, next)
	}
}
