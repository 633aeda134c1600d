package variant_test

import (
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/variant"
)

func TestRenderFullsizeForFormatsBrowsersDoNotShow(t *testing.T) {
	dir := t.TempDir()
	// Small sources: HEIC and AVIF encoders are slow, and so is the race
	// detector on the Go encoders.
	src := writePNG(t, dir, "src.png", scene(400, 300, 9))
	heic, avif := filepath.Join(dir, "a.heic"), filepath.Join(dir, "a.avif")
	cases := []struct {
		name, mime string
		make       func(t *testing.T) string
		w, h       int
		fullExt    string
	}{
		{"an 8-bit TIFF", "image/tiff", func(t *testing.T) string { return writeTIFF(t, dir, "a.tiff", scene(800, 600, 9)) }, 800, 600, ".webp"},
		{"a 16-bit TIFF", "image/tiff", func(t *testing.T) string { return writeTIFF(t, dir, "b.tiff", deep(scene(800, 600, 9))) }, 800, 600, ".webp"},
		{"a TIFF wider than WebP allows", "image/tiff", func(t *testing.T) string { return writeTIFF(t, dir, "wide.tiff", scene(16400, 40, 9)) }, 16400, 40, ".jpg"},
		{"a HEIC", "image/heic", func(t *testing.T) string { tool(t, "heif-enc", "-q", "80", src, "-o", heic); return heic }, 400, 300, ".webp"},
		{"an AVIF", "image/avif", func(t *testing.T) string { tool(t, "heif-enc", "-A", "-q", "80", src, "-o", avif); return avif }, 400, 300, ".webp"},
	}
	r := newRenderer(t, variant.Config{})
	for _, tc := range cases {
		t.Run(tc.name+" gets a fullsize", func(t *testing.T) {
			res, err := r.Render(t.Context(), tc.make(t), tc.mime)
			require.NoError(t, err)
			require.NotNil(t, res.Fullsize)
			require.Equal(t, tc.fullExt, res.FullsizeExt)
			full := decode(t, res.Fullsize)
			require.Equal(t, image.Pt(tc.w, tc.h), full.Bounds().Size())
			require.Equal(t, image.Pt(tc.w, tc.h), image.Pt(res.Width, res.Height))
			require.Equal(t, min(max(tc.w, tc.h), 1440), longSide(t, res.Preview))
			require.Equal(t, 250, longSide(t, res.Thumbnail))
			if tc.h > 100 {
				requireRed(t, full.At(10, 10), "fullsize's top left")
				requireRed(t, res.Sample.At(5, 5), "sample's top left")
			}
		})
	}
}

// TestRenderConvertsToSRGB embeds a Display P3 profile: the variants carry
// no profile, so their pixels must be the colour converted to sRGB, not
// the P3 numbers.
// sizes are a small photo, decoded whole, and one libjpeg decodes at half
// size (shrink-on-load), for the colour tests.
var sizes = []image.Point{{300, 200}, {3000, 2000}}

func TestRenderConvertsToSRGB(t *testing.T) {
	for _, size := range sizes {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			path := writeP3JPEG(t, t.TempDir(), color.RGBA{200, 100, 50, 255}, size)
			res, err := newRenderer(t, variant.Config{}).Render(t.Context(), path, "image/jpeg")
			require.NoError(t, err)
			got := res.Sample.NRGBAAt(res.Sample.Bounds().Dx()/2, res.Sample.Bounds().Dy()/2)
			want := color.NRGBA{200, 100, 50, 255}
			for i, d := range []int{int(got.R) - int(want.R), int(got.G) - int(want.G), int(got.B) - int(want.B)} {
				require.LessOrEqual(t, abs(d), 5, "channel %d: got %v, want about %v", i, got, want)
			}
		})
	}
}

func abs(v int) int { return max(v, -v) }

func TestRenderTransparency(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i-3], img.Pix[i] = 255, 0 // transparent red
	}
	path := writePNG(t, t.TempDir(), "clear.png", img)
	res, err := newRenderer(t, variant.Config{}).Render(t.Context(), path, "image/png")
	require.NoError(t, err)
	require.Equal(t, uint8(0), res.Sample.NRGBAAt(10, 10).A, "WebP keeps transparency")
	_, _, _, a := decode(t, res.Thumbnail).At(10, 10).RGBA()
	require.Zero(t, a)

	res, err = newRenderer(t, variant.Config{Format: variant.FormatJPEG}).Render(t.Context(), path, "image/png")
	require.NoError(t, err)
	require.Equal(t, color.NRGBA{255, 255, 255, 255}, res.Sample.NRGBAAt(10, 10), "JPEG is flattened onto white")
}

func TestRenderGrayscale(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 600, 400))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i % 251)
	}
	path := writeJPEG(t, t.TempDir(), "gray.jpg", gray)
	res, err := newRenderer(t, variant.Config{}).Render(t.Context(), path, "image/jpeg")
	require.NoError(t, err)
	c := res.Sample.NRGBAAt(100, 100)
	require.Equal(t, c.R, c.G)
	require.Equal(t, c.G, c.B)
	require.Equal(t, uint8(255), c.A)
}

func TestRenderCMYK(t *testing.T) {
	for _, size := range sizes {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			path := writeCMYKJPEG(t, t.TempDir(), color.RGBA{40, 160, 90, 255}, size)
			res, err := newRenderer(t, variant.Config{}).Render(t.Context(), path, "image/jpeg")
			require.NoError(t, err)
			got := res.Sample.NRGBAAt(20, 20)
			require.True(t, got.G > got.R+60 && got.G > got.B+30, "a green CMYK JPEG comes out green in RGB, got %v", got)
		})
	}
}
