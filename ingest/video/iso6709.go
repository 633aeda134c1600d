package video

import (
	"math"
	"strconv"
	"strings"
)

// position is a point parsed from an ISO 6709 string, in decimal degrees
// and metres; alt is nil when the string has no altitude.
type position struct {
	lat, lon float64
	alt      *float64
}

// parseISO6709 parses the ISO 6709 point strings cameras put in QuickTime
// metadata: "+48.8584+002.2945/", "+48.8584+002.2945+035.000/", also in the
// degree-minute (±DDMM.M±DDDMM.M) and degree-minute-second
// (±DDMMSS.S±DDDMMSS.S) forms, with an optional "CRS…" suffix and with or
// without the closing "/". ok is false for anything else and for positions
// out of range.
func parseISO6709(s string) (position, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "/")
	if i := strings.Index(s, "CRS"); i >= 0 {
		s = s[:i]
	}
	parts := splitSigned(s)
	if len(parts) != 2 && len(parts) != 3 {
		return position{}, false
	}
	lat, ok := angle(parts[0], 2)
	if !ok || math.Abs(lat) > 90 {
		return position{}, false
	}
	lon, ok := angle(parts[1], 3)
	if !ok || math.Abs(lon) > 180 {
		return position{}, false
	}
	p := position{lat: lat, lon: lon}
	if len(parts) == 3 {
		alt, ok := decimal(parts[2][1:])
		if !ok {
			return position{}, false
		}
		if parts[2][0] == '-' {
			alt = -alt
		}
		p.alt = &alt
	}
	return p, true
}

// splitSigned splits "+48.8-002.2+35" into "+48.8", "-002.2", "+35"; nil
// when s does not start with a sign.
func splitSigned(s string) []string {
	if s == "" || (s[0] != '+' && s[0] != '-') {
		return nil
	}
	var parts []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] == '+' || s[i] == '-' {
			parts = append(parts, s[start:i])
			start = i
		}
	}
	return append(parts, s[start:])
}

// angle parses a signed latitude (degDigits 2) or longitude (degDigits 3)
// in degrees, degrees-minutes or degrees-minutes-seconds, told apart by the
// number of digits before the decimal point.
func angle(part string, degDigits int) (float64, bool) {
	sign, body := part[0], part[1:]
	whole, _, _ := strings.Cut(body, ".")
	if _, ok := decimal(body); !ok {
		return 0, false
	}
	var deg, mins, secs float64
	var err error
	switch len(whole) {
	case degDigits:
		deg, err = strconv.ParseFloat(body, 64)
	case degDigits + 2:
		deg, _ = strconv.ParseFloat(body[:degDigits], 64)
		mins, err = strconv.ParseFloat(body[degDigits:], 64)
	case degDigits + 4:
		deg, _ = strconv.ParseFloat(body[:degDigits], 64)
		mins, _ = strconv.ParseFloat(body[degDigits:degDigits+2], 64)
		secs, err = strconv.ParseFloat(body[degDigits+2:], 64)
	default:
		return 0, false
	}
	if err != nil || mins >= 60 || secs >= 60 {
		return 0, false
	}
	v := deg + mins/60 + secs/3600
	if sign == '-' {
		v = -v
	}
	return v, true
}

// decimal parses digits with at most one decimal point and at least one
// digit before it ("035.000", "12", "7.5"). strconv.ParseFloat alone would
// also take "1e9", "Inf", "0x1p3" and underscores.
func decimal(s string) (float64, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || !allDigits(frac) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
