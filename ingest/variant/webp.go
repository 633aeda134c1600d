package variant

import (
	"encoding/binary"
	"errors"
)

// VP8X flag bits for the metadata chunks (WebP container specification).
const (
	vp8xICC  = 0x20
	vp8xEXIF = 0x08
	vp8xXMP  = 0x04
)

// errBadWebP reports a WebP container stripWebP cannot walk.
var errBadWebP = errors.New("strip webp: malformed container")

// stripWebP drops the EXIF, XMP and ICCP chunks from an encoded WebP and
// clears their flags in the VP8X header. libvips 8.14's webpsave ignores
// its strip option (it rebuilds an EXIF block from the image's fields even
// when they were removed), so the bytes are cleaned after encoding.
func stripWebP(b []byte) ([]byte, error) {
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return nil, errBadWebP
	}
	out := make([]byte, 12, len(b))
	copy(out, b[:12])
	for p := 12; p < len(b); {
		if p+8 > len(b) {
			return nil, errBadWebP
		}
		size := int(binary.LittleEndian.Uint32(b[p+4 : p+8]))
		end := p + 8 + size + size&1 // chunks are padded to even sizes
		if size > len(b) || end > len(b) {
			return nil, errBadWebP
		}
		switch string(b[p : p+4]) {
		case "EXIF", "XMP ", "ICCP":
		case "VP8X":
			if size < 1 {
				return nil, errBadWebP
			}
			start := len(out)
			out = append(out, b[p:end]...)
			out[start+8] &^= vp8xICC | vp8xEXIF | vp8xXMP
		default:
			out = append(out, b[p:end]...)
		}
		p = end
	}
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-8))
	return out, nil
}
