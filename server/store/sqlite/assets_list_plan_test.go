package sqlite

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// TestLocationPlansAgree pages through random locations with each plan of
// List (spatial index, cell index, timeline with inline coordinate tests)
// and requires the same pages.
func TestLocationPlansAgree(t *testing.T) {
	f := newAggFixture(t)
	rng := rand.New(rand.NewPCG(7, 11))
	seedRandom(t, f, rng, 600)
	t.Cleanup(func() { forceGeoPlan = geoAuto })

	locations := []*catalog.Location{{Box: &catalog.World}}
	for range 40 {
		lon, lat := rng.Float64()*360-180, rng.Float64()*160-80
		w, h := rng.Float64()*90+1, rng.Float64()*40+1
		maxLon := lon + w
		if maxLon > 180 {
			maxLon -= 360 // crosses the antimeridian
		}
		locations = append(locations, &catalog.Location{Box: &catalog.BBox{MinLon: lon, MinLat: lat,
			MaxLon: maxLon, MaxLat: min(lat+h, 90)}})
		locations = append(locations, &catalog.Location{Circle: &catalog.Circle{Lon: lon, Lat: lat,
			RadiusM: rng.Float64() * 3e6}})
	}
	walk := func(l *catalog.Location, expand bool) []string {
		return storetest.ListedAssetIDs(t, f.db.Read().Assets(), query.AssetFilter{LibraryID: f.lib, Location: l,
			State: query.StateAll, WithStacked: expand}, 7)
	}
	for i, l := range locations {
		for _, expand := range []bool{false, true} { // geo_cells counts covers: the expanded view never reads it
			forceGeoPlan = geoRTree
			indexed := walk(l, expand)
			for _, plan := range []geoPlan{geoCells, geoTimeline, geoAuto} {
				forceGeoPlan = plan
				require.Equal(t, indexed, walk(l, expand), "location %d, plan %d, expanded %v", i, plan, expand)
			}
		}
	}
}

// TestLocationPlansUseTheirIndexes explains the queries of each location
// plan, first page and after a cursor: none scans a whole table, and each
// reads the index it is built on.
func TestLocationPlansUseTheirIndexes(t *testing.T) {
	f := newAggFixture(t)
	seedRandom(t, f, rand.New(rand.NewPCG(3, 5)), 200)
	t.Cleanup(func() { forceGeoPlan = geoAuto })
	europe := &catalog.Location{Box: &catalog.BBox{MinLon: -10, MinLat: 35, MaxLon: 30, MaxLat: 60}}
	plans := []struct {
		plan  geoPlan
		index string
	}{
		{geoRTree, "VIRTUAL TABLE"},
		{geoCells, "USING INDEX assets_geo_timeline"},
		{geoTimeline, "INDEX assets_timeline"},
	}
	for _, c := range plans {
		forceGeoPlan = c.plan
		var after string
		for page := range 2 {
			rec := &recorder{querier: f.db.reader}
			rows, more, err := assets{rec}.List(t.Context(), query.AssetFilter{LibraryID: f.lib, Location: europe},
				query.Page{Limit: 3, AfterID: after})
			require.NoError(t, err)
			require.True(t, more, "the fixture has more than a page in the box")
			after = rows[len(rows)-1].ID
			list := rec.queries[len(rec.queries)-1] // the page query; before it the cells and the cursor
			plan := explain(t, f.db.reader, list, rec.args[len(rec.args)-1])
			t.Logf("plan %d, page %d:\n  %s", c.plan, page, strings.Join(plan, "\n  "))
			for _, row := range plan {
				require.False(t, fullScan(row), "full scan: %s", row)
			}
			require.Contains(t, strings.Join(plan, "\n"), c.index)
		}
	}
}
