package sqlite

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// TestExpandedViewUsesTheTimeline explains the queries of the expanded
// view (stacks=expand: WithStacked): list pages, first and after a cursor,
// walk the timeline index in page order (but for both states at once, as
// in the collapsed view); counts and clusters read the assets (the
// maintained aggregates count stack covers only) through an index of the
// library's rows or the R*Tree. None scans a whole table.
func TestExpandedViewUsesTheTimeline(t *testing.T) {
	f := newAggFixture(t)
	seedRandom(t, f, rand.New(rand.NewPCG(5, 8)), 300)
	paris := catalog.BBox{MinLon: 2.2, MinLat: 48.8, MaxLon: 2.5, MaxLat: 48.9}
	may := catalog.CaptureRange{After: &catalog.TimeBound{Time: time.Date(2019, 5, 1, 0, 0, 0, 0, time.UTC)},
		Before: &catalog.TimeBound{Time: time.Date(2023, 5, 1, 12, 0, 0, 0, time.UTC)}}
	// bothStates is a known problem of both views: the timeline index leads
	// with the state, so SQLite reads both states' entries through
	// assets_capture_instant and sorts them for every page. The fix would
	// merge a page of each state, as the PostgreSQL store does
	// (listBothStates); until then the test requires the sort.
	const bothStates = "state=all sorts the library's timeline for each page"
	filters := map[string]struct {
		f     query.AssetFilter
		issue string
	}{
		"no filter":            {f: query.AssetFilter{}},
		"newest last":          {f: query.AssetFilter{Asc: true}},
		"media type, rating":   {f: query.AssetFilter{MediaType: catalog.MediaImage, MinRating: new(int)}},
		"capture range":        {f: query.AssetFilter{Capture: may}},
		"trashed":              {f: query.AssetFilter{State: query.StateTrashed}},
		"both states":          {f: query.AssetFilter{State: query.StateAll}, issue: bothStates},
		"both states, ordered": {f: query.AssetFilter{State: query.StateAll, Asc: true}, issue: bothStates},
	}
	// check requires no full scan of any query, and index in the plan of
	// the last one ("" for any).
	check := func(t *testing.T, rec *recorder, index string) {
		t.Helper()
		require.NotEmpty(t, rec.queries)
		for i, q := range rec.queries {
			require.NotContains(t, q, "asset_day_counts", "the day counts hold covers only")
			require.NotContains(t, q, "geo_cells", "the grid cells hold covers only")
			plan := explain(t, f.db.reader, q, rec.args[i])
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				require.False(t, fullScan(row), "full scan: %s", row)
			}
			if i == len(rec.queries)-1 && index != "" {
				require.Contains(t, strings.Join(plan, "\n"), index)
			}
		}
	}
	t.Run("list in a box of a few cells", func(t *testing.T) {
		// geo_cells cannot tell the cells of the members: every cell the box
		// spans is read from assets_geo_timeline.
		filter := query.AssetFilter{LibraryID: f.lib, WithStacked: true,
			Location: &catalog.Location{Box: &catalog.BBox{MinLon: -1, MinLat: 46, MaxLon: 5, MaxLat: 52}}}
		after := ""
		for range 2 {
			rec := &recorder{querier: f.db.reader}
			rows, more, err := assets{rec}.List(t.Context(), filter, query.Page{Limit: 3, AfterID: after})
			require.NoError(t, err)
			require.True(t, more, "the fixture has more than a page in the box")
			after = rows[len(rows)-1].ID
			check(t, rec, "USING INDEX assets_geo_timeline")
		}
	})
	for name, c := range filters {
		filter := c.f
		filter.LibraryID, filter.WithStacked = f.lib, true
		t.Run("list, "+name, func(t *testing.T) {
			after := ""
			for range 2 {
				rec := &recorder{querier: f.db.reader}
				rows, more, err := assets{rec}.List(t.Context(), filter, query.Page{Limit: 3, AfterID: after})
				require.NoError(t, err)
				require.True(t, more, "the fixture has more than a page")
				after = rows[len(rows)-1].ID
				plan := strings.Join(explain(t, f.db.reader, rec.queries[len(rec.queries)-1], rec.args[len(rec.args)-1]), "\n")
				if c.issue != "" {
					require.Contains(t, plan, "USE TEMP B-TREE FOR ORDER BY", "fixed? remove the issue note: %s", c.issue)
					check(t, rec, "")
					continue
				}
				require.NotContains(t, plan, "USE TEMP B-TREE FOR ORDER BY", "the timeline gives the order")
				check(t, rec, "INDEX assets_timeline")
			}
		})
		t.Run("counts, "+name, func(t *testing.T) {
			rec := &recorder{querier: f.db.reader}
			_, _, err := aggregates{rec}.Counts(t.Context(), query.CountsQuery{Filter: filter, Bucket: query.BucketMonth, Limit: 100})
			require.NoError(t, err)
			check(t, rec, "") // every matching row is read: any index of the library's rows serves
		})
		t.Run("clusters, "+name, func(t *testing.T) {
			located := filter
			located.Location = &catalog.Location{Box: &paris}
			rec := &recorder{querier: f.db.reader}
			_, err := aggregates{rec}.GeoClusters(t.Context(), query.ClusterQuery{Filter: located, CellSize: 0.1, MaxCells: 1000})
			require.NoError(t, err)
			check(t, rec, "VIRTUAL TABLE")
		})
	}
}
