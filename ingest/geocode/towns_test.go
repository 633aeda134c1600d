package geocode_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/geocode"
)

// TestLookupNamesTheNearestTown: the town is the place name and labels
// with the country; the state and country stay the admin areas'.
func TestLookupNamesTheNearestTown(t *testing.T) {
	cases := []struct {
		name     string
		lat, lon float64
		want     geocode.Place
	}{
		{"Cape Canaveral is Cape Canaveral, not Florida", 28.39, -80.60, geocode.Place{
			Country: "United States of America", CountryCode: "US", State: "Florida", City: "Cape Canaveral",
			PlaceName: "Cape Canaveral", DisplayLabel: "Cape Canaveral, United States of America"}},
		{"the launch pads beyond the coastline are Cape Canaveral too, in the US", 28.45, -80.53, geocode.Place{
			Country: "United States of America", CountryCode: "US", City: "Cape Canaveral",
			PlaceName: "Cape Canaveral", DisplayLabel: "Cape Canaveral, United States of America"}},
		{"the Louvre is Paris, not a suburb", 48.8606, 2.3376, geocode.Place{
			Country: "France", CountryCode: "FR", State: "Paris", City: "Paris", PlaceName: "Paris", DisplayLabel: "Paris, France"}},
		{"Shibuya is Tokyo", 35.6580, 139.7016, geocode.Place{
			Country: "Japan", CountryCode: "JP", State: "Tokyo", City: "Tokyo", PlaceName: "Tokyo", DisplayLabel: "Tokyo, Japan"}},
		{"Alexanderplatz is Berlin", 52.52, 13.405, geocode.Place{
			Country: "Germany", CountryCode: "DE", State: "Berlin", City: "Berlin", PlaceName: "Berlin", DisplayLabel: "Berlin, Germany"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := world.Lookup(c.lat, c.lon)
			require.True(t, ok)
			require.Equal(t, c.want, got)
		})
	}
}

// TestLookupTownStaysInTheCountry: near a border the town is one of the
// country the position is in, where a bigger or nearer one across the
// border would otherwise win.
func TestLookupTownStaysInTheCountry(t *testing.T) {
	cases := []struct {
		name       string
		lat, lon   float64
		town, code string
	}{
		{"Windsor's riverside faces Detroit's centre but is Windsor", 42.3149, -83.0364, "Windsor", "CA"},
		{"the French bank of the Rhine facing Kehl is Strasbourg", 48.58, 7.80, "Strasbourg", "FR"},
		{"Kehl across the Rhine is Kehl", 48.5724, 7.8156, "Kehl", "DE"},
		{"north of the fence at Tijuana is Chula Vista", 32.54, -117.03, "Chula Vista", "US"},
		{"south of the Rio Grande at El Paso is Juárez", 31.7400, -106.46, "Juárez", "MX"},
		{"Saint-Louis is in France, Basel beside it in Switzerland", 47.5896, 7.5589, "Saint-Louis", "FR"},
		{"Basel's old town is Basel", 47.5596, 7.5886, "Basel", "CH"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := world.Lookup(c.lat, c.lon)
			require.True(t, ok)
			require.Equal(t, c.town, got.City, "%+v", got)
			require.Equal(t, c.code, got.CountryCode, "%+v", got)
		})
	}
}

// TestLookupNoTownFarOut: far from any town there is none, on land (the
// admin areas still answer) or at sea (nothing does).
func TestLookupNoTownFarOut(t *testing.T) {
	for _, p := range [][2]float64{{30, -40}, {0, -150}, {-45, 90}} {
		got, ok := world.Lookup(p[0], p[1])
		require.False(t, ok, "%v: %+v", p, got)
	}
	got, ok := world.Lookup(-80, 0) // inland Antarctica
	require.True(t, ok)
	require.Equal(t, geocode.Place{Country: "Antarctica", CountryCode: "AQ", State: "Antarctica", PlaceName: "Antarctica",
		DisplayLabel: "Antarctica"}, got)
}

func TestDataVersionNamesTheData(t *testing.T) {
	v := geocode.DataVersion()
	require.Len(t, v, 16)
	require.Equal(t, v, geocode.DataVersion())
}
