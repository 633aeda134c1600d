package immich_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/immich"
)

// FuzzParseChecksum checks that a client's checksum is either exactly a
// SHA-1 (and formats back to the base64 form) or ErrChecksum.
func FuzzParseChecksum(f *testing.F) {
	for _, s := range []string{"da39a3ee5e6b4b0d3255bfef95601890afd80709", "2jmj7l5rSw0yVb/vlWAYkK/YBwk=",
		"DA39A3EE5E6B4B0D3255BFEF95601890AFD80709", "2jmj7l5rSw0yVb/vlWAYkK/YBw==", "", "zz", "2jmj7l5rSw0yVb_vlWAYkK_YBwk="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sum, err := immich.ParseChecksum(s)
		if err != nil {
			require.ErrorIs(t, err, immich.ErrChecksum)
			require.Nil(t, sum)
			return
		}
		require.Len(t, sum, 20)
		again, err := immich.ParseChecksum(immich.FormatChecksum(sum))
		require.NoError(t, err)
		require.Equal(t, sum, again)
	})
}

// FuzzPageNumber checks the page field of Immich search bodies: a number
// or a string of digits, anything else an error, never a panic.
func FuzzPageNumber(f *testing.F) {
	for _, s := range []string{`1`, `"2"`, `-1`, `"`, `""`, `1e3`, `"9223372036854775808"`, `null`, `{"page":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var n immich.PageNumber
		if err := n.UnmarshalJSON(b); err != nil {
			return
		}
		out, err := json.Marshal(int64(n))
		require.NoError(t, err)
		var again immich.PageNumber
		require.NoError(t, again.UnmarshalJSON(out))
		require.Equal(t, n, again)
	})
}
