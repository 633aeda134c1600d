package towns

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// shipped decodes the committed town list.
func shipped(t testing.TB) *List {
	t.Helper()
	gz, err := os.ReadFile("../../towns.idx.gz")
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	l, err := Decode(raw)
	require.NoError(t, err)
	return l
}

// bruteNearest is Nearest without the grid: every town is scored.
func (l *List) bruteNearest(lat, lon float64, country string) (Town, bool) {
	y, x := float32(math.Round(lat*Scale)), float32(math.Round(lon*Scale))
	cos := float32(math.Cos(lat * math.Pi / 180))
	best, bestScore := -1, float32(1)
	for i := range l.towns {
		tw := &l.towns[i]
		if country != "" && l.countries[tw.country].Code != country {
			continue
		}
		dx := x - float32(tw.lon)
		if dx > 180*Scale {
			dx -= 360 * Scale
		} else if dx < -180*Scale {
			dx += 360 * Scale
		}
		dx *= cos
		dy := y - float32(tw.lat)
		score := (dx*dx + dy*dy) / (tw.reach * tw.reach)
		if score <= bestScore && (best < 0 || score < bestScore || tw.pop > l.towns[best].pop) {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return Town{}, false
	}
	return l.town(best), true
}

// TestNearestAgreesWithBruteForce: the grid and its pruning find the town
// that scoring every town finds, near towns (up to 60 km off one) and
// anywhere, with and without a country.
func TestNearestAgreesWithBruteForce(t *testing.T) {
	l := shipped(t)
	all := l.All()
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		var lat, lon float64
		if i%3 == 0 {
			lat, lon = math.Asin(2*rng.Float64()-1)*180/math.Pi, rng.Float64()*360-180
		} else {
			tw := all[rng.IntN(len(all))]
			d := rng.Float64() * 60 / kmPerDegree
			a := rng.Float64() * 2 * math.Pi
			lat = min(90, max(-90, float64(tw.Lat)/Scale+d*math.Sin(a)))
			lon = float64(tw.Lon)/Scale + d*math.Cos(a)/math.Max(0.05, math.Cos(lat*math.Pi/180))
			lon = math.Mod(lon+540, 360) - 180
		}
		country := ""
		if i%2 == 1 {
			country = all[rng.IntN(len(all))].Country
			if want, ok := l.bruteNearest(lat, lon, ""); ok && i%4 == 1 {
				country = want.Country
			}
		}
		want, wantOK := l.bruteNearest(lat, lon, country)
		got, ok := l.Nearest(lat, lon, country)
		require.Equal(t, wantOK, ok, "%.5f,%.5f %q", lat, lon, country)
		require.Equal(t, want, got, "%.5f,%.5f %q", lat, lon, country)
	}
}

func TestShippedListHasTheTowns(t *testing.T) {
	l := shipped(t)
	require.Greater(t, l.Len(), 130_000)
	got, ok := l.Nearest(28.39, -80.60, "US")
	require.True(t, ok)
	require.Equal(t, "Cape Canaveral", got.Name)
}
