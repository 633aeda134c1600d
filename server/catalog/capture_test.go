package catalog

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func offsetSec(sec int) *int { return &sec }

func wallAt(s string) time.Time {
	t, err := time.Parse("2006-01-02T15:04:05.999999999", s)
	if err != nil {
		panic(err)
	}
	return t
}

func utcAt(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// requireFieldError checks that err is a 422 with one field error of the
// given type at loc.
func requireFieldError(t *testing.T, err error, typ string, loc ...any) FieldError {
	t.Helper()
	var ve *ValidationError
	require.True(t, errors.As(err, &ve), "want a validation error, got %v", err)
	require.Empty(t, ve.Message)
	require.Len(t, ve.Fields, 1, "%+v", ve.Fields)
	require.Equal(t, typ, ve.Fields[0].Type, ve.Fields[0].Msg)
	require.Equal(t, loc, ve.Fields[0].Loc)
	require.NotEmpty(t, ve.Fields[0].Msg)
	return ve.Fields[0]
}

// requireMessage checks that err is a 422 with a single message containing
// every part.
func requireMessage(t *testing.T, err error, parts ...string) {
	t.Helper()
	var ve *ValidationError
	require.True(t, errors.As(err, &ve), "want a validation error, got %v", err)
	require.Empty(t, ve.Fields)
	for _, p := range parts {
		require.Contains(t, ve.Message, p)
	}
}

func TestParseCaptureTime(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		wall   string
		offset *int
	}{
		{"offsetless value has an unknown offset", "2024-05-01T10:00:00", "2024-05-01T10:00:00", nil},
		{"positive offset is kept and the wall reading is local", "2024-05-01T10:00:00+02:00", "2024-05-01T10:00:00", offsetSec(7200)},
		{"negative offset with minutes", "2024-05-01T10:00:00-09:30", "2024-05-01T10:00:00", offsetSec(-34200)},
		{"Z is a known zero offset", "2024-05-01T10:00:00Z", "2024-05-01T10:00:00", offsetSec(0)},
		{"lowercase z and t are RFC 3339", "2024-05-01t10:00:00z", "2024-05-01T10:00:00", offsetSec(0)},
		{"-00:00 reads as a zero offset", "2024-05-01T10:00:00-00:00", "2024-05-01T10:00:00", offsetSec(0)},
		{"space may separate date and time", "2024-05-01 10:00:00", "2024-05-01T10:00:00", nil},
		{"fraction of one digit", "2024-05-01T10:00:00.5+02:00", "2024-05-01T10:00:00.5", offsetSec(7200)},
		{"fraction of nine digits", "2024-05-01T10:00:00.123456789", "2024-05-01T10:00:00.123456789", nil},
		{"leap day exists in a leap year", "2024-02-29T00:00:00", "2024-02-29T00:00:00", nil},
		{"last moment of a day", "1999-12-31T23:59:59.999999", "1999-12-31T23:59:59.999999", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCaptureTime(tt.in)
			require.NoError(t, err)
			require.Equal(t, wallAt(tt.wall), c.Wall)
			require.Equal(t, tt.offset, c.Offset)
			require.Equal(t, time.UTC, c.Wall.Location())
		})
	}
}

func TestParseCaptureTimeRejects(t *testing.T) {
	tests := []struct{ name, in string }{
		{"empty string", ""},
		{"date alone is not a capture time", "2024-05-01"},
		{"time without seconds", "2024-05-01T10:00"},
		{"single-digit hour", "2024-05-01T1:00:00"},
		{"hour 24", "2024-05-01T24:00:00"},
		{"leap second", "2024-06-30T23:59:60Z"},
		{"February 30", "2024-02-30T10:00:00"},
		{"February 29 of a common year", "2023-02-29T10:00:00"},
		{"month 13", "2024-13-01T10:00:00"},
		{"comma as decimal separator", "2024-05-01T10:00:00,5"},
		{"fraction without digits", "2024-05-01T10:00:00.Z"},
		{"fraction of ten digits", "2024-05-01T10:00:00.1234567890"},
		{"offset without colon", "2024-05-01T10:00:00+0200"},
		{"offset hours only", "2024-05-01T10:00:00+02"},
		{"offset minute 60", "2024-05-01T10:00:00+02:60"},
		{"offset whose plus became a space in a query string", "2024-05-01T10:00:00 02:00"},
		{"trailing garbage", "2024-05-01T10:00:00Zx"},
		{"leading space", " 2024-05-01T10:00:00"},
		{"slashes in the date", "2024/05/01T10:00:00"},
		{"signed year", "+2024-05-01T10:00:00"},
		{"unix timestamp", "1714557600"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCaptureTime(tt.in)
			require.Error(t, err)
		})
	}
}

func TestCaptureTimeInstant(t *testing.T) {
	tests := []struct {
		name string
		c    CaptureTime
		want time.Time
	}{
		{"wall 10:00 at +02:00 is 08:00Z", CaptureTime{Wall: wallAt("2024-05-01T10:00:00"), Offset: offsetSec(7200)}, utcAt("2024-05-01T08:00:00Z")},
		{"wall 10:00 at -05:00 is 15:00Z", CaptureTime{Wall: wallAt("2024-05-01T10:00:00"), Offset: offsetSec(-18000)}, utcAt("2024-05-01T15:00:00Z")},
		{"wall 10:00 without offset counts as 10:00Z", CaptureTime{Wall: wallAt("2024-05-01T10:00:00")}, utcAt("2024-05-01T10:00:00Z")},
		{"offset can move the instant to the previous day", CaptureTime{Wall: wallAt("2024-05-01T01:00:00"), Offset: offsetSec(14 * 3600)}, utcAt("2024-04-30T11:00:00Z")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.True(t, tt.want.Equal(tt.c.Instant()), "got %s", tt.c.Instant())
			require.Equal(t, tt.want.UnixMicro(), tt.c.InstantMicros())
		})
	}
}

func TestCaptureTimeString(t *testing.T) {
	tests := []struct {
		name string
		c    CaptureTime
		want string
	}{
		{"known offset is written", CaptureTime{Wall: wallAt("2024-05-01T10:00:00"), Offset: offsetSec(7200)}, "2024-05-01T10:00:00+02:00"},
		{"negative offset with minutes", CaptureTime{Wall: wallAt("2024-05-01T10:00:00"), Offset: offsetSec(-34200)}, "2024-05-01T10:00:00-09:30"},
		{"zero offset is written Z", CaptureTime{Wall: wallAt("2024-05-01T10:00:00"), Offset: offsetSec(0)}, "2024-05-01T10:00:00Z"},
		{"unknown offset is left out", CaptureTime{Wall: wallAt("2024-05-01T10:00:00")}, "2024-05-01T10:00:00"},
		{"fraction only when non-zero, trailing zeros trimmed", CaptureTime{Wall: wallAt("2024-05-01T10:00:00.250")}, "2024-05-01T10:00:00.25"},
		{"microseconds are kept", CaptureTime{Wall: wallAt("2024-05-01T10:00:00.000001"), Offset: offsetSec(3600)}, "2024-05-01T10:00:00.000001+01:00"},
		{"offset seconds are truncated to the minute", CaptureTime{Wall: wallAt("1900-01-01T00:00:00"), Offset: offsetSec(561)}, "1900-01-01T00:00:00+00:09"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.c.String())
		})
	}
}

func TestCaptureTimeStringRoundTrips(t *testing.T) {
	for _, in := range []string{
		"2024-05-01T10:00:00+02:00",
		"2024-05-01T10:00:00-09:30",
		"2024-05-01T10:00:00Z",
		"2024-05-01T10:00:00",
		"2024-05-01T10:00:00.5",
		"2024-05-01T10:00:00.123456789+14:00",
		"0001-01-01T00:00:00",
		"9999-12-31T23:59:59.999999999-12:00",
	} {
		t.Run(in, func(t *testing.T) {
			c, err := ParseCaptureTime(in)
			require.NoError(t, err)
			require.Equal(t, in, c.String())
			again, err := ParseCaptureTime(c.String())
			require.NoError(t, err)
			require.Equal(t, c, again)
		})
	}
}

func TestCaptureTimeMicros(t *testing.T) {
	c := CaptureTime{Wall: wallAt("2024-05-01T10:00:00.0000019"), Offset: offsetSec(7200)}
	require.Equal(t, wallAt("2024-05-01T10:00:00.000001").UnixMicro(), c.WallMicros(), "sub-microsecond digits are dropped")
	require.Equal(t, c.WallMicros()-7200*1_000_000, c.InstantMicros())
}

func TestParseCaptureRange(t *testing.T) {
	tests := []struct {
		name          string
		after, before string
		want          CaptureRange
	}{
		{"no bounds is the zero range", "", "", CaptureRange{}},
		{"offsetless bounds make a wall-clock window", "2024-05-01T09:00:00", "2024-05-01T17:00:00", CaptureRange{
			After:  &TimeBound{Time: utcAt("2024-05-01T09:00:00Z")},
			Before: &TimeBound{Time: utcAt("2024-05-01T17:00:00Z")},
		}},
		{"offset-aware bounds make an absolute window of instants", "2024-05-01T10:00:00+02:00", "2024-05-01T12:00:00Z", CaptureRange{
			After:    &TimeBound{Time: utcAt("2024-05-01T08:00:00Z"), HasOffset: true},
			Before:   &TimeBound{Time: utcAt("2024-05-01T12:00:00Z"), HasOffset: true},
			Absolute: true,
		}},
		{"after alone is open-ended", "2024-05-01T10:00:00-05:00", "", CaptureRange{
			After:    &TimeBound{Time: utcAt("2024-05-01T15:00:00Z"), HasOffset: true},
			Absolute: true,
		}},
		{"before alone is open-ended", "", "2024-05-01T10:00:00", CaptureRange{
			Before: &TimeBound{Time: utcAt("2024-05-01T10:00:00Z")},
		}},
		{"a date alone is offsetless midnight", "2024-05-01", "2024-05-02", CaptureRange{
			After:  &TimeBound{Time: utcAt("2024-05-01T00:00:00Z")},
			Before: &TimeBound{Time: utcAt("2024-05-02T00:00:00Z")},
		}},
		{"a date alone pairs with an offsetless date-time", "2024-05-01", "2024-05-01T12:00:00", CaptureRange{
			After:  &TimeBound{Time: utcAt("2024-05-01T00:00:00Z")},
			Before: &TimeBound{Time: utcAt("2024-05-01T12:00:00Z")},
		}},
		{"aware bounds compare as instants, so a later wall reading may come first", "2024-05-01T10:00:00+09:00", "2024-05-01T09:00:00+00:00", CaptureRange{
			After:    &TimeBound{Time: utcAt("2024-05-01T01:00:00Z"), HasOffset: true},
			Before:   &TimeBound{Time: utcAt("2024-05-01T09:00:00Z"), HasOffset: true},
			Absolute: true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCaptureRange(tt.after, tt.before)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			require.Equal(t, tt.after == "" && tt.before == "", got.IsZero())
		})
	}
}

func TestParseCaptureRangeRejects(t *testing.T) {
	t.Run("unreadable after is datetime_parsing on local_datetime_after", func(t *testing.T) {
		_, err := ParseCaptureRange("yesterday", "")
		f := requireFieldError(t, err, "datetime_parsing", "query", "local_datetime_after")
		require.Equal(t, "yesterday", f.Input)
	})
	t.Run("unreadable before is datetime_parsing on local_datetime_before", func(t *testing.T) {
		_, err := ParseCaptureRange("2024-05-01T10:00:00", "2024-05-01T25:00:00")
		requireFieldError(t, err, "datetime_parsing", "query", "local_datetime_before")
	})
	t.Run("both unreadable are both reported", func(t *testing.T) {
		_, err := ParseCaptureRange("x", "y")
		var ve *ValidationError
		require.ErrorAs(t, err, &ve)
		require.Len(t, ve.Fields, 2)
		require.Equal(t, []any{"query", "local_datetime_after"}, ve.Fields[0].Loc)
		require.Equal(t, []any{"query", "local_datetime_before"}, ve.Fields[1].Loc)
	})
	t.Run("a plus sent unencoded gets a hint", func(t *testing.T) {
		_, err := ParseCaptureRange("2024-05-01T10:00:00 02:00", "")
		f := requireFieldError(t, err, "datetime_parsing", "query", "local_datetime_after")
		require.Contains(t, f.Msg, "%2B")
	})
	t.Run("offsetless after with aware before is rejected as mixed", func(t *testing.T) {
		_, err := ParseCaptureRange("2024-05-01T10:00:00", "2024-05-02T10:00:00Z")
		requireMessage(t, err, "mixed offsetless and offset-aware", "local_datetime_after", "local_datetime_before")
	})
	t.Run("aware after with offsetless date before is rejected as mixed", func(t *testing.T) {
		_, err := ParseCaptureRange("2024-05-01T10:00:00+02:00", "2024-05-02")
		requireMessage(t, err, "mixed offsetless and offset-aware")
	})
	t.Run("after equal to before is an empty window", func(t *testing.T) {
		_, err := ParseCaptureRange("2024-05-01T10:00:00", "2024-05-01T10:00:00")
		f := requireFieldError(t, err, "value_error", "query", "local_datetime_before")
		require.Equal(t, "2024-05-01T10:00:00", f.Input)
	})
	t.Run("after later than before is rejected", func(t *testing.T) {
		_, err := ParseCaptureRange("2024-05-02", "2024-05-01")
		requireFieldError(t, err, "value_error", "query", "local_datetime_before")
	})
	t.Run("aware bounds naming the same instant are an empty window", func(t *testing.T) {
		_, err := ParseCaptureRange("2024-05-01T10:00:00+02:00", "2024-05-01T08:00:00Z")
		requireFieldError(t, err, "value_error", "query", "local_datetime_before")
	})
}

func TestCaptureRangeMatches(t *testing.T) {
	at10plus2 := CaptureTime{Wall: wallAt("2024-05-01T10:00:00"), Offset: offsetSec(7200)} // instant 08:00Z
	at10bare := CaptureTime{Wall: wallAt("2024-05-01T10:00:00")}                           // instant taken as 10:00Z
	at10minus5 := CaptureTime{Wall: wallAt("2024-05-01T10:00:00"), Offset: offsetSec(-18000)}
	tests := []struct {
		name          string
		after, before string
		asset         CaptureTime
		want          bool
	}{
		{"offsetless window compares the wall reading of an asset with an offset", "2024-05-01T09:30:00", "2024-05-01T10:30:00", at10plus2, true},
		{"offsetless window ignores the offset entirely", "2024-05-01T07:30:00", "2024-05-01T08:30:00", at10plus2, false},
		{"offsetless window compares the wall reading of an asset without offset", "2024-05-01T09:30:00", "2024-05-01T10:30:00", at10bare, true},
		{"offsetless window matches every time zone at the same wall reading", "2024-05-01T09:30:00", "2024-05-01T10:30:00", at10minus5, true},
		{"aware window compares the instant: wall 10:00 at +02:00 is 08:00Z", "2024-05-01T07:30:00Z", "2024-05-01T08:30:00Z", at10plus2, true},
		{"aware window does not see the wall reading of an asset with offset", "2024-05-01T09:30:00Z", "2024-05-01T10:30:00Z", at10plus2, false},
		{"aware window takes wall 10:00 without offset as 10:00Z", "2024-05-01T09:30:00Z", "2024-05-01T10:30:00Z", at10bare, true},
		{"aware window in another zone still takes the bare wall as UTC", "2024-05-01T11:30:00+02:00", "2024-05-01T12:30:00+02:00", at10bare, true},
		{"aware window excludes the bare asset when 10:00Z is outside", "2024-05-01T10:00:00+02:00", "2024-05-01T11:00:00+02:00", at10bare, false},
		{"aware window with a negative-offset asset", "2024-05-01T15:00:00Z", "2024-05-01T15:00:01Z", at10minus5, true},
		{"after is inclusive for wall clock", "2024-05-01T10:00:00", "", at10plus2, true},
		{"before is exclusive for wall clock", "", "2024-05-01T10:00:00", at10plus2, false},
		{"after is inclusive for instants", "2024-05-01T08:00:00Z", "", at10plus2, true},
		{"before is exclusive for instants", "", "2024-05-01T10:00:00+02:00", at10plus2, false},
		{"one microsecond past before is excluded", "", "2024-05-01T10:00:00.000001", CaptureTime{Wall: wallAt("2024-05-01T10:00:00.000001")}, false},
		{"one microsecond before before is included", "", "2024-05-01T10:00:00.000001", at10bare, true},
		{"date bounds select the whole day", "2024-05-01", "2024-05-02", CaptureTime{Wall: wallAt("2024-05-01T23:59:59.999999")}, true},
		{"date bounds exclude the next midnight", "2024-05-01", "2024-05-02", CaptureTime{Wall: wallAt("2024-05-02T00:00:00")}, false},
		{"the zero range matches everything", "", "", at10minus5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseCaptureRange(tt.after, tt.before)
			require.NoError(t, err)
			require.Equal(t, tt.want, r.Matches(tt.asset))
			require.Equal(t, tt.want, matchesMicros(r, tt.asset), "the SQL form disagrees")
		})
	}
}

// matchesMicros is the comparison the SQL makes on stored microseconds.
func matchesMicros(r CaptureRange, c CaptureTime) bool {
	key := func(b *TimeBound) int64 {
		if b.HasOffset {
			return c.InstantMicros()
		}
		return c.WallMicros()
	}
	return (r.After == nil || key(r.After) >= r.After.Micros()) && (r.Before == nil || key(r.Before) < r.Before.Micros())
}

func TestTimeBoundMicros(t *testing.T) {
	tests := []struct {
		name string
		b    TimeBound
		want string
	}{
		{"whole microseconds are exact", TimeBound{Time: utcAt("2024-05-01T10:00:00.000001Z")}, "2024-05-01T10:00:00.000001Z"},
		{"sub-microsecond digits round up", TimeBound{Time: utcAt("2024-05-01T10:00:00.0000001Z")}, "2024-05-01T10:00:00.000001Z"},
		{"rounding up works before 1970", TimeBound{Time: utcAt("1960-05-01T10:00:00.0000001Z")}, "1960-05-01T10:00:00.000001Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, utcAt(tt.want).UnixMicro(), tt.b.Micros())
		})
	}
	t.Run("a sub-microsecond bound selects the same stored times as Matches", func(t *testing.T) {
		r, err := ParseCaptureRange("2024-05-01T10:00:00.0000005", "2024-05-01T10:00:00.0000025")
		require.NoError(t, err)
		for us := -2; us <= 4; us++ {
			c := CaptureTime{Wall: wallAt("2024-05-01T10:00:00").Add(time.Duration(us) * time.Microsecond)}
			require.Equal(t, r.Matches(c), matchesMicros(r, c), "at %d µs", us)
		}
	})
}

func FuzzParseCaptureRange(f *testing.F) {
	for _, s := range [][2]string{
		{"", ""}, {"2024-05-01T10:00:00", "2024-05-01T11:00:00"}, {"2024-05-01T10:00:00+02:00", "2024-05-01T10:00:00Z"},
		{"2024-05-01", "2024-05-01T10:00:00.5"}, {"2024-05-01T10:00:00 02:00", ""}, {"0000-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, after, before string) {
		r, err := ParseCaptureRange(after, before)
		if err != nil {
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			require.NotEmpty(t, ve.Error())
			return
		}
		require.Equal(t, after == "", r.After == nil)
		require.Equal(t, before == "", r.Before == nil)
		for _, b := range []*TimeBound{r.After, r.Before} {
			if b != nil {
				require.Equal(t, r.Absolute, b.HasOffset, "bounds never mix")
				require.Equal(t, time.UTC, b.Time.Location())
			}
		}
		if r.After != nil && r.Before != nil {
			require.True(t, r.After.Time.Before(r.Before.Time))
			require.LessOrEqual(t, r.After.Micros(), r.Before.Micros())
		}
		for _, s := range []string{after, before} {
			if c, err := ParseCaptureTime(s); err == nil {
				again, err := ParseCaptureTime(c.String())
				require.NoError(t, err)
				require.Equal(t, c, again, "String round trip")
				if c.Wall.Nanosecond()%1000 == 0 {
					require.Equal(t, r.Matches(c), matchesMicros(r, c), "SQL form on a stored time")
				}
			}
		}
	})
}
