package exif

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/racetest"
)

func TestZoneAt(t *testing.T) {
	cases := []struct {
		name     string
		lat, lon float64
		zone     string
	}{
		{"Paris", 48.8584, 2.2945, "Europe/Paris"},
		{"Tokyo", 35.6895, 139.6917, "Asia/Tokyo"},
		{"Kathmandu, +05:45", 27.7172, 85.3240, "Asia/Kathmandu"},
		{"the mid-Atlantic has a nautical zone", 40, -30, "Etc/GMT+2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			loc := zoneAt(c.lat, c.lon)
			require.NotNil(t, loc)
			require.Equal(t, c.zone, loc.String())
		})
	}
}

// borderPoints are places the tile index cannot answer: near borders and
// coasts.
var borderPoints = []struct {
	name     string
	lat, lon float64
	zone     string
}{
	{"Basel, a few hundred metres from France and Germany", 47.5596, 7.5886, "Europe/Zurich"},
	{"the Sydney Opera House, on the harbour", -33.8568, 151.2153, "Australia/Sydney"},
	{"Strasbourg, on the Rhine", 48.5734, 7.7521, "Europe/Paris"},
	{"Kehl, across the Rhine", 48.5729, 7.8156, "Europe/Berlin"},
	{"Tijuana, at the Mexican border", 32.5422, -117.0296, "America/Tijuana"},
	{"San Ysidro, across it", 32.5544, -117.0430, "America/Los_Angeles"},
}

// Singapore's zone has no tile of its own in the index: only every
// polygon answers there.
var singapore = struct{ lat, lon float64 }{1.2834, 103.8607}

// TestZoneAtABorderBuildsOnlyTheNearbyZones: the tile index has no answer
// at a border, and the zones around it answer in milliseconds, without the
// seconds and hundreds of MiB of every zone's polygons.
func TestZoneAtABorderBuildsOnlyTheNearbyZones(t *testing.T) {
	tiles, err := tileFinder()
	require.NoError(t, err)
	_, _ = compressedZones()
	for _, p := range borderPoints {
		require.Empty(t, tiles.GetTimezoneName(p.lon, p.lat), "%s: the tile index has no answer here", p.name)
		began := time.Now()
		name := nearbyZone(tiles, p.lat, p.lon)
		t.Logf("%s: %s in %s", p.name, name, time.Since(began))
		require.Equal(t, p.zone, name, p.name)
	}
}

// TestNearbyZonesAgreeWithEveryPolygon compares the nearby-zone answers
// with the finder built from every zone.
func TestNearbyZonesAgreeWithEveryPolygon(t *testing.T) {
	if testing.Short() {
		t.Skip("loading every time zone polygon takes seconds")
	}
	racetest.SkipPure(t) // decoding every polygon: 62 s under -race on a loaded machine
	all, err := polygonFinder()
	require.NoError(t, err)
	tiles, err := tileFinder()
	require.NoError(t, err)
	for _, p := range borderPoints {
		want, err := all.GetTimezoneNames(p.lon, p.lat)
		require.NoError(t, err)
		require.Equal(t, want[0], nearbyZone(tiles, p.lat, p.lon), p.name)
		require.Equal(t, p.zone, zoneAt(p.lat, p.lon).String(), p.name)
	}
	require.Empty(t, nearbyZone(tiles, singapore.lat, singapore.lon), "no zone around Singapore contains it")
	require.Equal(t, "Asia/Singapore", zoneAt(singapore.lat, singapore.lon).String(), "every polygon does")
}

func TestOffsetAtFollowsDaylightSaving(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	require.Equal(t, 3600, offsetAt(paris, time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC)))
	require.Equal(t, 7200, offsetAt(paris, time.Date(2024, 7, 15, 10, 0, 0, 0, time.UTC)))
}

func BenchmarkZoneAt(b *testing.B) {
	_, _ = tileFinder() // loaded once per process; measured in TestZoneAtABorderLoadsThePolygons
	for b.Loop() {
		zoneAt(35.6895, 139.6917)
	}
}
