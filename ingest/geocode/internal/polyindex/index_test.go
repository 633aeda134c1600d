package polyindex

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// box returns the ring of a rectangle in degrees.
func box(lon0, lat0, lon1, lat1 float64) []Point {
	return []Point{Vertex(lon0, lat0), Vertex(lon1, lat0), Vertex(lon1, lat1), Vertex(lon0, lat1), Vertex(lon0, lat0)}
}

// star returns a ring of n vertices around a centre whose radius swings
// between r/2 and r degrees: concave, many edges, across several cells.
func star(lon, lat, r float64, n int) []Point {
	ring := make([]Point, n)
	for i := range ring {
		a := 2 * math.Pi * float64(i) / float64(n)
		ri := r * (0.75 + 0.25*math.Sin(7*a))
		ring[i] = Vertex(lon+ri*math.Cos(a), lat+ri*math.Sin(a))
	}
	return ring
}

// want is the reference: the shapes that contain p, by even-odd over all of
// each shape's rings, edge by edge, without any index.
func want(shapes []Shape, p Point) []int32 {
	var in []int32
	for i, s := range shapes {
		if inside(s, p) {
			in = append(in, int32(i))
		}
	}
	return in
}

// requireContains checks Contains against the reference, except for points
// within two units of an edge: where a ring is clipped, the crossing is
// rounded to a unit, which may move such a point to the other side.
func requireContains(t *testing.T, ix *Index, shapes []Shape, p Point, msg ...any) {
	t.Helper()
	got := ix.Contains(p, nil)
	if w := want(shapes, p); !slices.Equal(w, got) && !nearEdge(shapes, p, 2) {
		require.Equal(t, w, got, msg...)
	}
}

func nearEdge(shapes []Shape, p Point, d float64) bool {
	for _, s := range shapes {
		for _, r := range s.Rings {
			for i := range r {
				a, b := r[i], r[(i+1)%len(r)]
				dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
				u := math.Max(0, math.Min(1, (float64(p.X-a.X)*dx+float64(p.Y-a.Y)*dy)/(dx*dx+dy*dy)))
				if math.Hypot(float64(a.X)+u*dx-float64(p.X), float64(a.Y)+u*dy-float64(p.Y)) < d {
					return true
				}
			}
		}
	}
	return false
}

// inside is even-odd over all of a shape's rings, edge by edge.
func inside(s Shape, p Point) bool {
	in := false
	for _, r := range s.Rings {
		for i := range r {
			a, b := r[i], r[(i+1)%len(r)]
			in = in != crosses(a.X, a.Y, b.X, b.Y, p)
		}
	}
	return in
}

func mustBuild(t *testing.T, shapes []Shape, opt Options) *Index {
	t.Helper()
	data, _, err := Build(shapes, opt)
	require.NoError(t, err)
	ix, err := Open(data)
	require.NoError(t, err)
	return ix
}

func TestContainsAgreesWithEveryEdge(t *testing.T) {
	shapes := []Shape{
		{Rings: [][]Point{box(10.3, 40.2, 12.7, 41.9), box(11, 40.5, 11.5, 41)}, Attrs: []string{"box with a hole"}},
		{Rings: [][]Point{star(11.5, 41, 1.8, 3000)}, Attrs: []string{"star"}},
		{Rings: [][]Point{star(11.2, 40.8, 0.3, 500), star(12, 41.5, 0.2, 400)}, Attrs: []string{"two small stars"}},
	}
	for _, opt := range []Options{DefaultOptions, {LeafVertices: 8, MaxDepth: MaxDepth}, {LeafVertices: 1 << 20, MaxDepth: 0}} {
		ix := mustBuild(t, shapes, opt)
		require.Equal(t, 3, ix.Shapes())
		rng := rand.New(rand.NewPCG(1, 2))
		for range 6000 {
			p := FromDegrees(9+rng.Float64()*5, 38.5+rng.Float64()*5)
			requireContains(t, ix, shapes, p, "%+v with %+v", p, opt)
		}
	}
}

// TestContainsWithSharedBorders: neighbours share a border, a "country"
// follows its regions' outline, one ring runs the other way round and from
// another vertex, an island lies inside a leaf: kept once, the shared edges
// still bound every shape they belong to.
func TestContainsWithSharedBorders(t *testing.T) {
	west := star(11, 41, 1.5, 2000)
	var east []Point // the star's east half and a straight line closing it
	for _, p := range west {
		if p.X >= Vertex(11, 0).X {
			east = append(east, p)
		}
	}
	reversed := make([]Point, len(west))
	for i, p := range west {
		reversed[(len(west)-i+700)%len(west)] = p
	}
	shapes := []Shape{
		{Rings: [][]Point{west}, Attrs: []string{"region"}},
		{Rings: [][]Point{east}, Attrs: []string{"its east half"}},
		{Rings: [][]Point{reversed}, Attrs: []string{"the same, reversed"}},
		{Rings: [][]Point{box(9, 39, 13, 43), west}, Attrs: []string{"a frame around it"}},
		{Rings: [][]Point{star(11.3, 41.2, 0.003, 40)}, Attrs: []string{"an island"}},
	}
	for _, opt := range []Options{DefaultOptions, {LeafVertices: 16, MaxDepth: MaxDepth}} {
		ix := mustBuild(t, shapes, opt)
		rng := rand.New(rand.NewPCG(5, 6))
		for i := range 6000 {
			var p Point
			if i%2 == 0 {
				p = FromDegrees(8.5+rng.Float64()*5, 38.5+rng.Float64()*5)
			} else {
				p = FromDegrees(11.3+rng.Float64()*0.01-0.005, 41.2+rng.Float64()*0.01-0.005)
			}
			requireContains(t, ix, shapes, p, "%+v with %+v", p, opt)
		}
	}
}

func TestContainsAtTheEdgesOfTheWorld(t *testing.T) {
	shapes := []Shape{
		{Rings: [][]Point{box(178, -18, 180, -16)}, Attrs: []string{"west of the antimeridian"}},
		{Rings: [][]Point{box(-180, -18, -178, -16)}, Attrs: []string{"east of the antimeridian"}},
		{Rings: [][]Point{box(-180, -90, 180, -60)}, Attrs: []string{"south polar cap"}},
	}
	ix := mustBuild(t, shapes, DefaultOptions)
	cases := []struct {
		name     string
		lon, lat float64
		want     []int32
	}{
		{"just west of the antimeridian", 179.9, -17, []int32{0}},
		{"just east of the antimeridian", -179.9, -17, []int32{1}},
		{"on the antimeridian, as 180", 180, -17, []int32{1}},
		{"on the antimeridian, as -180", -180, -17, []int32{1}},
		{"the south pole", 0, -90, []int32{2}},
		{"the south pole at the antimeridian", 180, -90, []int32{2}},
		{"the north pole", 0, 90, nil},
		{"beyond the ranges", 500, 500, nil},
		{"not a number", math.NaN(), math.NaN(), []int32{2}},
		{"at sea", 0, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, ix.Contains(FromDegrees(c.lon, c.lat), nil))
		})
	}
	require.Equal(t, []string{"south polar cap"}, ix.Attrs(2))
}

func TestBuildRejectsBadInput(t *testing.T) {
	_, _, err := Build(nil, DefaultOptions)
	require.Error(t, err)
	_, _, err = Build([]Shape{{Rings: [][]Point{{{1, 0}, {4, 0}, {4, 4}}}}}, DefaultOptions)
	require.ErrorContains(t, err, "odd vertex")
	_, _, err = Build([]Shape{{Attrs: []string{"a"}}, {}}, DefaultOptions)
	require.ErrorContains(t, err, "attributes")
	_, _, err = Build([]Shape{{}}, Options{LeafVertices: 8, MaxDepth: MaxDepth + 1})
	require.Error(t, err)
}

// TestOpenRejectsDamage flips bytes all over an index: Open either refuses
// it or gives an index whose lookups do not panic.
func TestOpenRejectsDamage(t *testing.T) {
	data, _, err := Build([]Shape{{Rings: [][]Point{star(11.5, 41, 1.8, 3000)}, Attrs: []string{"star"}}}, DefaultOptions)
	require.NoError(t, err)
	_, err = Open(data[:len(data)-1])
	require.Error(t, err)
	_, err = Open(append([]byte("NOTANIDX"), data[8:]...))
	require.Error(t, err)
	other := append([]byte(nil), data...)
	other[len(magic)]++
	_, err = Open(other)
	require.ErrorContains(t, err, "units per degree")
	for i := len(magic) + 4; i < len(magic)+24; i++ { // the header's counts
		for _, v := range []byte{0, 0x40, 0xff} {
			bad := append([]byte(nil), data...)
			bad[i] = v
			if ix, err := Open(bad); err == nil {
				ix.Contains(FromDegrees(11.5, 41), nil)
			}
		}
	}

	rng := rand.New(rand.NewPCG(3, 4))
	refused := 0
	for range 300 {
		bad := append([]byte(nil), data...)
		for range 1 + rng.IntN(4) {
			bad[len(magic)+24+rng.IntN(len(bad)-len(magic)-24)] ^= byte(1 + rng.IntN(255))
		}
		ix, err := Open(bad)
		if err != nil {
			refused++
			continue
		}
		for range 200 {
			ix.Contains(FromDegrees(9+rng.Float64()*5, 38.5+rng.Float64()*5), nil)
		}
	}
	require.Positive(t, refused)
}

func TestContainsIsSafeForConcurrentUse(t *testing.T) {
	ix := mustBuild(t, []Shape{{Rings: [][]Point{star(11.5, 41, 1.8, 3000)}, Attrs: []string{"star"}}}, DefaultOptions)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 5))
			var buf [4]int32
			for range 2000 {
				ix.Contains(FromDegrees(9+rng.Float64()*5, 38.5+rng.Float64()*5), buf[:0])
			}
		})
	}
	wg.Wait()
	require.Equal(t, []int32{0}, ix.Contains(FromDegrees(11.5, 41), nil))
}
