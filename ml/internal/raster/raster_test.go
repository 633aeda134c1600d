package raster

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func fill(w, h int, f func(x, y int) (r, g, b uint8)) *Image {
	m := New(w, h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := (y*w + x) * 3
			m.Pix[i], m.Pix[i+1], m.Pix[i+2] = f(x, y)
		}
	}
	return m
}

func TestFromImageReadsEveryDecodedType(t *testing.T) {
	src := image.NewNRGBA(image.Rect(10, 20, 14, 23))
	for y := 20; y < 23; y++ {
		for x := 10; x < 14; x++ {
			src.Set(x, y, color.NRGBA{uint8(x * 10), uint8(y * 5), 7, 255})
		}
	}
	want := FromImage(src)
	require.Equal(t, 4, want.W)
	require.Equal(t, 3, want.H)
	require.Equal(t, [3]uint8{100, 100, 7}, [3]uint8(want.Pix[:3]))

	rgba := image.NewRGBA(src.Bounds())
	ycc := image.NewYCbCr(src.Bounds(), image.YCbCrSubsampleRatio444)
	paletted := image.NewPaletted(src.Bounds(), nil)
	for y := 20; y < 23; y++ {
		for x := 10; x < 14; x++ {
			rgba.Set(x, y, src.At(x, y))
		}
	}
	require.Equal(t, want.Pix, FromImage(rgba).Pix)
	require.Equal(t, want.Pix, FromImage(image.Image(want)).Pix)
	// YCbCr is lossy by a unit or so; the generic path must agree with
	// the fast one.
	for y := 20; y < 23; y++ {
		for x := 10; x < 14; x++ {
			r, g, b, _ := src.At(x, y).RGBA()
			yy, cb, cr := color.RGBToYCbCr(uint8(r>>8), uint8(g>>8), uint8(b>>8))
			ycc.Y[ycc.YOffset(x, y)], ycc.Cb[ycc.COffset(x, y)], ycc.Cr[ycc.COffset(x, y)] = yy, cb, cr
		}
	}
	fast := FromImage(ycc)
	for i := range fast.Pix {
		require.InDelta(t, want.Pix[i], fast.Pix[i], 2)
	}
	paletted.Palette = color.Palette{color.Black}
	require.Equal(t, make([]uint8, 36), FromImage(paletted).Pix)
}

func TestResizeKeepsFlatColourAndAveragesDetail(t *testing.T) {
	flat := fill(97, 61, func(x, y int) (uint8, uint8, uint8) { return 200, 100, 50 })
	for _, size := range [][2]int{{10, 7}, {97, 61}, {300, 200}} {
		out := flat.Resize(Rect{X1: 97, Y1: 61}, size[0], size[1])
		for i := 0; i < len(out.Pix); i += 3 {
			require.Equal(t, []uint8{200, 100, 50}, out.Pix[i:i+3])
		}
	}
	// A one-pixel checkerboard shrunk 8 times is mid-gray, not a pattern
	// (no aliasing; the triangle filter leaves a ripple of a few levels).
	checker := fill(256, 256, func(x, y int) (uint8, uint8, uint8) {
		v := uint8(255 * ((x + y) % 2))
		return v, v, v
	})
	for _, out := range []*Image{checker.Resize(Rect{X1: 256, Y1: 256}, 32, 32), checker.Scaled(32, 32), checker.Half()} {
		for _, v := range out.Pix {
			require.InDelta(t, 128, int(v), 6)
		}
	}
}

func TestSimilarityRecoversATransform(t *testing.T) {
	angle, s := 0.3, 1.7
	want := Affine{A: s * math.Cos(angle), B: -s * math.Sin(angle), C: 12, D: s * math.Sin(angle), E: s * math.Cos(angle), F: -5}
	src := [][2]float64{{1, 2}, {30, 4}, {15, 20}, {5, 33}, {28, 31}}
	dst := make([][2]float64, len(src))
	for i, p := range src {
		dst[i][0], dst[i][1] = want.Apply(p[0], p[1])
	}
	got := Similarity(src, dst)
	require.InDelta(t, want.A, got.A, 1e-9)
	require.InDelta(t, want.B, got.B, 1e-9)
	require.InDelta(t, want.C, got.C, 1e-9)
	require.InDelta(t, want.D, got.D, 1e-9)
	require.InDelta(t, want.E, got.E, 1e-9)
	require.InDelta(t, want.F, got.F, 1e-9)
	x, y := got.Invert().Apply(dst[2][0], dst[2][1])
	require.InDelta(t, src[2][0], x, 1e-9)
	require.InDelta(t, src[2][1], y, 1e-9)
	require.InDelta(t, s, got.Scale(), 1e-9)
}

func TestWarpWithTheIdentityCopies(t *testing.T) {
	m := fill(20, 10, func(x, y int) (uint8, uint8, uint8) { return uint8(x * 12), uint8(y * 20), 9 })
	require.Equal(t, m.Pix, m.Warp(20, 10, Affine{A: 1, E: 1}, false).Pix)
	// Outside the image: black, or the edge when replicating.
	shifted := m.Warp(20, 10, Affine{A: 1, E: 1, C: -5}, false)
	require.Equal(t, []uint8{0, 0, 0}, shifted.Pix[:3])
	shifted = m.Warp(20, 10, Affine{A: 1, E: 1, C: -5}, true)
	require.Equal(t, m.Pix[:3], shifted.Pix[:3])
	require.Equal(t, m.Pix, m.Mirror().Mirror().Pix)
}

func TestPlanarNormalisesAndOrdersChannels(t *testing.T) {
	m := fill(2, 1, func(x, y int) (uint8, uint8, uint8) { return 10, 20, 30 })
	rgb := m.Planar(false, [3]float32{0, 0, 0}, [3]float32{1, 1, 1})
	require.Equal(t, []float32{10, 10, 20, 20, 30, 30}, rgb)
	bgr := m.Planar(true, [3]float32{30, 0, 0}, [3]float32{2, 1, 1})
	require.Equal(t, []float32{0, 0, 20, 20, 10, 10}, bgr)
	require.InDelta(t, (0.299*10+0.587*20+0.114*30)/256, m.Gray(1.0 / 256)[0], 1e-6)
}
