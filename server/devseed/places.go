package devseed

import (
	"math"
	"math/rand/v2"
	"time"
)

// dst is when a place keeps daylight saving time, approximated by month:
// good enough for realistic offsets, not a time-zone database.
type dst int

const (
	noDST    dst = iota
	northDST     // April to October, one hour ahead
	southDST     // October to March, one hour ahead
)

// place is a city photos cluster around.
type place struct {
	name     string
	lat, lon float64
	offset   int // standard offset, seconds east of UTC
	dst      dst
	weight   float64 // how often trips go there, relative
}

// hours is an offset of h hours (fractions allowed: India, Nepal).
func hours(h float64) int { return int(h * 3600) }

// places are about fifty cities around the world. Taveuni (Fiji) lies on
// the antimeridian, so its photos fall on both sides of it; Samoa, Tonga,
// Chatham and Kamchatka sit beside it.
var places = []place{
	{"Paris", 48.8566, 2.3522, hours(1), northDST, 3},
	{"Berlin", 52.52, 13.405, hours(1), northDST, 2},
	{"London", 51.5074, -0.1278, 0, northDST, 3},
	{"Lisbon", 38.7223, -9.1393, 0, northDST, 1.5},
	{"Madrid", 40.4168, -3.7038, hours(1), northDST, 1.5},
	{"Rome", 41.9028, 12.4964, hours(1), northDST, 2},
	{"Athens", 37.9838, 23.7275, hours(2), northDST, 1},
	{"Helsinki", 60.1699, 24.9384, hours(2), northDST, 0.7},
	{"Reykjavik", 64.1466, -21.9426, 0, noDST, 0.7},
	{"Istanbul", 41.0082, 28.9784, hours(3), noDST, 1},
	{"Moscow", 55.7558, 37.6173, hours(3), noDST, 0.7},
	{"Cairo", 30.0444, 31.2357, hours(2), noDST, 0.7},
	{"Nairobi", -1.2921, 36.8219, hours(3), noDST, 0.5},
	{"Cape Town", -33.9249, 18.4241, hours(2), noDST, 0.8},
	{"Lagos", 6.5244, 3.3792, hours(1), noDST, 0.4},
	{"Marrakesh", 31.6295, -7.9811, hours(1), noDST, 0.6},
	{"Dubai", 25.2048, 55.2708, hours(4), noDST, 0.8},
	{"Mumbai", 19.076, 72.8777, hours(5.5), noDST, 0.8},
	{"Kathmandu", 27.7172, 85.324, hours(5.75), noDST, 0.4},
	{"Bangkok", 13.7563, 100.5018, hours(7), noDST, 1},
	{"Singapore", 1.3521, 103.8198, hours(8), noDST, 0.8},
	{"Hong Kong", 22.3193, 114.1694, hours(8), noDST, 0.8},
	{"Beijing", 39.9042, 116.4074, hours(8), noDST, 0.7},
	{"Seoul", 37.5665, 126.978, hours(9), noDST, 0.8},
	{"Tokyo", 35.6762, 139.6503, hours(9), noDST, 1.5},
	{"Kyoto", 35.0116, 135.7681, hours(9), noDST, 0.8},
	{"Sydney", -33.8688, 151.2093, hours(10), southDST, 1.2},
	{"Perth", -31.9505, 115.8605, hours(8), noDST, 0.4},
	{"Auckland", -36.8485, 174.7633, hours(12), southDST, 0.8},
	{"Suva", -18.1248, 178.4501, hours(12), noDST, 0.5},
	{"Taveuni", -16.85, 179.97, hours(12), noDST, 0.5},
	{"Apia", -13.8333, -171.7667, hours(13), noDST, 0.4},
	{"Nuku'alofa", -21.1394, -175.2049, hours(13), noDST, 0.3},
	{"Chatham Islands", -43.95, -176.55, hours(12.75), southDST, 0.2},
	{"Petropavlovsk-Kamchatsky", 53.0452, 158.6483, hours(12), noDST, 0.2},
	{"Honolulu", 21.3069, -157.8583, hours(-10), noDST, 0.8},
	{"Anchorage", 61.2181, -149.9003, hours(-9), northDST, 0.3},
	{"Vancouver", 49.2827, -123.1207, hours(-8), northDST, 0.8},
	{"San Francisco", 37.7749, -122.4194, hours(-8), northDST, 1.2},
	{"Los Angeles", 34.0522, -118.2437, hours(-8), northDST, 1},
	{"Denver", 39.7392, -104.9903, hours(-7), northDST, 0.5},
	{"Mexico City", 19.4326, -99.1332, hours(-6), noDST, 0.7},
	{"Chicago", 41.8781, -87.6298, hours(-6), northDST, 0.8},
	{"New York", 40.7128, -74.006, hours(-5), northDST, 2},
	{"Toronto", 43.6532, -79.3832, hours(-5), northDST, 0.8},
	{"Havana", 23.1136, -82.3666, hours(-5), northDST, 0.3},
	{"Lima", -12.0464, -77.0428, hours(-5), noDST, 0.4},
	{"Bogotá", 4.711, -74.0721, hours(-5), noDST, 0.4},
	{"Rio de Janeiro", -22.9068, -43.1729, hours(-3), noDST, 0.8},
	{"Buenos Aires", -34.6037, -58.3816, hours(-3), noDST, 0.6},
	{"Santiago", -33.4489, -70.6693, hours(-4), southDST, 0.4},
	{"Ushuaia", -54.8019, -68.303, hours(-3), noDST, 0.2},
}

// offsetAt is the place's offset from UTC in the month of the wall-clock
// reading.
func (p place) offsetAt(wall time.Time) int {
	m := wall.Month()
	switch {
	case p.dst == northDST && m >= time.April && m <= time.October,
		p.dst == southDST && (m >= time.October || m <= time.March):
		return p.offset + 3600
	default:
		return p.offset
	}
}

// spreadKM is the standard deviation of photo positions around a place.
const spreadKM = 20

// kmPerDegree is the length of a degree of latitude.
const kmPerDegree = 111.32

// near returns a point drawn from a gaussian of spreadKM around p, with the
// longitude wrapped into [-180, 180) (so points near the antimeridian land
// on either side) and the latitude clamped to the poles.
func (p place) near(r *rand.Rand) (lat, lon float64) {
	lat = p.lat + r.NormFloat64()*spreadKM/kmPerDegree
	lat = math.Max(-90, math.Min(90, lat))
	cos := math.Max(0.01, math.Cos(lat*math.Pi/180))
	lon = p.lon + r.NormFloat64()*spreadKM/(kmPerDegree*cos)
	lon = math.Mod(lon+180, 360)
	if lon < 0 {
		lon += 360
	}
	return lat, lon - 180
}
