package catalog

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// FuzzParseCaptureTime checks that a capture time either parses to one
// that prints and parses back to itself, or is refused with an error.
func FuzzParseCaptureTime(f *testing.F) {
	for _, s := range []string{"2024-05-01T10:00:00", "2024-05-01T10:00:00.123456789+02:00", "2024-05-01 10:00:00z",
		"2024-05-01t10:00:00-00:00", "9999-12-31T23:59:59+23:59", "0000-01-01T00:00:00-23:59", "2024-02-30T10:00:00",
		"2024-05-01T24:00:00", "2024-05-01", "2024-05-01T10:00:00+24:00", "2024-05-01T10:00:00.Z", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCaptureTime(s)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		again, err := ParseCaptureTime(c.String())
		require.NoError(t, err, "%q printed as %q", s, c.String())
		require.Equal(t, c.String(), again.String())
		require.Equal(t, c.InstantMicros(), again.InstantMicros())
	})
}

// FuzzCleanName checks the named-create rule on arbitrary names: a kept
// name is trimmed, non-blank and at most 255 bytes; others are a
// validation error located where the caller said.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"Holidays", "  ", "", "'; DROP TABLE albums; --", "\u202egnp.exe", "a\x00b",
		strings.Repeat("é", 200), "%_\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := CleanName(s, "body", "name")
		if err != nil {
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			require.Equal(t, []any{"body", "name"}, ve.Fields[0].Loc)
			return
		}
		require.Equal(t, strings.TrimSpace(n), n)
		require.NotEmpty(t, n)
		require.LessOrEqual(t, len(n), 255)
		if utf8.ValidString(s) {
			require.True(t, utf8.ValidString(n))
		}
	})
}
