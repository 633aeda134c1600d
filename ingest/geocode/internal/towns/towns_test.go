package towns

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func deg(v float64) int32 { return int32(v * Scale) }

var sample = []Town{
	{Lat: deg(47.5584), Lon: deg(7.5733), Population: 164488, Name: "Basel", Country: "CH"},
	{Lat: deg(47.5921), Lon: deg(7.5592), Population: 20871, Name: "Saint-Louis", Country: "FR"},
	{Lat: deg(-16.8), Lon: deg(179.95), Population: 5000, Name: "East of the line", Country: "FJ"},
	{Lat: deg(-16.8), Lon: deg(-180), Population: 1000, Name: "On the line", Country: "FJ"},
	{Lat: deg(89.9), Lon: deg(10), Population: 0, Name: "Pole", Country: "NO"},
}

var countries = []Country{{"CH", "Switzerland"}, {"FR", "France"}, {"FJ", "Fiji"}, {"NO", "Norway"}}

func decoded(t *testing.T, towns []Town) *List {
	t.Helper()
	raw, err := Encode(towns, countries)
	require.NoError(t, err)
	l, err := Decode(raw)
	require.NoError(t, err)
	return l
}

func TestEncodeIsDeterministicAndRoundTrips(t *testing.T) {
	a, err := Encode(sample, countries)
	require.NoError(t, err)
	reversed := []Town{sample[4], sample[3], sample[2], sample[1], sample[0]}
	b, err := Encode(reversed, []Country{countries[3], countries[2], countries[1], countries[0]})
	require.NoError(t, err)
	require.Equal(t, a, b, "the order given does not matter")
	l, err := Decode(a)
	require.NoError(t, err)
	require.Equal(t, len(sample), l.Len())
	require.ElementsMatch(t, sample, l.All())
}

func TestNearest(t *testing.T) {
	l := decoded(t, sample)
	cases := []struct {
		name     string
		lat, lon float64
		country  string
		want     string
	}{
		{"Basel's centre is Basel", 47.5596, 7.5886, "", "Basel"},
		{"beside Saint-Louis' centre is Saint-Louis, though Basel is bigger", 47.5900, 7.5600, "", "Saint-Louis"},
		{"between the two the bigger reaches deeper", 47.575, 7.566, "", "Basel"},
		{"the same place in France is Saint-Louis", 47.575, 7.566, "FR", "Saint-Louis"},
		{"a country without towns here has none", 47.575, 7.566, "DE", ""},
		{"west of the antimeridian finds the town east of it", -16.8, -179.99, "", "On the line"},
		{"and east of it the one west", -16.8, 179.999, "", "On the line"},
		{"a village reaches 5 km", 47.5921 + 4.5/111.2, 7.5592, "FR", "Saint-Louis"},
		{"near the pole the cells are many and narrow", 89.88, 14, "", "Pole"},
		{"60 km out there is nothing", 48.1, 7.57, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := l.Nearest(c.lat, c.lon, c.country)
			require.Equal(t, c.want != "", ok, "%+v", got)
			require.Equal(t, c.want, got.Name)
		})
	}
}

func TestReachKm(t *testing.T) {
	require.InDelta(t, 5, ReachKm(0), 1e-9)
	require.InDelta(t, 5, ReachKm(1000), 1e-9)
	require.InDelta(t, 8.9, ReachKm(10_000), 0.05)
	require.InDelta(t, 28.1, ReachKm(1_000_000), 0.05)
	require.Equal(t, float64(MaxReachKm), ReachKm(20_000_000))
}

func TestDecodeRejectsDamage(t *testing.T) {
	raw, err := Encode(sample, countries)
	require.NoError(t, err)
	for _, b := range [][]byte{nil, []byte("PCTOWNS1"), raw[:len(raw)-1], append(append([]byte{}, raw...), 0), []byte("PCTOWNS1\xff\xff\xff\xff\x0f")} {
		_, err := Decode(b)
		require.Error(t, err)
	}
}
