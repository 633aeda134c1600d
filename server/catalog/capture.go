package catalog

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// CaptureTime is when a photo was taken: the camera's wall-clock reading and,
// when the device recorded it, its offset from UTC.
//
// Stores keep Wall as int64 Unix microseconds (WallMicros) and Offset as a
// nullable integer; Instant is derived and may be stored beside them for
// indexing.
type CaptureTime struct {
	// Wall is the local wall-clock reading encoded as if it were UTC: for a
	// photo taken at 10:00 in Paris, Wall is 10:00Z whatever the offset.
	Wall time.Time
	// Offset is the offset in seconds east of UTC, nil when unknown.
	Offset *int
}

// Instant is the absolute time the photo was taken: Wall minus Offset. When
// the offset is unknown the wall-clock reading is taken as if it were UTC
// (decisions.md, "Conventions made precise").
func (c CaptureTime) Instant() time.Time {
	if c.Offset == nil {
		return c.Wall.UTC()
	}
	return c.Wall.UTC().Add(-time.Duration(*c.Offset) * time.Second)
}

// WallMicros is Wall in Unix microseconds, the stored form. Sub-microsecond
// digits are dropped (floor).
func (c CaptureTime) WallMicros() int64 { return c.Wall.UnixMicro() }

// InstantMicros is Instant in Unix microseconds, the stored form of the
// comparison key for offset-aware filters.
func (c CaptureTime) InstantMicros() int64 { return c.Instant().UnixMicro() }

// String formats c in RFC 3339: with the offset when it is known
// ("2024-05-01T10:00:00+02:00", "Z" for a zero offset, as Go's RFC 3339
// formatting writes it), without one when it is not ("2024-05-01T10:00:00").
// Fractional seconds appear only when non-zero. RFC 3339 offsets have no
// seconds field, so an offset that is not a whole number of minutes is
// written truncated to the minute; ParseCaptureTime never produces one.
func (c CaptureTime) String() string {
	s := c.Wall.UTC().Format("2006-01-02T15:04:05.999999999")
	if c.Offset == nil {
		return s
	}
	off := *c.Offset
	if off == 0 {
		return s + "Z"
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%s%c%02d:%02d", s, sign, off/3600, off/60%60)
}

// ParseCaptureTime reads a capture time. It accepts RFC 3339 with "Z" or a
// ±hh:mm offset ("2024-05-01T10:00:00.5+02:00"), the same without an offset
// for a wall-clock reading whose offset is unknown ("2024-05-01T10:00:00").
// A date alone is not a capture time (ParseCaptureRange accepts one as a
// bound). Date and time may be separated by "T", "t" or a space; "z" stands
// for "Z"; "-00:00" reads as a zero offset; the fraction has 1 to 9 digits;
// offsets run to ±23:59 as RFC 3339 allows. Anything else is an error, which
// callers wrap into the validation error of their field.
func ParseCaptureTime(s string) (CaptureTime, error) {
	c, err := parseCaptureTime(s)
	if err != nil {
		return CaptureTime{}, fmt.Errorf("parse capture time %q: %w", s, err)
	}
	return c, nil
}

func parseCaptureTime(s string) (CaptureTime, error) {
	const dateLen, dateTimeLen = len("2006-01-02"), len("2006-01-02T15:04:05")
	if len(s) < dateLen {
		return CaptureTime{}, errors.New("want a date-time such as 2024-05-01T10:00:00")
	}
	y, ok1 := digits(s[0:4])
	mo, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || s[4] != '-' || s[7] != '-' {
		return CaptureTime{}, errors.New("the date must be YYYY-MM-DD")
	}
	if mo < 1 || mo > 12 || d < 1 || d > daysIn(time.Month(mo), y) {
		return CaptureTime{}, errors.New("no such date")
	}
	if len(s) < dateTimeLen || !strings.ContainsRune("Tt ", rune(s[10])) {
		return CaptureTime{}, errors.New("the time must follow the date as THH:MM:SS")
	}
	h, ok1 := digits(s[11:13])
	mi, ok2 := digits(s[14:16])
	sec, ok3 := digits(s[17:19])
	if !ok1 || !ok2 || !ok3 || s[13] != ':' || s[16] != ':' {
		return CaptureTime{}, errors.New("the time must be HH:MM:SS")
	}
	if h > 23 || mi > 59 || sec > 59 {
		return CaptureTime{}, errors.New("hour, minute or second out of range")
	}
	rest, nsec := s[dateTimeLen:], 0
	if rest != "" && rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 || n > 10 {
			return CaptureTime{}, errors.New("the fraction of a second must have 1 to 9 digits")
		}
		frac, _ := digits(rest[1:n])
		for i := n; i < 10; i++ {
			frac *= 10
		}
		rest, nsec = rest[n:], frac
	}
	offset, err := parseOffset(rest)
	if err != nil {
		return CaptureTime{}, err
	}
	return CaptureTime{Wall: time.Date(y, time.Month(mo), d, h, mi, sec, nsec, time.UTC), Offset: offset}, nil
}

// parseOffset reads what follows the seconds: nothing, Z, or ±hh:mm.
func parseOffset(s string) (*int, error) {
	switch {
	case s == "":
		return nil, nil
	case s == "Z" || s == "z":
		zero := 0
		return &zero, nil
	case len(s) == 6 && (s[0] == ' ') && s[3] == ':':
		return nil, errors.New(`the offset lost its "+": send "+" as %2B in a query string`)
	case len(s) != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':':
		return nil, errors.New("the offset must be Z or ±hh:mm")
	}
	h, ok1 := digits(s[1:3])
	m, ok2 := digits(s[4:6])
	if !ok1 || !ok2 || h > 23 || m > 59 {
		return nil, errors.New("the offset must be Z or ±hh:mm")
	}
	off := h*3600 + m*60
	if s[0] == '-' {
		off = -off
	}
	return &off, nil
}

// digits parses a non-empty run of ASCII digits (no sign, no spaces).
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func daysIn(m time.Month, year int) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// TimeBound is one capture-time bound of a query.
type TimeBound struct {
	// Time is, for an offsetless bound, the wall-clock reading encoded as
	// UTC, compared with CaptureTime.Wall; for an offset-aware bound, the
	// absolute instant in UTC, compared with CaptureTime.Instant.
	Time time.Time
	// HasOffset reports that the bound was sent with an offset ("Z" counts).
	HasOffset bool
}

// Micros is Time in Unix microseconds, rounded up to a whole microsecond.
// Stored capture times are whole microseconds t, and for those t >= b holds
// exactly when t >= Micros(b), and t < b exactly when t < Micros(b); so SQL
// comparing stored values with Micros selects what Matches selects.
func (b TimeBound) Micros() int64 {
	us := b.Time.UnixMicro()
	if b.Time.Nanosecond()%1000 != 0 {
		us++
	}
	return us
}

// CaptureRange is the parsed pair local_datetime_after (inclusive) and
// local_datetime_before (exclusive). A nil bound does not constrain; the zero
// CaptureRange matches every asset.
//
// This is the contract every store follows, and Matches is its reference:
//   - The window is half-open, After <= key < Before, so consecutive windows
//     never overlap.
//   - An offsetless bound (HasOffset false) compares with the wall-clock
//     reading of every asset, CaptureTime.Wall, whatever its offset: "taken
//     between 09:00 and 17:00 local time, wherever that was".
//   - An offset-aware bound compares with the asset's instant, Wall minus
//     Offset; an asset whose offset is unknown uses its wall-clock reading
//     taken as if it were UTC, so it still takes part (spec "Capture-time
//     filters" rule 4, decisions.md).
//   - In SQL with microsecond columns: wall >= After.Micros() AND
//     wall < Before.Micros(), or the same on instant (wall - offset*1e6, or
//     wall when offset IS NULL) when Absolute.
type CaptureRange struct {
	After, Before *TimeBound
	// Absolute reports that the bounds carry offsets. ParseCaptureRange
	// never mixes the two kinds, so it describes both bounds.
	Absolute bool
}

// IsZero reports that the range has no bound.
func (r CaptureRange) IsZero() bool { return r.After == nil && r.Before == nil }

// Matches reports whether a capture time falls in the range, following the
// contract on CaptureRange. Each bound compares by its own HasOffset.
func (r CaptureRange) Matches(c CaptureTime) bool {
	key := func(b *TimeBound) time.Time {
		if b.HasOffset {
			return c.Instant()
		}
		return c.Wall.UTC()
	}
	if r.After != nil && key(r.After).Before(r.After.Time) {
		return false
	}
	return r.Before == nil || key(r.Before).Before(r.Before.Time)
}

// ParseCaptureRange reads the local_datetime_after and local_datetime_before
// query values; an empty string means no bound. Each value is a capture time
// as ParseCaptureTime reads it, or a date alone ("2024-05-01"), read as
// offsetless midnight, so before=2024-05-02 ends the window with 1 May. Errors
// (422): an unreadable value is datetime_parsing on its parameter (both are
// reported when both fail); one offsetless and one offset-aware bound is a
// single message naming both parameters; after >= before, an empty window,
// is value_error on local_datetime_before.
func ParseCaptureRange(after, before string) (CaptureRange, error) {
	var r CaptureRange
	var fields []FieldError
	params := []struct {
		name, raw string
		dst       **TimeBound
	}{
		{"local_datetime_after", after, &r.After},
		{"local_datetime_before", before, &r.Before},
	}
	for _, p := range params {
		if p.raw == "" {
			continue
		}
		b, err := parseBound(p.raw)
		if err != nil {
			fields = append(fields, FieldError{
				Loc:   []any{"query", p.name},
				Msg:   p.name + " must be a date-time such as 2024-05-01T10:00:00+02:00 (absolute) or 2024-05-01T10:00:00 (wall clock): " + err.Error(),
				Type:  "datetime_parsing",
				Input: p.raw,
			})
			continue
		}
		*p.dst = &b
	}
	if len(fields) > 0 {
		return CaptureRange{}, &ValidationError{Fields: fields}
	}
	if r.After != nil && r.Before != nil {
		if r.After.HasOffset != r.Before.HasOffset {
			return CaptureRange{}, Invalid("mixed offsetless and offset-aware date bounds: " +
				"local_datetime_after and local_datetime_before must both carry an offset (absolute window) " +
				"or both omit it (wall-clock window)")
		}
		if !r.After.Time.Before(r.Before.Time) {
			return CaptureRange{}, InvalidField("value_error",
				"local_datetime_before must be later than local_datetime_after (after is inclusive, before exclusive)",
				before, "query", "local_datetime_before")
		}
	}
	r.Absolute = (r.After != nil && r.After.HasOffset) || (r.Before != nil && r.Before.HasOffset)
	return r, nil
}

// parseBound reads one bound: a capture time or a date alone.
func parseBound(s string) (TimeBound, error) {
	if len(s) == len("2006-01-02") {
		s += "T00:00:00"
	}
	c, err := parseCaptureTime(s)
	if err != nil {
		return TimeBound{}, err
	}
	if c.Offset == nil {
		return TimeBound{Time: c.Wall}, nil
	}
	return TimeBound{Time: c.Instant(), HasOffset: true}, nil
}
