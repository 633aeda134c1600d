package catalog

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseBBox(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  BBox
		cross bool
		width float64
	}{
		{"ordinary viewport", "2.2,48.8,2.5,48.9", BBox{2.2, 48.8, 2.5, 48.9}, false, 0.3},
		{"west greater than east is one viewport crossing the antimeridian", "170,-10,-170,10", BBox{170, -10, -170, 10}, true, 20},
		{"full world box", "-180,-90,180,90", World, false, 360},
		{"full longitude band of some latitudes", "-180,-10,180,10", BBox{-180, -10, 180, 10}, false, 360},
		{"zero-width box selects a meridian", "10,0,10,5", BBox{10, 0, 10, 5}, false, 0},
		{"zero-height box selects a parallel", "0,5,10,5", BBox{0, 5, 10, 5}, false, 10},
		{"point box", "0,0,0,0", BBox{}, false, 0},
		{"crossing box from 180 reads 350 degrees east", "180,-10,170,10", BBox{180, -10, 170, 10}, true, 350},
		{"crossing box to -180 reads 10 degrees east", "170,-10,-180,10", BBox{170, -10, -180, 10}, true, 10},
		{"zero-width box on 180", "180,-10,180,10", BBox{180, -10, 180, 10}, false, 0},
		{"spaces around numbers are allowed", " 1 , 2 ,3, 4 ", BBox{1, 2, 3, 4}, false, 2},
		{"exponent and explicit sign are plain decimals", "1e1,+2,2E1,.5e1", BBox{10, 2, 20, 5}, false, 10},
		{"negative zero reads as zero", "-0,-0,0,0", BBox{}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseBBox(tt.in)
			require.NoError(t, err)
			require.Equal(t, tt.want, b)
			require.False(t, math.Signbit(b.MinLon) && b.MinLon == 0, "negative zero")
			require.Equal(t, tt.cross, b.CrossesAntimeridian())
			require.InDelta(t, tt.width, b.WidthDegrees(), 1e-9)
			require.Equal(t, tt.in == "-180,-90,180,90", b.IsWorld(), "only the full-world box is the world")
		})
	}
}

func TestParseBBoxRejects(t *testing.T) {
	tests := []struct {
		name, in, typ string
		ctx           map[string]any
		msgHas        string
	}{
		{"three numbers", "1,2,3", "value_error", nil, ""},
		{"five numbers", "1,2,3,4,5", "value_error", nil, ""},
		{"an empty number", "1,,3,4", "float_parsing", nil, ""},
		{"a word", "west,2,3,4", "float_parsing", nil, ""},
		{"hexadecimal float", "0x1p3,2,3,4", "float_parsing", nil, ""},
		{"underscore digits", "1_0,2,3,4", "float_parsing", nil, ""},
		{"NaN", "1,NaN,3,4", "finite_number", nil, ""},
		{"infinity", "-Inf,2,3,4", "finite_number", nil, ""},
		{"overflowing exponent", "1,2,1e400,4", "finite_number", nil, ""},
		{"latitude above 90", "0,0,10,90.5", "less_than_equal", map[string]any{"le": 90.0}, ""},
		{"latitude below -90", "0,-91,10,10", "greater_than_equal", map[string]any{"ge": -90.0}, ""},
		{"longitude above 180", "0,0,181,10", "less_than_equal", map[string]any{"le": 180.0}, ""},
		{"longitude below -180", "-180.5,0,10,10", "greater_than_equal", map[string]any{"ge": -180.0}, ""},
		{"min_lat greater than max_lat", "0,10,10,0", "value_error", nil, ""},
		{"a 360-degree crossing box must be sent as -180..180", "180,-10,-180,10", "value_error", nil, "full range: min_longitude -180, max_longitude 180"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseBBox(tt.in)
			f := requireFieldError(t, err, tt.typ, "query", "bbox")
			require.Equal(t, tt.in, f.Input)
			require.Equal(t, tt.ctx, f.Ctx)
			require.Contains(t, f.Msg, tt.msgHas)
		})
	}
}

func TestBBoxContains(t *testing.T) {
	crossing := BBox{170, -10, -170, 10}
	tests := []struct {
		name     string
		b        BBox
		lon, lat float64
		want     bool
	}{
		{"crossing box contains a point east of its west edge", crossing, 175, 0, true},
		{"crossing box contains a point west of its east edge", crossing, -175, 0, true},
		{"crossing box contains the antimeridian as 180", crossing, 180, 0, true},
		{"crossing box contains the antimeridian as -180", crossing, -180, 0, true},
		{"crossing box includes its edges", crossing, 170, 10, true},
		{"crossing box does not contain the prime meridian", crossing, 0, 0, false},
		{"crossing box does not contain points just outside its west edge", crossing, 169.9, 0, false},
		{"crossing box does not contain points just outside its east edge", crossing, -169.9, 0, false},
		{"crossing box checks latitude", crossing, 175, 10.1, false},
		{"world contains the north pole", World, 0, 90, true},
		{"world contains the south pole on the antimeridian", World, -180, -90, true},
		{"world contains null island", World, 0, 0, true},
		{"zero-width box contains its meridian", BBox{10, 0, 10, 5}, 10, 2, true},
		{"zero-width box contains nothing beside it", BBox{10, 0, 10, 5}, 10.000001, 2, false},
		{"ordinary box excludes a point east of it", BBox{0, 0, 10, 10}, 11, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.b.Contains(tt.lon, tt.lat))
			require.Equal(t, tt.want, (Location{Box: &tt.b}).Contains(tt.lon, tt.lat))
		})
	}
}

func TestBBoxLonRanges(t *testing.T) {
	tests := []struct {
		name string
		b    BBox
		want [][2]float64
	}{
		{"ordinary box is one range", BBox{0, 0, 10, 10}, [][2]float64{{0, 10}}},
		{"crossing box splits at the antimeridian", BBox{170, -10, -170, 10}, [][2]float64{{170, 180}, {-180, -170}}},
		{"world is one range", World, [][2]float64{{-180, 180}}},
		{"zero-width box is one degenerate range", BBox{10, 0, 10, 5}, [][2]float64{{10, 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.b.LonRanges())
		})
	}
}

func TestBBoxEastOf(t *testing.T) {
	b := BBox{170, -10, -170, 10} // points past the antimeridian continue the band
	for lon, want := range map[float64]float64{170: 0, 175: 5, 180: 10, -180: 10, -175: 15, -170: 20} {
		require.InDelta(t, want, b.EastOf(lon), 1e-9, "lon %v", lon)
	}
}

func TestDistanceMeters(t *testing.T) {
	tests := []struct {
		name                   string
		lon1, lat1, lon2, lat2 float64
		want, tolerance        float64
	}{
		{"Paris to London is about 343.5 km", 2.3522, 48.8566, -0.1276, 51.5072, 343_500, 1_000},
		{"a quarter meridian is about 10007.5 km", 0, 0, 0, 90, 10_007_543, 100},
		{"half the equator is pi times the radius", 0, 0, 180, 0, math.Pi * EarthRadiusM, 1e-6},
		{"the same point is zero", 12, 34, 12, 34, 0, 0},
		{"across the antimeridian takes the short way", 179.9, 0, -179.9, 0, 0.2 * math.Pi / 180 * EarthRadiusM, 1e-3},
		{"pole to pole through any meridians", 10, 90, -120, -90, math.Pi * EarthRadiusM, 1e-6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.InDelta(t, tt.want, DistanceMeters(tt.lon1, tt.lat1, tt.lon2, tt.lat2), tt.tolerance)
			require.InDelta(t, tt.want, DistanceMeters(tt.lon2, tt.lat2, tt.lon1, tt.lat1), tt.tolerance, "symmetric")
		})
	}
}

func TestParseCircle(t *testing.T) {
	tests := []struct {
		name, center, radius, typ, loc string // typ "" = accepted
	}{
		{"center and radius read as longitude, latitude and metres", "2.3522,48.8566", "1500.5", "", ""},
		{"radius of exactly half the circumference is accepted", "0,0", "20037508", "", ""},
		{"center needs two numbers", "1,2,3", "10", "value_error", "center"},
		{"center latitude above 90", "0,90.1", "10", "less_than_equal", "center"},
		{"center longitude below -180", "-181,0", "10", "greater_than_equal", "center"},
		{"center NaN", "NaN,0", "10", "finite_number", "center"},
		{"radius zero", "0,0", "0", "greater_than", "radius"},
		{"radius negative", "0,0", "-5", "greater_than", "radius"},
		{"radius beyond half the circumference", "0,0", "20037509", "less_than_equal", "radius"},
		{"radius infinite", "0,0", "Inf", "finite_number", "radius"},
		{"radius with a unit", "0,0", "5km", "float_parsing", "radius"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCircle(tt.center, tt.radius)
			if tt.typ != "" {
				requireFieldError(t, err, tt.typ, "query", tt.loc)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.center+" "+tt.radius, fmtDeg(c.Lon)+","+fmtDeg(c.Lat)+" "+fmtDeg(c.RadiusM))
		})
	}
}

func TestCircleContains(t *testing.T) {
	tests := []struct {
		name     string
		c        Circle
		lon, lat float64
		want     bool
	}{
		{"circle crossing the antimeridian contains a point on the other side", Circle{179.9, 0, 50_000}, -179.9, 0, true},
		{"circle crossing the antimeridian ends on the other side", Circle{179.9, 0, 50_000}, -179.4, 0, false},
		{"circle contains its center", Circle{10, 20, 1}, 10, 20, true},
		{"Paris circle of 344 km reaches London", Circle{2.3522, 48.8566, 344_000}, -0.1276, 51.5072, true},
		{"Paris circle of 343 km misses London", Circle{2.3522, 48.8566, 343_000}, -0.1276, 51.5072, false},
		{"circle near the pole contains the far side of the pole", Circle{0, 89, 300_000}, 180, 89, true},
		{"whole-earth radius contains the antipode", Circle{0, 0, MaxRadiusM}, 180, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.c.Contains(tt.lon, tt.lat))
			require.Equal(t, tt.want, (Location{Circle: &tt.c}).Contains(tt.lon, tt.lat))
		})
	}
}

func TestCircleBounds(t *testing.T) {
	tests := []struct {
		name string
		c    Circle
		want []BBox
	}{
		{"small circle has one box around its center", Circle{2.35, 48.85, 10_000}, []BBox{{2.21333, 48.76007, 2.48667, 48.93993}}},
		{"circle crossing the antimeridian eastward splits into two boxes", Circle{179.9, 0, 50_000},
			[]BBox{{179.45034, -0.44966, 180, 0.44966}, {-180, -0.44966, -179.65034, 0.44966}}},
		{"circle crossing the antimeridian westward splits into two boxes", Circle{-179.9, 10, 50_000},
			[]BBox{{179.64340, 9.55034, 180, 10.44966}, {-180, 9.55034, -179.44340, 10.44966}}},
		{"circle covering the north pole takes every longitude up to 90", Circle{30, 89, 200_000}, []BBox{{-180, 87.20136, 180, 90}}},
		{"circle covering the south pole takes every longitude down to -90", Circle{-120, -88, 300_000}, []BBox{{-180, -90, 180, -85.30204}}},
		{"circle of half the circumference is the world", Circle{0, 0, MaxRadiusM}, []BBox{World}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.c.Bounds()
			require.Len(t, got, len(tt.want))
			for i, w := range tt.want {
				require.InDeltaSlice(t, []float64{w.MinLon, w.MinLat, w.MaxLon, w.MaxLat},
					[]float64{got[i].MinLon, got[i].MinLat, got[i].MaxLon, got[i].MaxLat}, 1e-5, "%v", got)
			}
		})
	}
	t.Run("no box crosses the antimeridian and every box is in range", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < 2000; i++ {
			c := randomCircle(rng)
			requireValidBounds(t, c)
		}
	})
	t.Run("bounds contain every point of the circle, edge included", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		for i := 0; i < 2000; i++ {
			c := randomCircle(rng)
			for j := 0; j < 16; j++ {
				d := c.RadiusM // first exactly on the edge, then inside, mostly near it
				if j > 0 {
					d *= 1 - rng.Float64()*rng.Float64()
				}
				lon, lat := destination(c.Lon, c.Lat, rng.Float64()*360, d)
				if c.Contains(lon, lat) {
					requireInBounds(t, c, lon, lat)
				}
			}
		}
	})
}

func randomCircle(rng *rand.Rand) Circle {
	lat := rng.Float64()*180 - 90
	if rng.IntN(8) == 0 {
		lat = math.Copysign(90-rng.Float64()*2, lat) // near a pole
	}
	return Circle{Lon: rng.Float64()*360 - 180, Lat: lat, RadiusM: math.Pow(10, rng.Float64()*7.3)}
}

func requireValidBounds(t *testing.T, c Circle) {
	t.Helper()
	bs := c.Bounds()
	require.True(t, len(bs) == 1 || len(bs) == 2, "%+v: %v", c, bs)
	for _, b := range bs {
		require.False(t, b.CrossesAntimeridian(), "%+v: %v", c, b)
		require.True(t, b.MinLon >= -180 && b.MaxLon <= 180 && b.MinLat >= -90 && b.MaxLat <= 90 && b.MinLat <= b.MaxLat, "%+v: %v", c, b)
	}
	requireInBounds(t, c, c.Lon, c.Lat)
}

func requireInBounds(t *testing.T, c Circle, lon, lat float64) {
	t.Helper()
	for _, b := range c.Bounds() {
		if b.Contains(lon, lat) {
			return
		}
	}
	t.Fatalf("%+v: point %v,%v (at %f m) is outside bounds %v", c, lon, lat, DistanceMeters(c.Lon, c.Lat, lon, lat), c.Bounds())
}

// destination is the point at distance d metres from (lon, lat) on the
// initial bearing θ degrees, longitude normalised to [-180, 180].
func destination(lon, lat, bearing, d float64) (float64, float64) {
	const rad = math.Pi / 180
	delta, theta, phi := d/EarthRadiusM, bearing*rad, lat*rad
	phi2 := math.Asin(math.Sin(phi)*math.Cos(delta) + math.Cos(phi)*math.Sin(delta)*math.Cos(theta))
	lambda2 := lon*rad + math.Atan2(math.Sin(theta)*math.Sin(delta)*math.Cos(phi), math.Cos(delta)-math.Sin(phi)*math.Sin(phi2))
	lon2 := math.Mod(lambda2/rad+540, 360) - 180
	return lon2, phi2 / rad
}

func TestParseLocation(t *testing.T) {
	tests := []struct {
		name, bbox, center, radius string
		want                       *Location
		typ, loc                   string // a field error of this type on ["query", loc]
		message                    bool   // a single message naming bbox and center/radius
	}{
		{name: "no parameters is no filter"},
		{name: "bbox alone is a box filter", bbox: "170,-10,-170,10", want: &Location{Box: &BBox{170, -10, -170, 10}}},
		{name: "center with radius is a circle filter", center: "179.9,0", radius: "50000", want: &Location{Circle: &Circle{179.9, 0, 50000}}},
		{name: "bbox with center and radius is rejected naming both", bbox: "0,0,1,1", center: "0,0", radius: "10", message: true},
		{name: "bbox with radius alone is rejected naming both", bbox: "0,0,1,1", radius: "10", message: true},
		{name: "center without radius is missing radius", center: "0,0", typ: "missing", loc: "radius"},
		{name: "radius without center is missing center", radius: "10", typ: "missing", loc: "center"},
		{name: "a bad bbox keeps its own error", bbox: "0,91,1,92", typ: "less_than_equal", loc: "bbox"},
		{name: "a bad center keeps its own error", center: "200,0", radius: "10", typ: "less_than_equal", loc: "center"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := ParseLocation(tt.bbox, tt.center, tt.radius)
			switch {
			case tt.message:
				requireMessage(t, err, "bbox", "center/radius")
			case tt.typ != "":
				requireFieldError(t, err, tt.typ, "query", tt.loc)
			default:
				require.NoError(t, err)
				require.Equal(t, tt.want, l)
			}
		})
	}
}

func FuzzParseBBox(f *testing.F) {
	for _, s := range []string{"170,-10,-170,10", "-180,-90,180,90", "180,-10,-180,10", "0,0,0,0", "1e400,0,0,0", " 1, 2, 3, 4", "0x1p3,0,0,0", "NaN,0,0,0", "-0,-0,-0,-0", "0.1,-0.2,0.0000001,33.333333333333336"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBBox(s)
		if err != nil {
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			require.Equal(t, []any{"query", "bbox"}, ve.Fields[0].Loc)
			return
		}
		requireValidBBox(t, b)
		again, err := ParseBBox(b.String())
		require.NoError(t, err)
		require.Equal(t, b, again)
	})
}

func FuzzParseLocation(f *testing.F) {
	for _, s := range [][3]string{
		{"", "", ""}, {"170,-10,-170,10", "", ""}, {"", "179.9,0", "50000"}, {"", "0,90", "20037508"},
		{"1,2,3,4", "0,0", ""}, {"", "0,0", ""}, {"", "", "5"}, {"", "-180,-90", "1e-300"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, bbox, center, radius string) {
		l, err := ParseLocation(bbox, center, radius)
		if err != nil {
			require.ErrorAs(t, err, new(*ValidationError))
			return
		}
		if bbox == "" && center == "" && radius == "" {
			require.Nil(t, l)
			return
		}
		require.NotNil(t, l)
		require.True(t, (l.Box == nil) != (l.Circle == nil), "exactly one filter")
		if l.Box != nil {
			requireValidBBox(t, *l.Box)
			return
		}
		c := *l.Circle
		require.True(t, c.RadiusM > 0 && c.RadiusM <= MaxRadiusM)
		require.True(t, c.Contains(c.Lon, c.Lat))
		requireValidBounds(t, c)
		for _, bearing := range []float64{0, 45, 90, 135, 180, 225, 270, 315} {
			lon, lat := destination(c.Lon, c.Lat, bearing, c.RadiusM)
			if c.Contains(lon, lat) {
				requireInBounds(t, c, lon, lat)
			}
		}
	})
}

func requireValidBBox(t *testing.T, b BBox) {
	t.Helper()
	// Written so that NaN and infinities fail too.
	require.True(t, b.MinLon >= -180 && b.MinLon <= 180 && b.MaxLon >= -180 && b.MaxLon <= 180, "%v", b)
	require.True(t, b.MinLat >= -90 && b.MinLat <= b.MaxLat && b.MaxLat <= 90, "%v", b)
	w := b.WidthDegrees()
	require.True(t, w >= 0 && w <= 360, "%v: width %v", b, w)
	require.Equal(t, w == 360, b.MinLon == -180 && b.MaxLon == 180, "%v: only -180..180 is 360 wide", b)
	require.Equal(t, b.IsWorld(), b == World)
	require.True(t, b.Contains(b.MinLon, b.MinLat) && b.Contains(b.MaxLon, b.MaxLat), "%v contains its corners", b)
	for _, r := range b.LonRanges() {
		require.True(t, -180 <= r[0] && r[0] <= r[1] && r[1] <= 180, "%v: range %v", b, r)
	}
}
