package sniff

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// rawByContent recognises the RAW formats whose first bytes are their own
// (mimetype knows none of them) and returns their MIME type, or "".
func rawByContent(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("FUJIFILMCCD-RAW")):
		return mimeRAF
	// Olympus replaces TIFF's 42 with "RO" or "RS" (little endian) or "OR"
	// (big endian).
	case bytes.HasPrefix(head, []byte("IIRO\x08\x00\x00\x00")),
		bytes.HasPrefix(head, []byte("IIRS\x08\x00\x00\x00")),
		bytes.HasPrefix(head, []byte("MMOR\x00\x00\x00\x08")):
		return mimeORF
	// Panasonic replaces 42 with 85 ("U").
	case bytes.HasPrefix(head, []byte("IIU\x00")):
		return mimeRW2
	}
	return ""
}

// maxFtyp bounds the ftyp box size taken seriously; real ones are tens of
// bytes.
const maxFtyp = 4096

// ftypBrands reads the ISO-BMFF ftyp box that opens MP4, MOV, HEIF, AVIF
// and CR3 files: its major brand and the compatible brands within head.
func ftypBrands(head []byte) (major string, compat []string, ok bool) {
	if len(head) < 16 || !bytes.Equal(head[4:8], []byte("ftyp")) {
		return "", nil, false
	}
	size := binary.BigEndian.Uint32(head)
	if size < 16 || size > maxFtyp {
		return "", nil, false
	}
	end := min(int(size), len(head))
	for i := 16; i+4 <= end; i += 4 {
		compat = append(compat, string(head[i:i+4]))
	}
	return string(head[8:12]), compat, true
}

// HEIF-family brands (ISO/IEC 23008-12 and the AV1 image format).
var (
	avifBrands = []string{"avif", "avis"}
	heicBrands = []string{"heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"}
)

// heifFamily tells HEIC (HEVC-coded), AVIF (AV1-coded) and other HEIF files
// apart by their brands: the major brand first, then the compatible ones,
// since many encoders put the generic "mif1" first and the codec's brand
// among the compatible ones.
func heifFamily(major string, compat []string) string {
	switch {
	case slices.Contains(avifBrands, major):
		return "image/avif"
	case slices.Contains(heicBrands, major):
		return "image/heic"
	case slices.ContainsFunc(compat, func(b string) bool { return slices.Contains(avifBrands, b) }):
		return "image/avif"
	case slices.ContainsFunc(compat, func(b string) bool { return slices.Contains(heicBrands, b) }):
		return "image/heic"
	}
	return "image/heif"
}
