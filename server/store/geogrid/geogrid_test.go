package geogrid

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// A viewport across the antimeridian is one band: its grid starts west of
// it, and a position east of 180° continues the columns of the west side.
func TestAGridAcrossTheAntimeridianIsOneBand(t *testing.T) {
	box := catalog.BBox{MinLon: 170, MinLat: -20, MaxLon: -170, MaxLat: -10}
	g := New(box, 2)
	require.Equal(t, int64(2*UnitsPerDegree), g.Cell)
	require.Equal(t, XUnits(170), g.Origin)
	west, east := g.East(XUnits(179)), g.East(XUnits(-179))
	require.Equal(t, int64(9*UnitsPerDegree), west)
	require.Equal(t, int64(11*UnitsPerDegree), east, "-179° is 2° east of 179°")
	require.Zero(t, New(catalog.BBox{MinLon: -10, MinLat: 0, MaxLon: 10, MaxLat: 5}, 2).Origin)
}

// The mean position of a cell comes back in degrees, over the antimeridian
// too; cells come south to north, west to east; a cell past the maximum
// is refused.
func TestSumsGiveTheMeanPositionAndStopAtTheMaximum(t *testing.T) {
	g := New(catalog.BBox{MinLon: 170, MinLat: -20, MaxLon: -170, MaxLat: -10}, 2)
	s := NewSums(2)
	for _, p := range []struct {
		lon, lat float64
		id       string
	}{{179.5, -15, "a"}, {178.5, -15, "b"}, {-179.5, -19, "c"}} {
		e, y := g.East(XUnits(p.lon)), YUnits(p.lat)
		require.NoError(t, s.Add(Key{e / g.Cell, y / g.Cell}, Sum{Count: 1, SumEast: e, SumY: y, Rep: p.id}))
	}
	got := s.Clusters(g)
	require.Len(t, got, 2)
	require.Equal(t, int64(1), got[0].Count, "south first")
	require.InDelta(t, -19, got[0].Latitude, 1e-6)
	require.InDelta(t, -179.5, got[0].Longitude, 1e-6, "east of the antimeridian, back in -180..180")
	require.Equal(t, int64(2), got[1].Count)
	require.InDelta(t, 179, got[1].Longitude, 1e-6, "the mean of 179.5 and 178.5")
	require.Equal(t, "b", got[1].RepresentativeID, "the greatest id")
	var tooMany *query.TooManyCellsError
	require.ErrorAs(t, s.Add(Key{0, 0}, Sum{Count: 1}), &tooMany)
	require.Equal(t, 2, tooMany.Max)
}

// A geo_cells row west of the grid's origin wraps like its assets.
func TestLevelCellsWrapLikeTheirAssets(t *testing.T) {
	g := New(catalog.BBox{MinLon: 170, MinLat: -20, MaxLon: -170, MaxLat: -10}, 10)
	units := int64(UnitsPerDegree)
	cx := XUnits(-175) / units // the 1° cell at -175°, west of the origin in x
	k, v := g.LevelCell(units, cx, YUnits(-15)/units, 3*XUnits(-174.5), Sum{Count: 3, SumY: 3 * YUnits(-15)})
	require.Equal(t, Key{g.East(XUnits(-174.5)) / g.Cell, YUnits(-15) / g.Cell}, k)
	require.Equal(t, 3*g.East(XUnits(-174.5)), v.SumEast)
}

// Only library, state and viewport let geo_cells answer, at a level that
// tiles the cell.
func TestLevelNeedsAPlainFilterAndATilingCell(t *testing.T) {
	box := catalog.BBox{MinLon: -10, MinLat: 0, MaxLon: 10, MaxLat: 5}
	plain := query.AssetFilter{LibraryID: "lib", Location: &catalog.Location{Box: &box}}
	require.Equal(t, int64(10_000_000), Level(plain, New(box, 2)))
	require.Equal(t, int64(100_000), Level(plain, New(box, 0.03)))
	require.Zero(t, Level(plain, New(box, 0.015)), "no level tiles 0.015°")
	rated := plain
	rated.MinRating = new(int)
	require.Zero(t, Level(rated, New(box, 2)))
	require.False(t, InteriorOf(box, box.LonRanges()[0], 10_000_000).Empty())
	require.True(t, InteriorOf(catalog.BBox{MinLon: 0.1, MinLat: 0.1, MaxLon: 0.9, MaxLat: 0.9}, [2]float64{0.1, 0.9}, 10_000_000).Empty())
}
