package geocode_test

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/geocode"
)

// world is loaded once for every test and benchmark of this file's package:
// the 1:10m boundaries take tens of CPU-seconds to load.
var world = geocode.New()

// skipUnderRace skips a test that loads the 1:10m data when the race
// detector is on: the load then takes minutes of CPU (about 230 s measured),
// enough to hit go test's default 10-minute limit on a busy machine. The
// locking is checked under -race on small data in place_test.go.
func skipUnderRace(t testing.TB) {
	t.Helper()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				t.Skip("loading the 1:10m boundaries under the race detector takes minutes; run without -race")
			}
		}
	}
}

// TestLoad loads the data (when no test before it did) and logs the time
// and memory it took.
func TestLoad(t *testing.T) {
	skipUnderRace(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	require.NoError(t, world.Load())
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("load: %d ms, %d MB allocated, %d MB retained, %d MB from the OS",
		took.Milliseconds(), allocated>>20, int64(after.HeapAlloc-before.HeapAlloc)>>20, after.Sys>>20)
}

func TestLookup(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name     string
		lat, lon float64
		want     geocode.Place
	}{
		{"Paris is Paris, France", 48.8566, 2.3522, geocode.Place{
			Country: "France", CountryCode: "FR", State: "Paris", City: "Paris", PlaceName: "Paris", DisplayLabel: "Paris, France"}},
		{"Tokyo is in Japan", 35.6762, 139.6503, geocode.Place{
			Country: "Japan", CountryCode: "JP", State: "Tokyo", City: "Tokyo", PlaceName: "Tokyo", DisplayLabel: "Tokyo, Japan"}},
		{"Kyoto is in Kyōto prefecture", 35.0116, 135.7681, geocode.Place{
			Country: "Japan", CountryCode: "JP", State: "Kyōto", City: "Kyoto", PlaceName: "Kyoto", DisplayLabel: "Kyoto, Japan"}},
		{"Manhattan is New York", 40.7128, -74.0060, geocode.Place{
			Country: "United States of America", CountryCode: "US", State: "New York", City: "New York", PlaceName: "New York",
			DisplayLabel: "New York, United States of America"}},
		{"Sydney loses the data's numbering", -33.8688, 151.2093, geocode.Place{
			Country: "Australia", CountryCode: "AU", State: "New South Wales", City: "Sydney", PlaceName: "Sydney", DisplayLabel: "Sydney, Australia"}},
		{"Zürich's name is repaired", 47.3769, 8.5417, geocode.Place{
			Country: "Switzerland", CountryCode: "CH", State: "Zürich", City: "Zürich", PlaceName: "Zürich", DisplayLabel: "Zürich, Switzerland"}},
		{"Oslo gets NO although the data says -99", 59.9139, 10.7522, geocode.Place{
			Country: "Norway", CountryCode: "NO", State: "Oslo", City: "Oslo", PlaceName: "Oslo", DisplayLabel: "Oslo, Norway"}},
		{"Taipei gets TW", 25.0330, 121.5654, geocode.Place{
			Country: "Taiwan", CountryCode: "TW", State: "Taipei City", City: "Taipei", PlaceName: "Taipei", DisplayLabel: "Taipei, Taiwan"}},
		{"Viti Levu west of the antimeridian is Fiji", -17.7134, 178.065, geocode.Place{
			Country: "Fiji", CountryCode: "FJ", State: "Western", PlaceName: "Western", DisplayLabel: "Western, Fiji"}},
		{"the South Pole is Antarctica", -90, 0, geocode.Place{
			Country: "Antarctica", CountryCode: "AQ", State: "Antarctica", PlaceName: "Antarctica", DisplayLabel: "Antarctica"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := world.Lookup(c.lat, c.lon)
			require.True(t, ok)
			require.Equal(t, c.want, got)
		})
	}
}

// TestLookupCountry checks only the country where the rest is the data's
// business: near borders, where an urban area spills over one (Basel's
// reaches into France, Detroit's into Canada), and across the antimeridian.
func TestLookupCountry(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name     string
		lat, lon float64
		code     string
	}{
		{"Basel is in Switzerland", 47.5596, 7.5886, "CH"},
		{"Saint-Louis, a few km away, is in France", 47.5896, 7.5589, "FR"},
		{"Detroit is in the US", 42.3314, -83.0458, "US"},
		{"Windsor across the river is in Canada", 42.3149, -83.0364, "CA"},
		{"El Paso is in the US", 31.7619, -106.4850, "US"},
		{"Ciudad Juárez is in Mexico", 31.6904, -106.4245, "MX"},
		{"Chukotka west of the antimeridian is Russia", 66.0, 179.5, "RU"},
		{"Chukotka east of the antimeridian is Russia", 67.5, -178.0, "RU"},
		{"Fiji's Lau islands east of the antimeridian are Fiji", -17.25, -178.95, "FJ"},
		{"Pristina gets XK", 42.6629, 21.1655, "XK"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := world.Lookup(c.lat, c.lon)
			require.True(t, ok)
			require.Equal(t, c.code, got.CountryCode, "%+v", got)
		})
	}
}

func TestLookupNowhere(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name     string
		lat, lon float64
	}{
		{"Null Island is at sea", 0, 0},
		{"the North Pole is sea ice", 90, 0},
		{"mid-Pacific is sea", -30, -140},
		{"mid-Atlantic is sea", 30, -40},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := world.Lookup(c.lat, c.lon)
			require.False(t, ok, "%+v", got)
			require.Equal(t, geocode.Place{}, got)
		})
	}
}
