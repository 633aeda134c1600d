// Package polyindex answers "which of these shapes contain this point" for
// many polygons on a longitude/latitude plane, from one compact byte slice
// that is built once (Build) and read in place (Open, Contains).
//
// The plane is cut into 1° cells; each cell holds a quadtree whose leaves
// keep the edges of the shapes that reach into them, clipped to the leaf,
// each edge once with the set of shapes it bounds (chains.go), and which
// shapes cover the leaf otherwise. A query walks to its leaf and counts,
// shape by shape, how often a ray due east crosses those edges: at most
// Options.LeafVertices of them.
//
// Coordinates are integers (Point): every vertex and every query is an even
// number of units and every cell and quadrant border an odd one, so nothing
// ever lies on a border. That is what makes the clipping exact: a ring
// clipped to a window winds around every point strictly inside the window as
// often as the whole ring does. Edges are straight lines in longitude and
// latitude (the plate carrée the boundary data is drawn in), and a shape is
// the even-odd union of its rings.
package polyindex

import "math"

// UnitsPerDegree is the resolution of the index: 2¹⁶ units per degree. Points
// are rounded to two units, 2⁻¹⁵° (3.4 m of latitude, less of longitude).
const UnitsPerDegree = 1 << unitBits

const (
	unitBits = 16
	// MaxDepth is the deepest a quadtree may go below a 1° cell: its nodes
	// are then four units wide, the least that still has odd middle lines.
	MaxDepth = unitBits - 2
)

const (
	cols      = 360
	rows      = 180
	cellUnits = UnitsPerDegree
	// originX and originY are the west and south borders of the grid: odd,
	// one unit beyond -180° and -90°.
	originX = -180*UnitsPerDegree - 1
	originY = -90*UnitsPerDegree - 1
)

// Point is a position in index units (see UnitsPerDegree). X grows east, Y
// north. Shapes and queries use even coordinates only; FromDegrees makes them.
type Point struct{ X, Y int32 }

// FromDegrees returns the Point for a longitude and latitude in degrees.
// Longitude 180° becomes -180°, the same meridian, so that a point on the
// antimeridian falls into the cells of the shapes that start there.
// Latitude 90° becomes one unit pair south of it, inside the last row of
// cells. Values outside ±180° and ±90° are clamped, and NaN is taken for
// -180° or -90°.
func FromDegrees(lon, lat float64) Point {
	x := even(clamp(lon, -180, 180))
	if x >= 180*UnitsPerDegree {
		x -= 360 * UnitsPerDegree
	}
	y := min(even(clamp(lat, -90, 90)), 90*UnitsPerDegree-2)
	return Point{X: x, Y: y}
}

func even(deg float64) int32 {
	return 2 * int32(math.Round(deg*(UnitsPerDegree/2)))
}

func clamp(v, lo, hi float64) float64 {
	if !(v >= lo) { // NaN too
		return lo
	}
	return math.Min(v, hi)
}

// cellOf returns the grid column or row of a coordinate, clamped to the grid.
func cellOf(v, origin int32, n int) int {
	c := int((int64(v) - int64(origin)) / cellUnits)
	return max(0, min(n-1, c))
}

// Vertex returns the Point for a shape's vertex in degrees. Unlike
// FromDegrees it keeps 180° east: a ring that ends at the antimeridian
// reaches the grid's east border (Build clips it there).
func Vertex(lon, lat float64) Point {
	return Point{X: even(lon), Y: even(lat)}
}
