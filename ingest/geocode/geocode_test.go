package geocode_test

import (
	"math"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/geocode"
)

// world is loaded once for every test and benchmark of this file's package.
var world = geocode.New()

// TestLoad loads the data (when no test before it did) and logs the time
// and memory it took.
func TestLoad(t *testing.T) {
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
		{"lower Manhattan is New York City", 40.7128, -74.0060, geocode.Place{
			Country: "United States of America", CountryCode: "US", State: "New York", City: "New York City", PlaceName: "New York City",
			DisplayLabel: "New York City, United States of America"}},
		{"Sydney loses the data's numbering", -33.8688, 151.2093, geocode.Place{
			Country: "Australia", CountryCode: "AU", State: "New South Wales", City: "Sydney", PlaceName: "Sydney", DisplayLabel: "Sydney, Australia"}},
		{"Reykjavík is in Iceland, spelt as GeoNames does", 64.1466, -21.9426, geocode.Place{
			Country: "Iceland", CountryCode: "IS", State: "Reykjavík", City: "Reykjavík", PlaceName: "Reykjavík", DisplayLabel: "Reykjavík, Iceland"}},
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
		// rgeo found nothing there.
		{"the South Pole seen from the antimeridian is Antarctica", -90, 180, geocode.Place{
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
		{"Strasbourg is in France", 48.5734, 7.7521, "FR"},
		{"Kehl across the Rhine is in Germany", 48.5724, 7.8156, "DE"},
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

// TestLookupFollowsStraightBorders: Natural Earth draws boundaries as
// straight lines in longitude and latitude, and so does the index. rgeo
// drew them as great circles, which bow towards the pole on long east-west
// segments: it put both of these positions south of the line (Zhambyl,
// Komi), kilometres from where the data and the real border have it.
func TestLookupFollowsStraightBorders(t *testing.T) {
	cases := []struct {
		name     string
		lat, lon float64
		state    string
	}{
		{"north of the 46th-parallel border in Kazakhstan is Qaraghandy", 45.96, 71.68, "Qaraghandy"},
		{"south of it is Zhambyl", 45.93, 71.68, "Zhambyl"},
		{"north of the 67th-parallel border in Russia is Nenets", 67.005, 56.3, "Nenets"},
		{"south of it is Komi", 66.99, 56.3, "Komi"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := world.Lookup(c.lat, c.lon)
			require.True(t, ok)
			require.Equal(t, c.state, got.State, "%+v", got)
		})
	}
}

func TestLookupNowhere(t *testing.T) {
	cases := []struct {
		name     string
		lat, lon float64
	}{
		{"Null Island is at sea", 0, 0},
		{"the North Pole is sea ice", 90, 0},
		{"the North Pole seen from the antimeridian is sea ice", 90, -180},
		{"mid-Pacific is sea", -30, -140},
		{"mid-Atlantic is sea", 30, -40},
		{"the antimeridian north of Fiji is sea", -10, 180},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := world.Lookup(c.lat, c.lon)
			require.False(t, ok, "%+v", got)
			require.Equal(t, geocode.Place{}, got)
		})
	}
}

func TestLookupRejectsInvalidPositions(t *testing.T) {
	for _, p := range [][2]float64{{math.NaN(), 0}, {0, math.NaN()}, {91, 0}, {-90.5, 0}, {0, 180.1}, {0, math.Inf(-1)}} {
		got, ok := world.Lookup(p[0], p[1])
		require.False(t, ok, "%v", p)
		require.Equal(t, geocode.Place{}, got)
	}
}

// TestLookupEverywhere sweeps the globe, its edges included, every 0.7°:
// no position makes a lookup panic.
func TestLookupEverywhere(t *testing.T) {
	found := 0
	for lat := -90.0; lat <= 90; lat += 0.7 {
		for _, lon := range []float64{-180, -179.9999999, 179.9999999, 180} {
			world.Lookup(lat, lon)
		}
		for lon := -180.0; lon <= 180; lon += 0.7 {
			if _, ok := world.Lookup(lat, lon); ok {
				found++
			}
		}
	}
	for _, lon := range []float64{-180, 0, 180} {
		world.Lookup(90, lon)
		world.Lookup(-90, lon)
	}
	// Land, Antarctica included, is about 29% of the Earth's surface; on a
	// grid of degrees the poles weigh more.
	require.InDelta(t, 0.33, float64(found)/float64(258*515), 0.05)
}

func TestLookupIsSafeForConcurrentUse(t *testing.T) {
	g := geocode.New()
	points := [][2]float64{{48.8566, 2.3522}, {35.6762, 139.6503}, {-33.8688, 151.2093}, {0, 0}, {40.7128, -74.0060}}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				p := points[(i+w)%len(points)]
				g.Lookup(p[0], p[1])
			}
		})
	}
	wg.Wait()
	want := make([]geocode.Place, len(points))
	for i, p := range points {
		want[i], _ = g.Lookup(p[0], p[1])
	}
	require.Equal(t, "JP", want[1].CountryCode)
	require.Equal(t, "AU", want[2].CountryCode)
	require.Equal(t, geocode.Place{}, want[3], "Null Island is at sea")
}
