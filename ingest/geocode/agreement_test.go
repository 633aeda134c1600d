package geocode

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// rgeoAnswer is one line of testdata/rgeo_answers.tsv: what rgeo, which
// this package used before it had its own index, answered for a position.
type rgeoAnswer struct {
	kind     string // land, sea or urban (in an urban area's bounding box)
	lat, lon float64
	found    bool
	place    Place
}

func readRgeoAnswers(t *testing.T) []rgeoAnswer {
	t.Helper()
	f, err := os.Open("testdata/rgeo_answers.tsv")
	require.NoError(t, err)
	defer f.Close()
	var answers []rgeoAnswer
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		require.Len(t, c, 10, sc.Text())
		a := rgeoAnswer{kind: c[0], found: c[3] == "1"}
		a.lat, err = strconv.ParseFloat(c[1], 64)
		require.NoError(t, err)
		a.lon, err = strconv.ParseFloat(c[2], 64)
		require.NoError(t, err)
		if a.found {
			a.place = newPlace(record{country: c[4], countryLong: c[5], countryCode2: c[6], province: c[7], provinceCode: c[8], city: c[9]})
		}
		answers = append(answers, a)
	}
	require.NoError(t, sc.Err())
	require.Len(t, answers, 5000)
	return answers
}

// TestLookupAgreesWithRgeo compares lookups with rgeo's answers for 3,000
// random land positions, 500 at sea and 1,500 in and around urban areas,
// and logs the agreement field by field and the positions that differ.
// They differ near boundaries: by the index's rounding (2⁻¹⁵°, 3.4 m), and
// where a long straight boundary segment runs, which rgeo draws as a great
// circle and the index as a straight line in longitude and latitude.
func TestLookupAgreesWithRgeo(t *testing.T) {
	d, err := shipped()
	require.NoError(t, err)
	type tally struct{ n, found, country, code, state, city, place int }
	tallies := map[string]*tally{}
	for _, a := range readRgeoAnswers(t) {
		// The admin areas alone: rgeo knew no towns.
		r, ok := lookupAdmin(d.admin, a.lat, a.lon)
		got := newPlace(r)
		if !ok {
			got = Place{}
		}
		s := tallies[a.kind]
		if s == nil {
			s = &tally{}
			tallies[a.kind] = s
		}
		s.n++
		count := func(n *int, same bool) {
			if same {
				*n++
			}
		}
		count(&s.found, ok == a.found)
		count(&s.country, got.Country == a.place.Country)
		count(&s.code, got.CountryCode == a.place.CountryCode)
		count(&s.state, got.State == a.place.State)
		count(&s.city, got.City == a.place.City)
		count(&s.place, got == a.place)
		if got != a.place {
			t.Logf("%s %.6f,%.6f: rgeo %q, index %q", a.kind, a.lat, a.lon, a.place.DisplayLabel+" / "+a.place.State, got.DisplayLabel+" / "+got.State)
		}
	}
	for _, kind := range []string{"land", "sea", "urban"} {
		s := tallies[kind]
		pct := func(n int) float64 { return 100 * float64(n) / float64(s.n) }
		t.Logf("%-5s %4d positions: found %.2f%%, country %.2f%%, code %.2f%%, state %.2f%%, city %.2f%%, whole place %.2f%%",
			kind, s.n, pct(s.found), pct(s.country), pct(s.code), pct(s.state), pct(s.city), pct(s.place))
		require.GreaterOrEqual(t, pct(s.place), 99.0, kind)
	}
}
