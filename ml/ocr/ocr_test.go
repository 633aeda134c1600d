package ocr

import (
	"context"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/internal/mltest"
	"github.com/photoctl/photoctl/ml/internal/raster"
)

func newReader(t testing.TB) *Reader {
	t.Helper()
	r, err := New(mltest.Runtime(t, 0), Config{})
	require.NoError(t, err)
	return r
}

type drawn struct {
	text string
	size float64
	at   image.Point // baseline start
	ttf  []byte
}

// render draws lines of text with the Go fonts on a light, slightly
// uneven background, as a sign or a page in a photo.
func render(t testing.TB, w, h int, lines []drawn) *image.RGBA {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := uint8(225 + 20*x/w)
			img.SetRGBA(x, y, color.RGBA{v, v - 5, v - 15, 255})
		}
	}
	for _, l := range lines {
		f, err := opentype.Parse(l.ttf)
		require.NoError(t, err)
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: l.size, DPI: 72, Hinting: font.HintingFull})
		require.NoError(t, err)
		d := &font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{25, 30, 70, 255}), Face: face, Dot: fixed.P(l.at.X, l.at.Y)}
		d.DrawString(l.text)
	}
	return img
}

// words drops the spaces: the model (trained mostly on Chinese) sometimes
// runs two English words together; the letters must all be right.
func words(s string) string { return strings.ReplaceAll(s, " ", "") }

func TestReadTextReadsRenderedLinesInReadingOrder(t *testing.T) {
	r := newReader(t)
	want := []drawn{
		{"Photoctl reads text", 44, image.Pt(40, 80), gobold.TTF},
		{"Invoice 2024-05-17", 32, image.Pt(40, 170), goregular.TTF},
		{"Total: 42.50 EUR", 32, image.Pt(520, 170), goregular.TTF},
		{"Meet me at the harbour at 9 pm", 26, image.Pt(40, 260), goregular.TTF},
	}
	img := render(t, 900, 320, want)

	lines, err := r.ReadText(context.Background(), img)
	require.NoError(t, err)
	got := make([]string, len(lines))
	for i, l := range lines {
		got[i] = words(l.Text)
	}
	require.Equal(t, []string{words(want[0].text), words(want[1].text), words(want[2].text), words(want[3].text)}, got,
		"the second row's two lines come left to right")
	for i, l := range lines {
		require.GreaterOrEqual(t, l.Score, 0.9, "line %q", l.Text)
		// The box holds a point in the line's first letter.
		p := ml.PointOf(img.Bounds(), float64(want[i].at.X)+want[i].size/4, float64(want[i].at.Y)-want[i].size/4)
		require.True(t, p.X >= l.Box.X && p.X <= l.Box.X+l.Box.Width && p.Y >= l.Box.Y && p.Y <= l.Box.Y+l.Box.Height,
			"line %q: %+v not in %+v", l.Text, p, l.Box)
		require.Less(t, l.Quad[0].X, l.Quad[1].X, "quad starts top-left, clockwise")
		require.Less(t, l.Quad[1].Y, l.Quad[2].Y)
	}

	text, err := r.Text(context.Background(), img)
	require.NoError(t, err)
	require.Equal(t, 3, strings.Count(text, "\n"))
	require.Contains(t, words(text), "Total:42.50EUR")
}

func TestReadTextReadsTiltedAndVerticalText(t *testing.T) {
	r := newReader(t)
	flat := raster.FromImage(render(t, 700, 120, []drawn{{"SUMMER SALE 2025", 48, image.Pt(30, 80), gobold.TTF}}))

	// Tilted by 8°: the detector's rotated boxes follow the line.
	a := 8 * math.Pi / 180
	toSrc := raster.Affine{A: math.Cos(a), B: -math.Sin(a), D: math.Sin(a), E: math.Cos(a)}
	toSrc.C, toSrc.F = 350-toSrc.A*400-toSrc.B*250, 60-toSrc.D*400-toSrc.E*250
	tilted := flat.Warp(800, 500, toSrc, true)
	lines, err := r.ReadText(context.Background(), tilted)
	require.NoError(t, err)
	require.Len(t, lines, 1)
	require.Equal(t, "SUMMERSALE2025", words(lines[0].Text))
	// The line rises to the right by about tan 8° of its width.
	rise := (lines[0].Quad[0].Y - lines[0].Quad[1].Y) * 500
	run := (lines[0].Quad[1].X - lines[0].Quad[0].X) * 800
	require.InDelta(t, math.Tan(a), rise/run, 0.03, "the outline tilts with the text")

	// Turned a quarter clockwise (reading top to bottom): turned back to
	// be read. (Text turned the other way, or upside down, would need
	// PaddleOCR's direction classifier, which is not used.)
	turned := flat.Warp(120, 700, raster.Affine{B: 1, D: -1, F: 120}, true)
	lines, err = r.ReadText(context.Background(), turned)
	require.NoError(t, err)
	require.Len(t, lines, 1)
	require.Equal(t, "SUMMERSALE2025", words(lines[0].Text))
}

func TestReadTextReadsAScannedPage(t *testing.T) {
	r := newReader(t)
	text, err := r.Text(context.Background(), mltest.Photo(t, "skimage-page.png"))
	require.NoError(t, err)
	for _, want := range []string{"Region-based segmentation", "Let us first determine markers of the coins and the", "histogram of grey values:"} {
		require.Contains(t, words(text), words(want))
	}
}

func TestReadTextFindsNothingInAPortrait(t *testing.T) {
	r := newReader(t)
	lines, err := r.ReadText(context.Background(), mltest.Photo(t, "pigo-sample.jpg"))
	require.NoError(t, err)
	require.Empty(t, lines)
	require.NotNil(t, lines, "no text is an empty slice")
}

func TestReadTextOnTinyOrBlankImagesFindsNothing(t *testing.T) {
	r := newReader(t)
	for _, img := range []image.Image{
		image.NewRGBA(image.Rect(0, 0, 0, 0)),
		image.NewGray(image.Rect(0, 0, 1, 1)),
		image.NewGray(image.Rect(0, 0, 3000, 20)),
		image.NewNRGBA(image.Rect(0, 0, 640, 480)),
	} {
		lines, err := r.ReadText(context.Background(), img)
		require.NoError(t, err)
		require.NotNil(t, lines)
		require.Empty(t, lines)
	}
}

func TestReadTextStopsWhenTheContextIsCancelled(t *testing.T) {
	r := newReader(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := r.ReadText(ctx, mltest.Photo(t, "skimage-page.png"))
	require.ErrorIs(t, err, context.Canceled)
}

func TestNewWithoutModelsIsUnavailable(t *testing.T) {
	_, err := New(mltest.RuntimeWithoutModels(t), Config{})
	require.ErrorIs(t, err, ml.ErrUnavailable)
	require.ErrorContains(t, err, Dictionary)
}

func TestConfigValidate(t *testing.T) {
	require.NoError(t, Config{}.Validate())
	require.Error(t, Config{BoxThreshold: 1}.Validate())
	require.Error(t, Config{MinScore: -0.5}.Validate())
	require.Error(t, Config{MaxSide: -1}.Validate())
}

func TestMinAreaRectFitsARotatedRectangle(t *testing.T) {
	// The corners and edge points of a 40×10 rectangle turned by 30°.
	a := math.Pi / 6
	var pts [][2]float64
	for _, p := range [][2]float64{{-20, -5}, {20, -5}, {20, 5}, {-20, 5}, {0, -5}, {0, 5}, {-20, 0}} {
		pts = append(pts, [2]float64{100 + p[0]*math.Cos(a) - p[1]*math.Sin(a), 50 + p[0]*math.Sin(a) + p[1]*math.Cos(a)})
	}
	r := minAreaRect(pts)
	w, h := math.Max(r.w, r.h), math.Min(r.w, r.h)
	require.InDelta(t, 40, w, 1e-9)
	require.InDelta(t, 10, h, 1e-9)
	require.InDelta(t, 100, r.cx, 1e-9)
	require.InDelta(t, 50, r.cy, 1e-9)
	q := r.quad()
	require.Less(t, q[0][0], q[1][0])
	require.Less(t, q[0][1], q[3][1])
	require.True(t, r.contains(100, 50))
	require.False(t, r.contains(100, 60))
}
