package variant_test

import (
	"bytes"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/davidbyttow/govips/v2/vips"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/tiff"
	_ "golang.org/x/image/webp" // image.Decode of WebP variants
)

// scene draws a photo-like picture: smooth gradients, a few solid shapes
// with hard edges and grain, so that JPEG sizes and decode times are close
// to a camera's. A red square marks the top-left corner, to tell
// orientation.
func scene(w, h int, seed uint64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cx, cy := rng.IntN(w), rng.IntN(h)
	for y := range h {
		for x := range w {
			r := 40 + 160*x/w
			g := 60 + 140*y/h
			b := 120 + (x+y)%64
			if (x-cx)*(x-cx)+(y-cy)*(y-cy) < (w*w)/36 {
				r, g, b = 230, 200, 60
			}
			n := rng.IntN(25) - 12
			img.Pix[img.PixOffset(x, y)+0] = clamp8(r + n)
			img.Pix[img.PixOffset(x, y)+1] = clamp8(g + n)
			img.Pix[img.PixOffset(x, y)+2] = clamp8(b + n)
			img.Pix[img.PixOffset(x, y)+3] = 255
		}
	}
	mark := max(w, h) / 8
	fill(img, image.Rect(0, 0, mark, mark), color.RGBA{255, 0, 0, 255})
	return img
}

func clamp8(v int) uint8 { return uint8(min(max(v, 0), 255)) }

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// writeJPEG writes img as a JPEG in dir and returns its path.
func writeJPEG(t testing.TB, dir, name string, img image.Image) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}))
	return writeFile(t, dir, name, buf.Bytes())
}

// writePNG writes img as a PNG in dir and returns its path.
func writePNG(t testing.TB, dir, name string, img image.Image) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return writeFile(t, dir, name, buf.Bytes())
}

func writeFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

// bombPNG is a valid 1×1 PNG whose header then claims w×h pixels: the IHDR
// dimensions are patched and its CRC recomputed, so only the size check
// stands between it and a w×h decode.
func bombPNG(t testing.TB, w, h uint32) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))))
	b := buf.Bytes()
	// 8-byte signature, then IHDR: length(4) "IHDR"(4) width(4) height(4) ... crc.
	ihdr := b[8+4 : 8+4+4+13] // type and data, what the CRC covers
	putBE(ihdr[4:8], w)
	putBE(ihdr[8:12], h)
	putBE(b[8+4+4+13:], crc32.ChecksumIEEE(ihdr))
	return b
}

func putBE(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}

// tool runs a command line tool, skipping the test when it is not
// installed.
func tool(t testing.TB, name string, args ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed", name)
	}
	out, err := exec.Command(name, args...).CombinedOutput()
	require.NoError(t, err, "%s %v: %s", name, args, out)
	return out
}

// decode decodes encoded variant bytes (JPEG or WebP).
func decode(t testing.TB, b []byte) image.Image {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	return img
}

// writeTIFF writes img as an uncompressed TIFF in dir and returns its path.
func writeTIFF(t testing.TB, dir, name string, img image.Image) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, tiff.Encode(&buf, img, nil))
	return writeFile(t, dir, name, buf.Bytes())
}

// deep returns img with 16 bits per channel.
func deep(img *image.RGBA) *image.RGBA64 {
	out := image.NewRGBA64(img.Bounds())
	draw.Draw(out, out.Bounds(), img, image.Point{}, draw.Src)
	return out
}

// writeP3JPEG writes a flat image of c, in Display P3: c converted from
// sRGB to P3 numbers, with libvips' P3 profile embedded.
func writeP3JPEG(t testing.TB, dir string, c color.RGBA, size image.Point) string {
	t.Helper()
	flat := image.NewRGBA(image.Rectangle{Max: size})
	draw.Draw(flat, flat.Bounds(), &image.Uniform{c}, image.Point{}, draw.Src)
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, flat, &jpeg.Options{Quality: 100}))
	img, err := vips.NewImageFromBuffer(buf.Bytes())
	require.NoError(t, err)
	defer img.Close()
	require.NoError(t, img.TransformICCProfileWithFallback("p3", "srgb"))
	require.NotEqual(t, c.R, uint8(pixel(t, img)[0]), "the P3 numbers differ from the sRGB ones")
	out, _, err := img.ExportJpeg(&vips.JpegExportParams{Quality: 100})
	require.NoError(t, err)
	return writeFile(t, dir, "p3.jpg", out)
}

func pixel(t testing.TB, img *vips.ImageRef) []float64 {
	t.Helper()
	p, err := img.GetPoint(10, 10)
	require.NoError(t, err)
	return p
}

// writeCMYKJPEG writes a flat CMYK JPEG of c, without a profile (libvips
// then assumes its built-in CMYK profile, as print workflows do).
func writeCMYKJPEG(t testing.TB, dir string, c color.RGBA, size image.Point) string {
	t.Helper()
	var buf bytes.Buffer
	flat := image.NewRGBA(image.Rectangle{Max: size})
	draw.Draw(flat, flat.Bounds(), &image.Uniform{c}, image.Point{}, draw.Src)
	require.NoError(t, jpeg.Encode(&buf, flat, &jpeg.Options{Quality: 100}))
	img, err := vips.NewImageFromBuffer(buf.Bytes())
	require.NoError(t, err)
	defer img.Close()
	require.NoError(t, img.ToColorSpace(vips.InterpretationCMYK))
	require.Equal(t, 4, img.Bands())
	out, _, err := img.ExportJpeg(&vips.JpegExportParams{Quality: 100, StripMetadata: true})
	require.NoError(t, err)
	return writeFile(t, dir, "cmyk.jpg", out)
}

// writeLargeJPEG writes a w×h JPEG of a scene drawn at a quarter of the
// size and enlarged by libvips: drawing 12 MP in Go is slow under the race
// detector.
func writeLargeJPEG(t testing.TB, dir, name string, w, h int) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, scene(w/4, h/4, 1)))
	img, err := vips.NewImageFromBuffer(buf.Bytes())
	require.NoError(t, err)
	defer img.Close()
	require.NoError(t, img.ResizeWithVScale(float64(w)/float64(w/4), float64(h)/float64(h/4), vips.KernelNearest))
	require.Equal(t, w, img.Width())
	out, _, err := img.ExportJpeg(&vips.JpegExportParams{Quality: 90})
	require.NoError(t, err)
	return writeFile(t, dir, name, out)
}
