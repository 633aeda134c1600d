package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/geocode/internal/polyindex"
)

func pt(lon, lat float64) point { return polyindex.Vertex(lon, lat) }

func TestSimplifyDropsOnlyVerticesOnTheLine(t *testing.T) {
	// A square with extra vertices along its sides and one just off a side.
	r := []point{pt(0, 0), pt(0.5, 0), pt(1, 0), pt(1, 0.25), pt(1, 1), pt(0.5, 1.001), pt(0, 1), pt(0, 0.5), pt(0, 0)}
	shapes := []polyindex.Shape{{Rings: [][]point{r}}}
	require.Equal(t, 5, simplify(shapes, []float64{0}))
	require.Equal(t, []point{pt(0, 0), pt(1, 0), pt(1, 1), pt(0.5, 1.001), pt(0, 1)}, shapes[0].Rings[0])
}

// TestSimplifyKeepsSharedBordersAlike: two regions share a wiggly border,
// which they run in opposite directions from different starts; a country
// follows their outline. Simplified, all three keep the same border
// vertices, so no gap or overlap opens between them.
func TestSimplifyKeepsSharedBordersAlike(t *testing.T) {
	var border []point // from (1, 0) north to (1, 2), wiggling
	for i := 0; i <= 200; i++ {
		y := 2 * float64(i) / 200
		border = append(border, pt(1+0.01*math.Sin(math.Pi*y*6)+0.0008*math.Sin(math.Pi*y*77), y))
	}
	west := append([]point{pt(0, 2), pt(0, 0)}, border...)
	east := []point{pt(2, 2)}
	for i := len(border) - 1; i >= 0; i-- {
		east = append(east, border[i])
	}
	east = append(east, pt(2, 0))
	east = append(east[60:], east[:60]...) // start elsewhere
	country := []point{pt(0, 0), pt(1, 0), pt(2, 0), pt(2, 2), pt(1, 2), pt(0, 2)}
	shapes := []polyindex.Shape{{Rings: [][]point{west}}, {Rings: [][]point{east}}, {Rings: [][]point{country}}}
	tol := 0.002 * polyindex.UnitsPerDegree
	before := vertices(shapes)
	after := simplify(shapes, []float64{tol, tol, tol})
	require.Less(t, after, before-100, "the wiggles within 0.002° go")

	onBorder := func(r []point) map[point]bool {
		kept := map[point]bool{}
		for _, p := range r {
			for _, b := range border {
				if p == b {
					kept[p] = true
				}
			}
		}
		return kept
	}
	require.Equal(t, onBorder(shapes[0].Rings[0]), onBorder(shapes[1].Rings[0]))
	require.Contains(t, shapes[2].Rings[0], pt(1, 0), "where the regions meet the country's outline stays")
	require.Contains(t, shapes[2].Rings[0], pt(1, 2))
}

func TestSimplifyKeepsRingsThatWouldVanish(t *testing.T) {
	tiny := []point{pt(0, 0), pt(0.0001, 0), pt(0.0001, 0.0001), pt(0.00005, 0.00015), pt(0, 0.0001)}
	shapes := []polyindex.Shape{{Rings: [][]point{tiny}}}
	simplify(shapes, []float64{0.01 * polyindex.UnitsPerDegree})
	require.Len(t, shapes[0].Rings[0], 5)
}

func TestAttributesReadLikeRgeo(t *testing.T) {
	country := map[string]any{"ADMIN": "France", "FORMAL_EN": "French Republic", "ISO_A2": "-99", "featurecla": "Admin-0 country"}
	region := map[string]any{"admin": "France", "name": "Paris", "iso_3166_2": "FR-75", "iso_a2": "FR", "FORMAL_EN": nil}
	city := map[string]any{"name_conve": "Bowling Green2", "max_pop_al": 58067.0}
	require.Equal(t, []string{"France", "French Republic", "-99", "", "", ""}, attributes(country))
	require.Equal(t, []string{"France", "", "", "Paris", "FR-75", ""}, attributes(region), "lower-case iso_a2 is not read, as rgeo does not")
	require.Equal(t, []string{"", "", "", "", "", "Bowling Green"}, attributes(city))
}
