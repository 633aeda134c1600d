package variant_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/variant"
)

// TestRenderEmbeddedAppliesTheRAWsOrientation renders a RAW file's
// embedded preview (a JPEG without orientation of its own) turned by each
// EXIF orientation of the RAW: the red mark of scene's top-left corner must
// land where the EXIF specification puts it.
func TestRenderEmbeddedAppliesTheRAWsOrientation(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, scene(800, 600, 7), &jpeg.Options{Quality: 90}))
	r := newRenderer(t, variant.Config{})
	for _, c := range []struct {
		orientation int
		size        image.Point // of the fullsize
		corner      func(w, h int) image.Point
	}{
		{0, image.Pt(800, 600), func(w, h int) image.Point { return image.Pt(10, 10) }},
		{1, image.Pt(800, 600), func(w, h int) image.Point { return image.Pt(10, 10) }},
		{2, image.Pt(800, 600), func(w, h int) image.Point { return image.Pt(w-10, 10) }},
		{3, image.Pt(800, 600), func(w, h int) image.Point { return image.Pt(w-10, h-10) }},
		{4, image.Pt(800, 600), func(w, h int) image.Point { return image.Pt(10, h-10) }},
		{5, image.Pt(600, 800), func(w, h int) image.Point { return image.Pt(10, 10) }},
		{6, image.Pt(600, 800), func(w, h int) image.Point { return image.Pt(w-10, 10) }},
		{7, image.Pt(600, 800), func(w, h int) image.Point { return image.Pt(w-10, h-10) }},
		{8, image.Pt(600, 800), func(w, h int) image.Point { return image.Pt(10, h-10) }},
	} {
		res, err := r.RenderEmbedded(t.Context(), buf.Bytes(), c.orientation)
		require.NoError(t, err, "orientation %d", c.orientation)
		require.Equal(t, c.size, image.Pt(res.Width, res.Height), "orientation %d", c.orientation)
		require.NotNil(t, res.Fullsize, "a RAW always gets a fullsize")
		full := decode(t, res.Fullsize)
		require.Equal(t, c.size, full.Bounds().Size())
		requireRed(t, full.At(c.corner(c.size.X, c.size.Y).X, c.corner(c.size.X, c.size.Y).Y), "the marked corner")
		preview := decode(t, res.Preview)
		require.Equal(t, c.size, preview.Bounds().Size(), "a preview is never enlarged")
		pw, ph := preview.Bounds().Dx(), preview.Bounds().Dy()
		requireRed(t, preview.At(c.corner(pw, ph).X, c.corner(pw, ph).Y), "the preview's marked corner")
	}
}

func TestRenderEmbeddedKeepsTheJPEGsOwnOrientation(t *testing.T) {
	path := writeJPEG(t, t.TempDir(), "preview.jpg", scene(800, 600, 8))
	tool(t, "exiftool", "-q", "-overwrite_original", "-Orientation#=6", path)
	data := readFile(t, path)
	res, err := newRenderer(t, variant.Config{}).RenderEmbedded(t.Context(), data, 3)
	require.NoError(t, err)
	require.Equal(t, image.Pt(600, 800), image.Pt(res.Width, res.Height), "its own orientation 6 wins over 3")
	full := decode(t, res.Fullsize)
	requireRed(t, full.At(600-10, 10), "top right")
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// TestSampleOfStoredPreview: Renderer.Sample makes from a stored preview
// the very pixels Render's Sample holds, so the metrics of a re-run match.
func TestSampleOfStoredPreview(t *testing.T) {
	path := writeJPEG(t, t.TempDir(), "photo.jpg", scene(800, 600, 9))
	r := newRenderer(t, variant.Config{})
	res, err := r.Render(t.Context(), path, "image/jpeg")
	require.NoError(t, err)
	img, err := r.Sample(t.Context(), res.Preview)
	require.NoError(t, err)
	require.Equal(t, image.Pt(512, 384), img.Bounds().Size())
	require.Equal(t, res.Sample.Pix, img.Pix)
}
