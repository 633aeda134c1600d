package exif

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// exiftool prints dates as "2024:05:01 10:00:00", optionally with
// fractional seconds and an offset ("2024:05:01 10:00:00.123+02:00", as XMP
// and Apple's QuickTime keys carry). Some writers use '-' and 'T' instead,
// and XMP may omit the seconds; both are accepted. A date without a time is
// not a capture time and is rejected.
var dateTimePattern = regexp.MustCompile(
	`^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.(\d+))?\s*(Z|[+-]\d{2}:?\d{2})?$`)

// offsetPattern matches OffsetTimeOriginal and friends: "+02:00", "-05:30",
// "Z"; "+0200" from careless writers too.
var offsetPattern = regexp.MustCompile(`^(?:Z|([+-])(\d{2}):?(\d{2}))$`)

// parseDateTime reads an exiftool date. wall holds the recorded reading in
// the UTC location; offset (seconds east of UTC) is non-nil when the string
// carries one. ok is false for zero dates ("0000:00:00 00:00:00"), blank
// placeholders and impossible dates ("2024:02:30 …").
func parseDateTime(s string) (wall time.Time, offset *int, ok bool) {
	m := dateTimePattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}, nil, false
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	y, mo, d, h, mi, sec := n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6])
	wall = time.Date(y, time.Month(mo), d, h, mi, sec, fraction(m[7]), time.UTC)
	if y == 0 || wall.Year() != y || int(wall.Month()) != mo || wall.Day() != d ||
		wall.Hour() != h || wall.Minute() != mi || wall.Second() != sec {
		return time.Time{}, nil, false
	}
	if m[8] != "" {
		off, valid := parseOffset(m[8])
		if !valid {
			return time.Time{}, nil, false
		}
		offset = &off
	}
	return wall, offset, true
}

// parseOffset reads a UTC offset as seconds east of UTC.
func parseOffset(s string) (int, bool) {
	m := offsetPattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	if m[1] == "" {
		return 0, true // "Z"
	}
	h, _ := strconv.Atoi(m[2])
	mi, _ := strconv.Atoi(m[3])
	if h > 14 || mi > 59 || h == 14 && mi > 0 { // +14:00 is the easternmost offset
		return 0, false
	}
	off := h*3600 + mi*60
	if m[1] == "-" {
		off = -off
	}
	return off, true
}

// fraction turns the digits after a decimal point ("123", "05") into
// nanoseconds. SubSecTime* tags hold the same digits without the point.
func fraction(digits string) int {
	end := 0
	for end < len(digits) && end < 9 && digits[end] >= '0' && digits[end] <= '9' {
		end++
	}
	if end == 0 {
		return 0
	}
	ns, _ := strconv.Atoi(digits[:end] + strings.Repeat("0", 9-end))
	return ns
}

// formatDateTime renders a reading as RFC 3339 when its offset is known
// ("2024-05-01T10:00:00.123+02:00", "…Z" for 0) and without one otherwise
// ("2024-05-01T10:00:00"). Fractional seconds appear only when recorded.
func formatDateTime(wall time.Time, offset *int) string {
	if offset == nil {
		return wall.Format("2006-01-02T15:04:05.999999999")
	}
	return inZone(wall, *offset).Format(time.RFC3339Nano)
}

// inZone places a wall-clock reading at a fixed offset, keeping its fields.
func inZone(wall time.Time, offset int) time.Time {
	y, mo, d := wall.Date()
	h, mi, s := wall.Clock()
	return time.Date(y, mo, d, h, mi, s, wall.Nanosecond(), time.FixedZone("", offset))
}

// wallOf returns t's wall-clock fields in the UTC location.
func wallOf(t time.Time) time.Time {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return time.Date(y, mo, d, h, mi, s, t.Nanosecond(), time.UTC)
}
