package catalog

import (
	"math"
	"strconv"
	"strings"
)

// EarthRadiusM is the mean earth radius (IUGG) used for great-circle
// distances, in metres.
const EarthRadiusM = 6371008.8

// MaxRadiusM is the largest accepted circle radius: half the earth's
// circumference at the equator (the web-mercator half-width), in metres. Any
// radius from π·EarthRadiusM (about 20015 km) up covers the whole globe.
const MaxRadiusM = 20037508

// boundsPad widens Circle.Bounds by about 0.1 mm so that floating-point
// rounding never leaves out a point that Contains accepts.
const boundsPad = 1e-9

// BBox is a viewport in degrees. MinLon is the west edge and MaxLon the east
// edge; MinLon greater than MaxLon is one viewport crossing the antimeridian,
// running east from MinLon over 180 to MaxLon. MinLon equal to MaxLon is a
// zero-width box that selects that meridian. Longitudes -180 and 180 are
// compared as the numbers they are: a point stored at -180 is in a box only
// when one of its LonRanges reaches -180.
type BBox struct{ MinLon, MinLat, MaxLon, MaxLat float64 }

// World is the full-world box; it selects every asset with coordinates.
var World = BBox{MinLon: -180, MinLat: -90, MaxLon: 180, MaxLat: 90}

// ParseBBox reads "min_lon,min_lat,max_lon,max_lat" (spaces around numbers
// allowed). Errors are 422 on ["query","bbox"]: four plain decimal numbers
// (float_parsing; NaN and infinities are finite_number), longitudes in
// [-180, 180] and latitudes in [-90, 90] (greater_than_equal /
// less_than_equal), min_lat <= max_lat (value_error), and a viewport 360° or
// wider sent as anything but -180..180 (value_error). The one such value a
// client can send is 180..-180, a crossing box whose width reads as 360°.
func ParseBBox(s string) (BBox, error) {
	loc := []any{"query", "bbox"}
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return BBox{}, InvalidField("value_error",
			"bbox must be four numbers: min_longitude,min_latitude,max_longitude,max_latitude", s, loc...)
	}
	names := [4]string{"min_longitude", "min_latitude", "max_longitude", "max_latitude"}
	var v [4]float64
	for i, p := range parts {
		f, err := parseCoordinate(names[i], p, i%2 == 1, s, loc)
		if err != nil {
			return BBox{}, err
		}
		v[i] = f
	}
	b := BBox{MinLon: v[0], MinLat: v[1], MaxLon: v[2], MaxLat: v[3]}
	if b.MinLat > b.MaxLat {
		return BBox{}, InvalidField("value_error", "bbox min_latitude must not be greater than max_latitude", s, loc...)
	}
	if b.CrossesAntimeridian() && b.MinLon-b.MaxLon >= 360 { // 180,..,-180: east from 180 all the way round
		return BBox{}, InvalidField("value_error",
			"a viewport 360 degrees or wider must be sent as the full range: min_longitude -180, max_longitude 180", s, loc...)
	}
	return b, nil
}

// String formats the box the way ParseBBox reads it.
func (b BBox) String() string {
	return strings.Join([]string{fmtDeg(b.MinLon), fmtDeg(b.MinLat), fmtDeg(b.MaxLon), fmtDeg(b.MaxLat)}, ",")
}

// CrossesAntimeridian reports that the box runs east over 180 (MinLon >
// MaxLon).
func (b BBox) CrossesAntimeridian() bool { return b.MinLon > b.MaxLon }

// IsWorld reports that the box is exactly -180,-90,180,90.
func (b BBox) IsWorld() bool { return b == World }

// LonRanges is the box's longitude band as plain [min, max] intervals: one,
// or two ([MinLon, 180] and [-180, MaxLon]) when the box crosses the
// antimeridian. Stores select lon BETWEEN min AND max for any of them.
func (b BBox) LonRanges() [][2]float64 {
	if b.CrossesAntimeridian() {
		return [][2]float64{{b.MinLon, 180}, {-180, b.MaxLon}}
	}
	return [][2]float64{{b.MinLon, b.MaxLon}}
}

// Contains reports whether the point lies in the box, edges included: lat
// in [MinLat, MaxLat] and lon in one of LonRanges.
func (b BBox) Contains(lon, lat float64) bool {
	if lat < b.MinLat || lat > b.MaxLat {
		return false
	}
	for _, r := range b.LonRanges() {
		if lon >= r[0] && lon <= r[1] {
			return true
		}
	}
	return false
}

// WidthDegrees is the east-going width from MinLon to MaxLon: 0 <= w <= 360,
// 0 for a zero-width box, 360 only for a box spanning -180..180.
func (b BBox) WidthDegrees() float64 {
	if b.CrossesAntimeridian() {
		// Narrower than 360 however little MinLon exceeds MaxLon, where the
		// subtraction can round up to 360 (1e-14,0,0,0).
		return min(360-(b.MinLon-b.MaxLon), math.Nextafter(360, 0))
	}
	return b.MaxLon - b.MinLon
}

// EastOf is how many degrees east of MinLon a longitude lies, reading over
// the antimeridian: 0 <= d < 360. In a crossing box it orders points as one
// continuous band (175 before -175), which a grid clustering needs.
func (b BBox) EastOf(lon float64) float64 {
	d := math.Mod(lon-b.MinLon, 360)
	if d < 0 {
		d += 360
	}
	return d
}

// Circle is a center (longitude, latitude in degrees) with a radius in
// metres.
type Circle struct{ Lon, Lat, RadiusM float64 }

// ParseCircle reads the center ("lon,lat") and radius (metres) query values.
// Errors are 422: the center on ["query","center"] as for ParseBBox; the
// radius on ["query","radius"], a plain decimal number greater than 0
// (greater_than) and at most MaxRadiusM (less_than_equal).
func ParseCircle(center, radius string) (Circle, error) {
	loc := []any{"query", "center"}
	parts := strings.Split(center, ",")
	if len(parts) != 2 {
		return Circle{}, InvalidField("value_error", "center must be two numbers: longitude,latitude", center, loc...)
	}
	lon, err := parseCoordinate("center longitude", parts[0], false, center, loc)
	if err != nil {
		return Circle{}, err
	}
	lat, err := parseCoordinate("center latitude", parts[1], true, center, loc)
	if err != nil {
		return Circle{}, err
	}
	loc = []any{"query", "radius"}
	r, err := parseNumber("radius", radius, radius, loc)
	if err != nil {
		return Circle{}, err
	}
	if r <= 0 {
		return Circle{}, withCtx(InvalidField("greater_than", "radius must be greater than 0 metres", radius, loc...),
			map[string]any{"gt": 0})
	}
	if r > MaxRadiusM {
		return Circle{}, withCtx(InvalidField("less_than_equal",
			"radius must be at most 20037508 metres, half the earth's circumference", radius, loc...),
			map[string]any{"le": MaxRadiusM})
	}
	return Circle{Lon: lon, Lat: lat, RadiusM: r}, nil
}

// Contains reports whether the point is within RadiusM of the center along
// the great circle (haversine on a sphere of EarthRadiusM), edge included.
func (c Circle) Contains(lon, lat float64) bool {
	return DistanceMeters(c.Lon, c.Lat, lon, lat) <= c.RadiusM
}

// Bounds is one or two boxes, none crossing the antimeridian, that together
// contain the circle: the index pre-filter, after which Contains is the exact
// test. A circle that covers a pole gets the full longitude band from its
// southern edge to that pole; one crossing the antimeridian is split into
// [west, 180] and [-180, east].
func (c Circle) Bounds() []BBox {
	delta := c.RadiusM / EarthRadiusM // angular radius, radians
	if delta >= math.Pi {
		return []BBox{World}
	}
	phi := c.Lat * math.Pi / 180
	minLat := math.Max(-90, (phi-delta)*180/math.Pi-boundsPad)
	maxLat := math.Min(90, (phi+delta)*180/math.Pi+boundsPad)
	if phi+delta >= math.Pi/2 || phi-delta <= -math.Pi/2 {
		return []BBox{{MinLon: -180, MinLat: minLat, MaxLon: 180, MaxLat: maxLat}}
	}
	// Widest longitude reach of a small circle not containing a pole.
	dLon := math.Asin(math.Min(1, math.Sin(delta)/math.Cos(phi)))*180/math.Pi + boundsPad
	west, east := c.Lon-dLon, c.Lon+dLon
	switch {
	case west < -180:
		return []BBox{
			{MinLon: west + 360, MinLat: minLat, MaxLon: 180, MaxLat: maxLat},
			{MinLon: -180, MinLat: minLat, MaxLon: east, MaxLat: maxLat},
		}
	case east > 180:
		return []BBox{
			{MinLon: west, MinLat: minLat, MaxLon: 180, MaxLat: maxLat},
			{MinLon: -180, MinLat: minLat, MaxLon: east - 360, MaxLat: maxLat},
		}
	}
	return []BBox{{MinLon: west, MinLat: minLat, MaxLon: east, MaxLat: maxLat}}
}

// DistanceMeters is the great-circle distance between two points in degrees,
// by the haversine formula on a sphere of EarthRadiusM.
func DistanceMeters(lon1, lat1, lon2, lat2 float64) float64 {
	const rad = math.Pi / 180
	sinLat := math.Sin((lat2 - lat1) * rad / 2)
	sinLon := math.Sin((lon2 - lon1) * rad / 2)
	a := sinLat*sinLat + math.Cos(lat1*rad)*math.Cos(lat2*rad)*sinLon*sinLon
	a = math.Min(1, math.Max(0, a))
	return 2 * EarthRadiusM * math.Atan2(math.Sqrt(a), math.Sqrt(1-a))
}

// Location is the parsed location filter of a request: exactly one of Box
// and Circle is set.
type Location struct {
	Box    *BBox
	Circle *Circle
}

// Contains reports whether a point passes the filter.
func (l Location) Contains(lon, lat float64) bool {
	if l.Box != nil {
		return l.Box.Contains(lon, lat)
	}
	return l.Circle != nil && l.Circle.Contains(lon, lat)
}

// ParseLocation reads the bbox, center and radius query values; an empty
// string means absent, and nil means no location filter. Errors (422): bbox
// with center or radius is a single message naming both; center without
// radius, or radius without center, is missing on the absent one; then as
// ParseBBox and ParseCircle.
func ParseLocation(bbox, center, radius string) (*Location, error) {
	switch {
	case bbox != "" && (center != "" || radius != ""):
		return nil, Invalid("bbox cannot be combined with center/radius: send either a bbox or a center with a radius")
	case bbox != "":
		b, err := ParseBBox(bbox)
		if err != nil {
			return nil, err
		}
		return &Location{Box: &b}, nil
	case center != "" && radius == "":
		return nil, InvalidField("missing", "radius is required with center", nil, "query", "radius")
	case center == "" && radius != "":
		return nil, InvalidField("missing", "center is required with radius", nil, "query", "center")
	case center != "":
		c, err := ParseCircle(center, radius)
		if err != nil {
			return nil, err
		}
		return &Location{Circle: &c}, nil
	}
	return nil, nil
}

// parseCoordinate reads one latitude (isLat) or longitude and checks its
// range. input and loc are those of the whole query value, for the error.
func parseCoordinate(name, s string, isLat bool, input any, loc []any) (float64, error) {
	f, err := parseNumber(name, s, input, loc)
	if err != nil {
		return 0, err
	}
	limit, what := 180.0, "longitude"
	if isLat {
		limit, what = 90, "latitude"
	}
	if f < -limit {
		return 0, withCtx(InvalidField("greater_than_equal",
			name+" must be at least "+fmtDeg(-limit)+" (a "+what+")", input, loc...), map[string]any{"ge": -limit})
	}
	if f > limit {
		return 0, withCtx(InvalidField("less_than_equal",
			name+" must be at most "+fmtDeg(limit)+" (a "+what+")", input, loc...), map[string]any{"le": limit})
	}
	return f, nil
}

// parseNumber reads a plain decimal number (digits, sign, point, exponent;
// no hex, underscores, NaN or infinities), ASCII spaces around it allowed.
func parseNumber(name, s string, input any, loc []any) (float64, error) {
	t := strings.Trim(s, " ") // ASCII spaces only, as typed after commas
	f, err := strconv.ParseFloat(t, 64)
	if (err == nil || isRangeErr(err)) && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return 0, InvalidField("finite_number", name+" must be a finite number", input, loc...)
	}
	if err != nil || t == "" || strings.Trim(t, "0123456789+-.eE") != "" {
		return 0, InvalidField("float_parsing", name+" must be a number", input, loc...)
	}
	return f + 0, nil // + 0 turns -0 into 0
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func fmtDeg(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// withCtx adds the pydantic ctx (the violated limit) to a one-field error.
func withCtx(err error, ctx map[string]any) error {
	if ve, ok := err.(*ValidationError); ok && len(ve.Fields) == 1 {
		ve.Fields[0].Ctx = ctx
	}
	return err
}
