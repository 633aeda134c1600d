package exif

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseDateTime(t *testing.T) {
	cases := []struct {
		in     string
		wall   time.Time
		offset *int
		ok     bool
	}{
		{"2024:05:01 10:00:00", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), nil, true},
		{"2024:05:01 10:00:00.123", time.Date(2024, 5, 1, 10, 0, 0, 123e6, time.UTC), nil, true},
		{"2024:05:01 10:00:00+02:00", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), ptr(7200), true},
		{"2024:05:01 10:00:00.5-05:30", time.Date(2024, 5, 1, 10, 0, 0, 5e8, time.UTC), ptr(-19800), true},
		{"2024:05:01 10:00:00Z", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), ptr(0), true},
		{"2024-05-01T10:00:00+0200", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), ptr(7200), true},
		{"2024:05:01 10:00", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), nil, true},
		{" 2024:05:01 10:00:00 ", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), nil, true},
		{"0000:00:00 00:00:00", time.Time{}, nil, false},
		{"    :  :     :  :  ", time.Time{}, nil, false},
		{"2024:02:30 10:00:00", time.Time{}, nil, false},
		{"2024:05:01 24:00:00", time.Time{}, nil, false},
		{"2024:05:01", time.Time{}, nil, false},
		{"2024:05:01 10:00:00+15:00", time.Time{}, nil, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			wall, off, ok := parseDateTime(c.in)
			require.Equal(t, c.ok, ok)
			require.Equal(t, c.wall, wall)
			require.Equal(t, c.offset, off)
		})
	}
}

func TestParseOffset(t *testing.T) {
	for in, want := range map[string]int{"+02:00": 7200, "-05:00": -18000, "+05:45": 20700, "Z": 0, "+0930": 34200} {
		got, ok := parseOffset(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "   :  ", "+2", "02:00", "+25:00", "+02:60"} {
		_, ok := parseOffset(in)
		require.False(t, ok, in)
	}
}

func TestFractionReadsSubSecDigits(t *testing.T) {
	require.Equal(t, 880_000_000, fraction("880"))
	require.Equal(t, 50_000_000, fraction("05"))
	require.Equal(t, 123_456_789, fraction("1234567891"))
	require.Equal(t, 0, fraction(""))
	require.Equal(t, 0, fraction("abc"))
}

func TestFormatDateTime(t *testing.T) {
	wall := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	require.Equal(t, "2024-05-01T10:00:00", formatDateTime(wall, nil))
	require.Equal(t, "2024-05-01T10:00:00+02:00", formatDateTime(wall, ptr(7200)))
	require.Equal(t, "2024-05-01T10:00:00Z", formatDateTime(wall, ptr(0)))
	require.Equal(t, "2024-05-01T10:00:00.25-03:00", formatDateTime(wall.Add(250*time.Millisecond), ptr(-10800)))
}
