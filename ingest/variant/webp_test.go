package variant

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// chunk builds one RIFF chunk, padded to an even size.
func chunk(fourcc string, payload []byte) []byte {
	c := append([]byte(fourcc), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(c[4:], uint32(len(payload)))
	c = append(c, payload...)
	if len(payload)%2 == 1 {
		c = append(c, 0)
	}
	return c
}

func riff(chunks ...[]byte) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBP")
	for _, c := range chunks {
		b = append(b, c...)
	}
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

func TestStripWebP(t *testing.T) {
	vp8x := make([]byte, 10)
	vp8x[0] = vp8xICC | vp8xEXIF | vp8xXMP | 0x10 // and alpha
	frame := chunk("VP8 ", []byte{1, 2, 3})
	in := riff(chunk("VP8X", vp8x), chunk("ICCP", []byte("profile")), frame, chunk("EXIF", []byte("Make=Canon")), chunk("XMP ", []byte("<x/>")))

	out, err := stripWebP(in)
	require.NoError(t, err)
	wantX := make([]byte, 10)
	wantX[0] = 0x10 // alpha kept, metadata flags cleared
	require.Equal(t, riff(chunk("VP8X", wantX), frame), out)

	plain := riff(frame)
	out, err = stripWebP(plain)
	require.NoError(t, err)
	require.Equal(t, plain, out, "a simple WebP is left as it is")

	for name, bad := range map[string][]byte{
		"not RIFF":        []byte("GIF89a......"),
		"a chunk too big": riff(chunk("VP8 ", []byte{1, 2, 3}))[:20],
		"a cut header":    append(riff(frame), 'E', 'X'),
		"an empty VP8X":   riff(chunk("VP8X", nil)),
	} {
		_, err := stripWebP(bad)
		require.ErrorIs(t, err, errBadWebP, name)
	}
}
