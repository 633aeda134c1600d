package video

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseISO6709(t *testing.T) {
	alt := func(v float64) *float64 { return &v }
	cases := []struct {
		name string
		in   string
		want position
		ok   bool
	}{
		{"degrees as ffmpeg writes them", "+48.8584+002.2945/", position{lat: 48.8584, lon: 2.2945}, true},
		{"degrees with altitude as an iPhone writes them", "+35.0116+135.7681+042.500/", position{lat: 35.0116, lon: 135.7681, alt: alt(42.5)}, true},
		{"southern and western hemispheres", "-33.8688-070.6693/", position{lat: -33.8688, lon: -70.6693}, true},
		{"below sea level", "+31.5590+035.4732-430.500/", position{lat: 31.559, lon: 35.4732, alt: alt(-430.5)}, true},
		{"without the closing slash", "+48.8584+002.2945", position{lat: 48.8584, lon: 2.2945}, true},
		{"with a CRS suffix", "+27.5916+086.5640+8850CRSWGS_84/", position{lat: 27.5916, lon: 86.564, alt: alt(8850)}, true},
		{"integer degrees", "+48+002/", position{lat: 48, lon: 2}, true},
		{"degrees and minutes", "+4851.504+00217.670/", position{lat: 48 + 51.504/60, lon: 2 + 17.67/60}, true},
		{"degrees, minutes and seconds", "-335207.68+1511233.48/", position{lat: -(33 + 52/60.0 + 7.68/3600), lon: 151 + 12/60.0 + 33.48/3600}, true},
		{"surrounding space", "  +48.8584+002.2945/ ", position{lat: 48.8584, lon: 2.2945}, true},
		{"empty", "", position{}, false},
		{"no sign", "48.8584+002.2945/", position{}, false},
		{"one number", "+48.8584/", position{}, false},
		{"four numbers", "+48.8+002.2+35+1/", position{}, false},
		{"latitude past the pole", "+91.0000+002.2945/", position{}, false},
		{"longitude past the antimeridian", "+48.0000+180.5000/", position{}, false},
		{"sixty minutes", "+4860.000+00217.670/", position{}, false},
		{"three-digit latitude", "+048.8584+002.2945/", position{}, false},
		{"exponent", "+4e1+002.2945/", position{}, false},
		{"infinity", "+Inf+002.2945/", position{}, false},
		{"letters in the altitude", "+48.8584+002.2945+abc/", position{}, false},
		{"two decimal points", "+48.85.84+002.2945/", position{}, false},
		{"a bare sign", "+-/", position{}, false},
		{"comma-separated", "48.8584,2.2945", position{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := parseISO6709(c.in)
			require.Equal(t, c.ok, ok)
			require.InDelta(t, c.want.lat, got.lat, 1e-9)
			require.InDelta(t, c.want.lon, got.lon, 1e-9)
			if c.want.alt == nil {
				require.Nil(t, got.alt)
			} else {
				require.NotNil(t, got.alt)
				require.InDelta(t, *c.want.alt, *got.alt, 1e-9)
			}
		})
	}
}

// FuzzParseISO6709 checks that no input panics, that every accepted
// position is finite and in range, and that what ffmpeg would write for a
// position parses back to it.
func FuzzParseISO6709(f *testing.F) {
	for _, s := range []string{
		"+48.8584+002.2945/", "+35.0116+135.7681+042.500/", "-335207.68+1511233.48/",
		"+4851.504+00217.670/", "+27.5916+086.5640+8850CRSWGS_84/", "", "+", "+-", "+1.+1./",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := parseISO6709(s)
		if !ok {
			return
		}
		if !(math.Abs(p.lat) <= 90 && math.Abs(p.lon) <= 180) {
			t.Fatalf("%q: out of range %v, %v", s, p.lat, p.lon)
		}
		if p.alt != nil && (math.IsNaN(*p.alt) || math.IsInf(*p.alt, 0)) {
			t.Fatalf("%q: altitude %v", s, *p.alt)
		}
		again, ok := parseISO6709(fmt.Sprintf("%+08.4f%+09.4f/", p.lat, p.lon))
		if !ok || math.Abs(again.lat-p.lat) > 6e-5 || math.Abs(again.lon-p.lon) > 6e-5 {
			t.Fatalf("%q: %v, %v does not round-trip: %v %v", s, p.lat, p.lon, again, ok)
		}
	})
}
