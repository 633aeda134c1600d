package sniff_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/sniff"
)

func testImage() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for x := range 16 {
		img.Set(x, x, color.RGBA{R: 200, A: 255})
	}
	return img
}

// encoded returns a tiny image in the given standard-library format.
func encoded(t testing.TB, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch format {
	case "jpeg":
		err = jpeg.Encode(&buf, testImage(), nil)
	case "png":
		err = png.Encode(&buf, testImage())
	case "gif":
		err = gif.Encode(&buf, testImage(), nil)
	}
	require.NoError(t, err)
	return buf.Bytes()
}

// ftyp builds an ISO-BMFF ftyp box with the given brands, followed by the
// start of an empty box, as MP4, MOV, HEIF and CR3 files begin.
func ftyp(major string, compat ...string) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(16+4*len(compat)))
	b = append(b, "ftyp"+major+"\x00\x00\x02\x00"...)
	for _, c := range compat {
		b = append(b, c...)
	}
	return append(b, "\x00\x00\x00\x08free"...)
}

// tiff builds the header and a first IFD entry of a TIFF file.
func tiff(bigEndian bool) []byte {
	if bigEndian {
		return []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x00\x00\x03\x00\x00\x00\x01\x00\x10")
	}
	return []byte("II\x2a\x00\x08\x00\x00\x00\x01\x00\x00\x01\x03\x00\x01\x00\x00\x00\x10\x00")
}

func want(mime string, kind sniff.Kind, ext string) sniff.Result {
	return sniff.Result{MIME: mime, Kind: kind, Ext: ext}
}

func TestDetectSupportedFormats(t *testing.T) {
	cases := []struct {
		name string
		head []byte
		file string
		want sniff.Result
	}{
		{"a JPEG from image/jpeg is a JPEG", encoded(t, "jpeg"), "a.jpg", want("image/jpeg", sniff.Image, ".jpg")},
		{"a PNG named .jpg is a PNG because content wins", encoded(t, "png"), "a.jpg", want("image/png", sniff.Image, ".png")},
		{"a GIF with no name is a GIF", encoded(t, "gif"), "", want("image/gif", sniff.Image, ".gif")},
		{"a TIFF with no RAW name is a TIFF", tiff(false), "scan.tif", want("image/tiff", sniff.Image, ".tiff")},
		{"a big-endian TIFF named .PEF is a Pentax RAW", tiff(true), "IMGP0001.PEF", want("image/x-pentax-pef", sniff.Image, ".pef")},
		{"a TIFF named .raf is a TIFF since RAF is not TIFF", tiff(false), "a.raf", want("image/tiff", sniff.Image, ".tiff")},
		{"a TIFF with the CR marker is a CR2 whatever its name", append(tiff(false)[:8:8], "CR\x02\x00\x00\x00\x00\x00"...), "x.jpg", want("image/x-canon-cr2", sniff.Image, ".cr2")},
		{"the Fujifilm magic is a RAF", []byte("FUJIFILMCCD-RAW 0201FF383501"), "x", want("image/x-fuji-raf", sniff.Image, ".raf")},
		{"the Olympus TIFF variant is an ORF", []byte("IIRO\x08\x00\x00\x00\x10\x00\x00\x01"), "", want("image/x-olympus-orf", sniff.Image, ".orf")},
		{"the Panasonic TIFF variant is an RW2", []byte("IIU\x00\x18\x00\x00\x00\x88\xe7\x74\xd8"), "", want("image/x-panasonic-rw2", sniff.Image, ".rw2")},
		{"the crx brand is a CR3", ftyp("crx ", "crx ", "isom"), "a.mp4", want("image/x-canon-cr3", sniff.Image, ".cr3")},
		{"the heic brand is a HEIC", ftyp("heic", "mif1", "heic"), "", want("image/heic", sniff.Image, ".heic")},
		{"mif1 with heic compatible is a HEIC", ftyp("mif1", "mif1", "heic"), "", want("image/heic", sniff.Image, ".heic")},
		{"an HEVC image sequence is a HEIC", ftyp("msf1", "msf1", "hevc"), "", want("image/heic", sniff.Image, ".heic")},
		{"mif1 alone is a HEIF", ftyp("mif1", "mif1"), "", want("image/heif", sniff.Image, ".heif")},
		{"the avif brand is an AVIF", ftyp("avif", "avif", "mif1", "miaf"), "", want("image/avif", sniff.Image, ".avif")},
		{"mif1 with avif compatible is an AVIF", ftyp("mif1", "mif1", "avif"), "", want("image/avif", sniff.Image, ".avif")},
		{"an AVIF sequence is an AVIF", ftyp("avis", "avis", "msf1"), "", want("image/avif", sniff.Image, ".avif")},
		{"the isom brand is an MP4", ftyp("isom", "isom", "iso2", "avc1", "mp41"), "", want("video/mp4", sniff.Video, ".mp4")},
		{"the qt brand is a MOV", ftyp("qt  ", "qt  "), "", want("video/quicktime", sniff.Video, ".mov")},
		{"a QuickTime file opening with a wide atom is a MOV", []byte("\x00\x00\x00\x08wide\x00\x00\x00\x00mdat"), "", want("video/quicktime", sniff.Video, ".mov")},
		{"the M4V brand is an M4V", ftyp("M4V ", "M4V ", "M4A ", "mp42"), "", want("video/x-m4v", sniff.Video, ".m4v")},
		{"the 3gp4 brand is a 3GP", ftyp("3gp4", "3gp4", "isom"), "", want("video/3gpp", sniff.Video, ".3gp")},
		{"a RIFF AVI is an AVI", []byte("RIFF\x00\x10\x00\x00AVI LIST\x00\x00\x00\x00"), "", want("video/x-msvideo", sniff.Video, ".avi")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := sniff.Detect(c.head, c.file)
			require.True(t, ok)
			require.Equal(t, c.want, got)
		})
	}
}

func TestEveryTIFFRAWExtensionNamesItsFormat(t *testing.T) {
	raws := map[string]string{
		".dng": "image/x-adobe-dng", ".cr2": "image/x-canon-cr2", ".nef": "image/x-nikon-nef",
		".arw": "image/x-sony-arw", ".orf": "image/x-olympus-orf", ".rw2": "image/x-panasonic-rw2",
		".pef": "image/x-pentax-pef", ".srw": "image/x-samsung-srw",
	}
	for ext, mime := range raws {
		got, ok := sniff.Detect(tiff(false), "/photos/DSC_0001"+ext)
		require.True(t, ok, ext)
		require.Equal(t, want(mime, sniff.Image, ext), got)
	}
}

func TestDetectRejectsEverythingElse(t *testing.T) {
	random := make([]byte, 4096)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	cases := []struct {
		name string
		head []byte
		file string
	}{
		{"an empty file", nil, "a.jpg"},
		{"plain text", []byte("hello, this is a note about my holiday photos\n"), "a.jpg"},
		{"text named like a RAW", []byte("not a tiff at all, just words"), "a.nef"},
		{"a PDF header", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"), "a.pdf"},
		{"a ZIP archive", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00\x00\x00\x00\x00"), "a.zip"},
		{"an SVG image", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "a.svg"},
		{"an HTML page", []byte("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>"), "a.jpg"},
		{"an HTML polyglot carrying a GIF header later", []byte("<html><img src=x onerror=alert(1)>GIF89a\x01\x00\x01\x00"), "a.gif"},
		{"a JPEG header truncated to 3 bytes", []byte("\xff\xd8\xff"), "a.jpg"},
		{"a JPEG start of image without a marker", []byte("\xff\xd8\xff\x00\x00\x00\x00\x00\x00\x00\x00\x00"), "a.jpg"},
		{"random bytes", random, "a.mp4"},
		{"an ELF executable", []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"), "a.jpg"},
		{"a gzip stream", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x00\x00"), "a.jpg"},
		{"an M4A audio file", ftyp("M4A ", "M4A ", "mp42", "isom"), "a.m4a"},
		{"a 3GPP2 file", ftyp("3g2a", "3g2a"), "a.3g2"},
		{"a Motion JPEG 2000 file", ftyp("mjp2", "mjp2"), "a.mj2"},
		{"an MP3 file", []byte("ID3\x04\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x00"), "a.mp3"},
		{"a BMP image", []byte("BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00"), "a.bmp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := sniff.Detect(c.head, c.file)
			require.False(t, ok, "detected %+v", got)
			require.Zero(t, got)
		})
	}
}

func TestMediaTypesAreSortedAndCoverEveryResult(t *testing.T) {
	images, videos := sniff.MediaTypes()
	require.True(t, slices.IsSorted(images))
	require.True(t, slices.IsSorted(videos))
	require.Equal(t, []string{".3gp", ".avi", ".m4v", ".mkv", ".mov", ".mp4", ".webm"}, videos)
	for _, ext := range []string{".jpg", ".jpeg", ".png", ".webp", ".gif", ".heic", ".heif", ".avif", ".tif", ".tiff",
		".dng", ".cr2", ".cr3", ".nef", ".arw", ".orf", ".rw2", ".raf", ".pef", ".srw"} {
		require.Contains(t, images, ext)
	}
	require.Len(t, images, 20)

	images[0] = "changed"
	again, _ := sniff.MediaTypes()
	require.NotEqual(t, "changed", again[0], "callers get their own slices")
}
