// Package geogrid is the arithmetic of geo-clusters that both store
// dialects share: positions as integer units, the clustering grid (with
// its origin moved west of an antimeridian-crossing viewport), the cells
// an answer collects, and which level of the maintained geo_cells table
// can answer a query. The SQL that reads assets and geo_cells stays in
// each dialect; the numbers it groups by come from here, so a position
// falls in the same cell on every path and in every store.
package geogrid

import (
	"math"
	"sort"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// Positions are integers in units of 1e-7 degree east of -180 (x) and
// north of -90 (y), as the geo_cells migrations compute them (rounding
// half up, as Go's conversion after + 0.5 does).
const (
	UnitsPerDegree = 10_000_000
	FullTurn       = 360 * UnitsPerDegree
	// InteriorMargin keeps aggregated cells 1e-4 degree inside the
	// viewport, beyond the rounding of any spatial index's floats, so
	// every asset of such a cell passes the viewport test of the list.
	InteriorMargin = 1000
)

// Levels are the cell sizes of geo_cells (table geo_levels), coarsest
// first.
var Levels = []int64{10_000_000, 1_000_000, 100_000}

// XUnits and YUnits are a longitude's and a latitude's units.
func XUnits(lon float64) int64 { return int64(float64((lon+180)*UnitsPerDegree) + 0.5) }
func YUnits(lat float64) int64 { return int64(float64((lat+90)*UnitsPerDegree) + 0.5) }

// Degrees converts units back to degrees (east of -180, north of -90).
func Degrees(u int64) float64 { return float64(u) / UnitsPerDegree }

// Grid is a clustering grid. Cells are Cell units wide and high, aligned
// on -90 and on Origin; a column counts east from Origin, over the
// antimeridian for a crossing viewport, so its band is one row of cells
// (catalog.BBox.EastOf in integer units).
type Grid struct {
	Cell   int64
	Origin int64 // 0, or for a crossing viewport the grid line at or west of its west edge
}

// New returns the grid of cellSize degrees over a viewport.
func New(box catalog.BBox, cellSize float64) Grid {
	g := Grid{Cell: max(1, int64(math.Round(cellSize*UnitsPerDegree)))}
	if box.CrossesAntimeridian() {
		g.Origin = XUnits(box.MinLon) / g.Cell * g.Cell
	}
	return g
}

// East is x measured east from the origin.
func (g Grid) East(x int64) int64 {
	if x < g.Origin {
		return x - g.Origin + FullTurn
	}
	return x - g.Origin
}

// Key names a cell of a grid: its column and row.
type Key struct{ Col, Row int64 }

// Sum accumulates one cell: its count, the sums of east and y, and the
// greatest asset id (the representative).
type Sum struct {
	Count, SumEast, SumY int64
	Rep                  string
}

// LevelCell returns the grid cell and sums of one geo_cells row of level
// units at (cx, cy), whose sum of x is sumX: a level cell lies on one side
// of the origin (both are multiples of units), so its assets share the
// wrap of its first x.
func (g Grid) LevelCell(units, cx, cy, sumX int64, v Sum) (Key, Sum) {
	x0 := cx * units
	v.SumEast = sumX - v.Count*g.Origin
	if x0 < g.Origin {
		v.SumEast += v.Count * FullTurn
	}
	return Key{g.East(x0) / g.Cell, cy * units / g.Cell}, v
}

// Sums collects the non-empty cells of an answer, failing past its max.
type Sums struct {
	cells map[Key]*Sum
	max   int
}

// NewSums returns an empty collection that holds at most maxCells cells.
func NewSums(maxCells int) *Sums { return &Sums{cells: map[Key]*Sum{}, max: maxCells} }

// Add adds v to cell k; a new cell past the maximum is a
// *query.TooManyCellsError.
func (s *Sums) Add(k Key, v Sum) error {
	c, ok := s.cells[k]
	if !ok {
		if len(s.cells) >= s.max {
			return &query.TooManyCellsError{Max: s.max}
		}
		c = &Sum{}
		s.cells[k] = c
	}
	c.Count += v.Count
	c.SumEast += v.SumEast
	c.SumY += v.SumY
	c.Rep = max(c.Rep, v.Rep)
	return nil
}

// Clusters turns the sums into the answer, south to north, west to east.
func (s *Sums) Clusters(g Grid) []query.GeoCluster {
	keys := make([]Key, 0, len(s.cells))
	for k := range s.cells {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].Row < keys[j].Row || keys[i].Row == keys[j].Row && keys[i].Col < keys[j].Col
	})
	out := make([]query.GeoCluster, len(keys))
	for i, k := range keys {
		c := s.cells[k]
		n := float64(c.Count)
		lon := (float64(g.Origin)+float64(c.SumEast)/n)/UnitsPerDegree - 180
		if lon > 180 {
			lon -= 360
		}
		out[i] = query.GeoCluster{Latitude: float64(c.SumY)/n/UnitsPerDegree - 90, Longitude: lon,
			Count: c.Count, RepresentativeID: c.Rep}
	}
	return out
}

// Level is the coarsest level of geo_cells that can answer: its cells
// tile the grid's cells, and no filter but the library, the state and the
// viewport is set. 0 means none: the answer comes from the assets.
func Level(f query.AssetFilter, g Grid) int64 {
	if len(f.IDs) > 0 || f.StackID != "" || f.AlbumID != "" || len(f.PersonIDs) > 0 || f.MediaType != "" ||
		f.MinRating != nil || !f.Capture.IsZero() || f.Location != nil && f.Location.Circle != nil {
		return 0
	}
	for _, u := range Levels {
		if g.Cell%u == 0 { // the origin is a multiple of the cell, so of u
			return u
		}
	}
	return 0
}

// Interior is a rectangle of level cells [CX0, CX1] × [CY0, CY1] inside
// one longitude range of a viewport, empty when CX0 > CX1 or CY0 > CY1:
// the cells geo_cells answers for whole, InteriorMargin inside the edges.
type Interior struct{ CX0, CX1, CY0, CY1 int64 }

// InteriorOf returns the interior of the longitude range lr (one of
// box.LonRanges()) at level units.
func InteriorOf(box catalog.BBox, lr [2]float64, units int64) Interior {
	return Interior{
		ceilDiv(XUnits(lr[0])+InteriorMargin, units), FloorDiv(XUnits(lr[1])-InteriorMargin, units) - 1,
		ceilDiv(YUnits(box.MinLat)+InteriorMargin, units), FloorDiv(YUnits(box.MaxLat)-InteriorMargin, units) - 1,
	}
}

// Empty reports whether the interior holds no cell.
func (in Interior) Empty() bool { return in.CX0 > in.CX1 || in.CY0 > in.CY1 }

// FloorDiv is a / b rounded down (Go's / truncates toward zero): the
// cell of a position, and the day of a capture time before 1970, are
// floor divisions. The stores use it for days too (sqlstore/aggregates.go).
func FloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// FloorMod is the remainder of FloorDiv: never negative for b > 0.
func FloorMod(a, b int64) int64 { return a - FloorDiv(a, b)*b }

func ceilDiv(a, b int64) int64 { return -FloorDiv(-a, b) }
