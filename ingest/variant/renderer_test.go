package variant_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sync/errgroup"

	"github.com/photoctl/photoctl/ingest/variant"
)

// TestMain starts libvips through NewRenderer before any test helper calls
// govips directly: govips would otherwise start it with its own defaults
// (a 50 MB operation cache, info logging), which NewRenderer could no
// longer change.
func TestMain(m *testing.M) {
	r, err := variant.NewRenderer(variant.Config{})
	if err != nil {
		panic(err)
	}
	r.Close()
	os.Exit(m.Run())
}

func newRenderer(t testing.TB, cfg variant.Config) *variant.Renderer {
	t.Helper()
	r, err := variant.NewRenderer(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

// longSide returns the long side of encoded variant bytes.
func longSide(t testing.TB, b []byte) int {
	t.Helper()
	s := decode(t, b).Bounds().Size()
	return max(s.X, s.Y)
}

func TestRenderSizes(t *testing.T) {
	dir := t.TempDir()
	large := writeLargeJPEG(t, dir, "large.jpg", 4000, 3000)
	small := writePNG(t, dir, "small.png", scene(800, 600, 2))
	tiny := writePNG(t, dir, "tiny.png", scene(120, 90, 3))
	cases := []struct {
		name            string
		path, mime      string
		preview, thumb  int
		sampleW, sample int
		w, h            int
	}{
		{"a 12 MP JPEG gets a 1440 px preview and a 250 px thumbnail", large, "image/jpeg", 1440, 250, 512, 384, 4000, 3000},
		{"a small PNG keeps its size as the preview", small, "image/png", 800, 250, 512, 384, 800, 600},
		{"a tiny PNG is never enlarged", tiny, "image/png", 120, 120, 120, 90, 120, 90},
	}
	r := newRenderer(t, variant.Config{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := r.Render(t.Context(), tc.path, tc.mime)
			require.NoError(t, err)
			require.Equal(t, ".webp", res.Ext)
			require.Nil(t, res.Fullsize, "a browser format is served as the original")
			require.Equal(t, tc.w, res.Width)
			require.Equal(t, tc.h, res.Height)
			require.Equal(t, tc.preview, longSide(t, res.Preview))
			require.Equal(t, tc.thumb, longSide(t, res.Thumbnail))
			require.Equal(t, image.Pt(tc.sampleW, tc.sample), res.Sample.Bounds().Size())
		})
	}
}

func TestRenderJPEGFormat(t *testing.T) {
	path := writeJPEG(t, t.TempDir(), "a.jpg", scene(2000, 1000, 4))
	r := newRenderer(t, variant.Config{Format: variant.FormatJPEG, Quality: 70})
	res, err := r.Render(t.Context(), path, "image/jpeg")
	require.NoError(t, err)
	require.Equal(t, ".jpg", res.Ext)
	require.Equal(t, []byte{0xff, 0xd8, 0xff}, res.Preview[:3])
	require.Equal(t, []byte{0xff, 0xd8, 0xff}, res.Thumbnail[:3])
	require.Equal(t, image.Pt(1440, 720), decode(t, res.Preview).Bounds().Size())
}

// TestRenderOrientation writes EXIF orientation 6 (rotate 90° clockwise to
// display) with exiftool: the variants come out portrait, with the red
// mark of the stored top-left corner at the top right. The larger photo is
// decoded by libjpeg at half size (shrink-on-load), the smaller whole.
func TestRenderOrientation(t *testing.T) {
	for _, size := range []image.Point{{1600, 1200}, {3200, 2400}} {
		t.Run(fmt.Sprintf("%dx%d", size.X, size.Y), func(t *testing.T) {
			path := writeJPEG(t, t.TempDir(), "rotated.jpg", scene(size.X, size.Y, 5))
			tool(t, "exiftool", "-q", "-overwrite_original", "-Orientation#=6", path)
			res, err := newRenderer(t, variant.Config{}).Render(t.Context(), path, "image/jpeg")
			require.NoError(t, err)
			require.Equal(t, size.Y, res.Width)
			require.Equal(t, size.X, res.Height)
			preview := decode(t, res.Preview)
			require.Equal(t, image.Pt(1080, 1440), preview.Bounds().Size())
			require.Equal(t, image.Pt(188, 250), decode(t, res.Thumbnail).Bounds().Size())
			require.Equal(t, image.Pt(384, 512), res.Sample.Bounds().Size())
			requireRed(t, preview.At(1080-20, 20), "top right")
			requireRed(t, res.Sample.At(res.Sample.Bounds().Dx()-5, 5), "sample's top right")
		})
	}
}

func requireRed(t *testing.T, c color.Color, where string) {
	t.Helper()
	r, g, b, _ := c.RGBA()
	require.True(t, r>>8 > 200 && g>>8 < 60 && b>>8 < 60, "%s is %v, want red", where, c)
}

func TestRenderStripsMetadata(t *testing.T) {
	dir := t.TempDir()
	path := writeJPEG(t, dir, "tagged.jpg", scene(1000, 800, 6))
	tool(t, "exiftool", "-q", "-overwrite_original", "-Make=Canon", "-Model=EOS R5",
		"-GPSLatitude=48.8583", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
		"-Artist=Someone", "-XMP-dc:Subject=secret", path)
	require.Contains(t, string(tool(t, "exiftool", "-Make", "-GPSLatitude", path)), "Canon")
	for _, format := range []string{variant.FormatWebP, variant.FormatJPEG} {
		res, err := newRenderer(t, variant.Config{Format: format}).Render(t.Context(), path, "image/jpeg")
		require.NoError(t, err)
		for name, b := range map[string][]byte{"thumbnail": res.Thumbnail, "preview": res.Preview} {
			out := writeFile(t, dir, format+"-"+name+res.Ext, b)
			tags := string(tool(t, "exiftool", "-a", "-G1", "-EXIF:all", "-GPS:all", "-XMP:all", "-ICC_Profile:all", "-Make", "-Artist", out))
			require.Empty(t, tags, "%s %s still has metadata", format, name)
		}
	}
}

func TestRenderRefusesADecompressionBomb(t *testing.T) {
	path := writeFile(t, t.TempDir(), "bomb.png", bombPNG(t, 50000, 50000))
	start := time.Now()
	_, err := newRenderer(t, variant.Config{}).Render(t.Context(), path, "image/png")
	require.ErrorIs(t, err, variant.ErrTooLarge)
	require.ErrorContains(t, err, "50000x50000")
	require.Less(t, time.Since(start), time.Second)
}

func TestRenderMaxPixelsIsConfigurable(t *testing.T) {
	path := writePNG(t, t.TempDir(), "a.png", scene(200, 100, 7))
	_, err := newRenderer(t, variant.Config{MaxPixels: 19_999}).Render(t.Context(), path, "image/png")
	require.ErrorIs(t, err, variant.ErrTooLarge)
	_, err = newRenderer(t, variant.Config{MaxPixels: 20_000}).Render(t.Context(), path, "image/png")
	require.NoError(t, err)
}

func TestRenderRefusesWhatItCannotDecode(t *testing.T) {
	dir := t.TempDir()
	png := writePNG(t, dir, "a.png", scene(64, 48, 8))
	svg := writeFile(t, dir, "a.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`))
	cases := []struct {
		name, path, mime string
	}{
		{"a video", png, "video/mp4"},
		{"a camera RAW format", png, "image/x-adobe-dng"},
		{"a PNG sniffed as HEIC", png, "image/heic"},
		{"an SVG called a JPEG", svg, "image/jpeg"},
	}
	r := newRenderer(t, variant.Config{})
	for _, tc := range cases {
		t.Run(tc.name+" is unsupported", func(t *testing.T) {
			_, err := r.Render(t.Context(), tc.path, tc.mime)
			require.ErrorIs(t, err, variant.ErrUnsupported)
		})
	}
	_, err := r.Render(t.Context(), filepath.Join(dir, "missing.jpg"), "image/jpeg")
	require.ErrorIs(t, err, os.ErrNotExist)
}

// A JPEG or PNG that ends before its image does is refused, whatever
// FF D9 bytes precede its scan (an EXIF thumbnail ends with one); bytes
// after the end of the image are a trailer, not a truncation.
func TestRenderRefusesATruncatedFile(t *testing.T) {
	dir := t.TempDir()
	jpg := readFile(t, writeJPEG(t, dir, "a.jpg", scene(320, 240, 11)))
	png := readFile(t, writePNG(t, dir, "a.png", scene(320, 240, 12)))
	// A comment segment holding an end-of-image marker, before the scan.
	withMarker := append([]byte{0xFF, 0xD8, 0xFF, 0xFE, 0x00, 0x06, 'x', 0xFF, 0xD9, 'y'}, jpg[2:]...)
	r := newRenderer(t, variant.Config{})
	for _, tc := range []struct {
		name, mime string
		data       []byte
	}{
		{"a JPEG cut in half", "image/jpeg", jpg[:len(jpg)/2]},
		{"a JPEG cut before its scan", "image/jpeg", jpg[:30]},
		{"a JPEG cut in half with FF D9 before its scan", "image/jpeg", withMarker[:len(withMarker)/2]},
		{"a JPEG without its last two bytes", "image/jpeg", jpg[:len(jpg)-2]},
		{"a PNG cut in half", "image/png", png[:len(png)/2]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.Render(t.Context(), writeFile(t, dir, "cut", tc.data), tc.mime)
			require.ErrorIs(t, err, variant.ErrTruncated)
		})
	}
	for _, tc := range []struct {
		name, mime string
		data       []byte
	}{
		{"a JPEG with FF D9 before its scan", "image/jpeg", withMarker},
		{"a JPEG with a trailer", "image/jpeg", append(bytes.Clone(jpg), "SEFT trailer"...)},
		{"a PNG", "image/png", png},
	} {
		t.Run(tc.name+" renders", func(t *testing.T) {
			res, err := r.Render(t.Context(), writeFile(t, dir, "whole", tc.data), tc.mime)
			require.NoError(t, err)
			require.Equal(t, 320, res.Width)
		})
	}
}

func TestRenderCancelled(t *testing.T) {
	path := writePNG(t, t.TempDir(), "a.png", scene(64, 48, 10))
	r := newRenderer(t, variant.Config{Concurrency: 1})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := r.Render(ctx, path, "image/png")
	require.ErrorIs(t, err, context.Canceled)
}

func TestRenderAfterClose(t *testing.T) {
	path := writePNG(t, t.TempDir(), "a.png", scene(64, 48, 11))
	r, err := variant.NewRenderer(variant.Config{})
	require.NoError(t, err)
	require.NoError(t, r.Close())
	_, err = r.Render(t.Context(), path, "image/png")
	require.ErrorIs(t, err, variant.ErrClosed)
}

// TestRenderConcurrently renders from many goroutines through a renderer
// that decodes two at a time (run it with -race).
func TestRenderConcurrently(t *testing.T) {
	dir := t.TempDir()
	paths := make([]string, 6)
	for i := range paths {
		paths[i] = writeJPEG(t, dir, fmt.Sprintf("%d.jpg", i), scene(1200+100*i, 900, uint64(i)))
	}
	r := newRenderer(t, variant.Config{Concurrency: 2})
	var g errgroup.Group
	for i, p := range paths {
		g.Go(func() error {
			res, err := r.Render(t.Context(), p, "image/jpeg")
			if err == nil && res.Width != 1200+100*i {
				err = fmt.Errorf("%s: width %d", p, res.Width)
			}
			return err
		})
	}
	require.NoError(t, g.Wait())
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name string
		cfg  variant.Config
		err  string
	}{
		{"the zero config takes the defaults", variant.Config{}, ""},
		{"JPEG output is allowed", variant.Config{Format: "jpeg", Quality: 100}, ""},
		{"an unknown format is refused", variant.Config{Format: "png"}, "format"},
		{"quality over 100 is refused", variant.Config{Quality: 101}, "quality"},
		{"negative concurrency is refused", variant.Config{Concurrency: -1}, "concurrency"},
		{"a negative pixel limit is refused", variant.Config{MaxPixels: -5}, "max pixels"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tc.err)
			_, err = variant.NewRenderer(tc.cfg)
			require.ErrorContains(t, err, tc.err)
		})
	}
}
