package variant

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// checkComplete refuses a JPEG or PNG that ends before its image does,
// with ErrTruncated; other formats' decoders fail on a short file
// themselves. It reads the structure, then looks for the end marker from
// the end of the file backwards, where a complete file has it: microseconds
// for a complete file, one pass over a truncated one.
//
// A JPEG is complete when its end-of-image marker (FF D9) follows its
// first scan: the entropy-coded data of a scan escapes every FF byte, so
// the marker cannot appear by chance, and the segments before the scan
// (where an EXIF thumbnail carries a marker of its own) are skipped by
// their lengths. Bytes after the marker (a trailer some phones append)
// are allowed. A PNG is complete when it holds its IEND chunk.
//
// Content that is not a JPEG or PNG at all passes: the decoder refuses it
// as ErrUnsupported.
func checkComplete(buf []byte, mime string) error {
	switch {
	case mime == "image/jpeg" && bytes.HasPrefix(buf, []byte{0xFF, 0xD8}):
		sos, ok := jpegFirstScan(buf)
		if !ok || bytes.LastIndex(buf, []byte{0xFF, 0xD9}) < sos {
			return fmt.Errorf("JPEG without its end-of-image marker (%d bytes): %w", len(buf), ErrTruncated)
		}
	case mime == "image/png" && bytes.HasPrefix(buf, []byte("\x89PNG\r\n\x1a\n")):
		if bytes.LastIndex(buf, []byte("IEND")) < 0 {
			return fmt.Errorf("PNG without its IEND chunk (%d bytes): %w", len(buf), ErrTruncated)
		}
	}
	return nil
}

// jpegFirstScan returns the offset of the JPEG's first start-of-scan
// marker, walking the marker segments from the start of the file; ok is
// false when the file ends, or stops being a JPEG, before one.
func jpegFirstScan(buf []byte) (int, bool) {
	if len(buf) < 4 || buf[0] != 0xFF || buf[1] != 0xD8 {
		return 0, false
	}
	i := 2
	for i+1 < len(buf) {
		if buf[i] != 0xFF {
			return 0, false
		}
		marker := buf[i+1]
		switch {
		case marker == 0xFF: // fill byte before a marker
			i++
		case marker == 0xDA: // start of scan
			return i, true
		case marker == 0x01 || marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7): // no length
			i += 2
		default:
			if i+4 > len(buf) {
				return 0, false
			}
			i += 2 + int(binary.BigEndian.Uint16(buf[i+2:]))
		}
	}
	return 0, false
}
