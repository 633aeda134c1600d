package geocode

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNewPlace(t *testing.T) {
	cases := []struct {
		name   string
		record record
		want   Place
	}{
		{
			"a city is the place name and labels with the country",
			record{country: "Japan", countryCode2: "JP", province: "Kyōto", provinceCode: "JP-26", city: "Kyoto"},
			Place{Country: "Japan", CountryCode: "JP", State: "Kyōto", City: "Kyoto", PlaceName: "Kyoto", DisplayLabel: "Kyoto, Japan"},
		},
		{
			"without a city the state labels",
			record{country: "Fiji", countryCode2: "FJ", province: "Western", provinceCode: "FJ-W"},
			Place{Country: "Fiji", CountryCode: "FJ", State: "Western", PlaceName: "Western", DisplayLabel: "Western, Fiji"},
		},
		{
			"a country alone labels alone",
			record{country: "Antarctica", countryCode2: "AQ"},
			Place{Country: "Antarctica", CountryCode: "AQ", PlaceName: "Antarctica", DisplayLabel: "Antarctica"},
		},
		{
			"France's -99 code comes from its department's ISO 3166-2 code",
			record{country: "France", countryCode2: "-99", province: "Paris", provinceCode: "FR-75", city: "Paris"},
			Place{Country: "France", CountryCode: "FR", State: "Paris", City: "Paris", PlaceName: "Paris", DisplayLabel: "Paris, France"},
		},
		{
			"Taiwan's CN-TW code becomes TW",
			record{country: "Taiwan", countryCode2: "CN-TW", province: "Taipei City", provinceCode: "TW-TPE", city: "Taipei"},
			Place{Country: "Taiwan", CountryCode: "TW", State: "Taipei City", City: "Taipei", PlaceName: "Taipei", DisplayLabel: "Taipei, Taiwan"},
		},
		{
			"an area without any ISO code has none",
			record{country: "Somaliland", countryCode2: "-99", province: "Awdal", provinceCode: "-99"},
			Place{Country: "Somaliland", State: "Awdal", PlaceName: "Awdal", DisplayLabel: "Awdal, Somaliland"},
		},
		{
			"a city named like its country is not repeated",
			record{country: "Singapore", countryCode2: "SG", city: "Singapore"},
			Place{Country: "Singapore", CountryCode: "SG", City: "Singapore", PlaceName: "Singapore", DisplayLabel: "Singapore"},
		},
		{
			"a city over water, outside every country, labels alone",
			record{city: "Sydney1"},
			Place{City: "Sydney", PlaceName: "Sydney", DisplayLabel: "Sydney"},
		},
		{
			"the formal name stands in for a missing common name",
			record{countryLong: "French Republic", countryCode2: "FR"},
			Place{Country: "French Republic", CountryCode: "FR", PlaceName: "French Republic", DisplayLabel: "French Republic"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, newPlace(c.record))
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

func TestFillKeepsTheFirstAnswer(t *testing.T) {
	var r record
	r.fill([]string{"France", "", "", "Paris", "FR-75", ""})             // the region
	r.fill([]string{"Frankreich", "French Republic", "-99", "", "", ""}) // its country
	r.fill([]string{"", "", "", "", "", "Paris"})                        // the urban area
	require.Equal(t, record{country: "France", countryLong: "French Republic", countryCode2: "-99",
		province: "Paris", provinceCode: "FR-75", city: "Paris"}, r)
}
