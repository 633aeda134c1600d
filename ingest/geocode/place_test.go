package geocode

import (
	"math"
	"sync"
	"testing"

	"github.com/sams96/rgeo"
	"github.com/stretchr/testify/require"
)

func TestNewPlace(t *testing.T) {
	cases := []struct {
		name   string
		region rgeo.Location
		city   string
		want   Place
	}{
		{
			"a city is the place name and labels with the country",
			rgeo.Location{Country: "Japan", CountryCode2: "JP", Province: "Kyōto", ProvinceCode: "JP-26"},
			"Kyoto",
			Place{Country: "Japan", CountryCode: "JP", State: "Kyōto", City: "Kyoto", PlaceName: "Kyoto", DisplayLabel: "Kyoto, Japan"},
		},
		{
			"without a city the state labels",
			rgeo.Location{Country: "Fiji", CountryCode2: "FJ", Province: "Western", ProvinceCode: "FJ-W"},
			"",
			Place{Country: "Fiji", CountryCode: "FJ", State: "Western", PlaceName: "Western", DisplayLabel: "Western, Fiji"},
		},
		{
			"a country alone labels alone",
			rgeo.Location{Country: "Antarctica", CountryCode2: "AQ"},
			"",
			Place{Country: "Antarctica", CountryCode: "AQ", PlaceName: "Antarctica", DisplayLabel: "Antarctica"},
		},
		{
			"France's -99 code comes from its department's ISO 3166-2 code",
			rgeo.Location{Country: "France", CountryCode2: "-99", CountryCode3: "-99", Province: "Paris", ProvinceCode: "FR-75"},
			"Paris",
			Place{Country: "France", CountryCode: "FR", State: "Paris", City: "Paris", PlaceName: "Paris", DisplayLabel: "Paris, France"},
		},
		{
			"Taiwan's CN-TW code becomes TW",
			rgeo.Location{Country: "Taiwan", CountryCode2: "CN-TW", Province: "Taipei City", ProvinceCode: "TW-TPE"},
			"Taipei",
			Place{Country: "Taiwan", CountryCode: "TW", State: "Taipei City", City: "Taipei", PlaceName: "Taipei", DisplayLabel: "Taipei, Taiwan"},
		},
		{
			"an area without any ISO code has none",
			rgeo.Location{Country: "Somaliland", CountryCode2: "-99", Province: "Awdal", ProvinceCode: "-99"},
			"",
			Place{Country: "Somaliland", State: "Awdal", PlaceName: "Awdal", DisplayLabel: "Awdal, Somaliland"},
		},
		{
			"a city named like its country is not repeated",
			rgeo.Location{Country: "Singapore", CountryCode2: "SG"},
			"Singapore",
			Place{Country: "Singapore", CountryCode: "SG", City: "Singapore", PlaceName: "Singapore", DisplayLabel: "Singapore"},
		},
		{
			"a city over water, outside every country, labels alone",
			rgeo.Location{},
			"Sydney1",
			Place{City: "Sydney", PlaceName: "Sydney", DisplayLabel: "Sydney"},
		},
		{
			"the formal name stands in for a missing common name",
			rgeo.Location{CountryLong: "French Republic", CountryCode2: "FR"},
			"",
			Place{Country: "French Republic", CountryCode: "FR", PlaceName: "French Republic", DisplayLabel: "French Republic"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, newPlace(c.region, c.city))
		})
	}
}

func TestCityName(t *testing.T) {
	cases := map[string]string{
		"Paris":          "Paris",
		"Sydney1":        "Sydney",
		"Aberdeen3":      "Aberdeen",
		"Bowling Green2": "Bowling Green",
		"DÌùsseldorf":    "Düsseldorf",
		"ZÌùrich":        "Zürich",
		"Ciudad JuÌÁrez": "Ciudad Juárez",
		"JaÌ©n":          "Jaén",
		"DamanhÌÈr":      "Damanhûr",
		"St. John‰Ûªs":   "St. John’s",
		"":               "",
	}
	for raw, want := range cases {
		require.Equal(t, want, cityName(raw), raw)
	}
}

// small is a Geocoder on rgeo's 1:110m countries, which load in well under
// a second even under the race detector, so that the locking is checked
// where the 1:10m data would take minutes.
func small() *Geocoder {
	return &Geocoder{regionData: rgeo.Countries110, cityData: rgeo.Countries110}
}

func TestLookupIsSafeForConcurrentUse(t *testing.T) {
	g := small()
	points := [][2]float64{{48.8566, 2.3522}, {35.6762, 139.6503}, {-33.8688, 151.2093}, {0, 0}, {40.7128, -74.0060}}
	want := make([]Place, len(points))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				p := points[(i+w)%len(points)]
				g.Lookup(p[0], p[1])
			}
		}()
	}
	wg.Wait()
	for i, p := range points {
		want[i], _ = g.Lookup(p[0], p[1])
	}
	require.Equal(t, "JP", want[1].CountryCode)
	require.Equal(t, "AU", want[2].CountryCode)
	require.Equal(t, Place{}, want[3], "Null Island is at sea")
}

func TestLookupRejectsInvalidPositions(t *testing.T) {
	g := small()
	for _, p := range [][2]float64{{math.NaN(), 0}, {0, math.NaN()}, {91, 0}, {-90.5, 0}, {0, 180.1}, {0, math.Inf(-1)}} {
		_, ok := g.Lookup(p[0], p[1])
		require.False(t, ok, "%v", p)
	}
}

func TestLoadReportsBadData(t *testing.T) {
	g := &Geocoder{regionData: func() []byte { return []byte("not gzip") }, cityData: rgeo.Countries110}
	require.ErrorContains(t, g.Load(), "load provinces")
	require.Error(t, g.Load(), "the error is kept")
	_, ok := g.Lookup(48.8566, 2.3522)
	require.False(t, ok)
}
