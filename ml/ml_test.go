package ml_test

import (
	"image"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml"
)

func TestBoxAndPointConvertBetweenPixelsAndFractions(t *testing.T) {
	r := image.Rect(10, 20, 410, 320) // 400×300, not at the origin
	b := ml.BoxOf(r, 110, 95, 210, 170)
	require.InDelta(t, 0.25, b.X, 1e-12)
	require.InDelta(t, 0.25, b.Y, 1e-12)
	require.InDelta(t, 0.25, b.Width, 1e-12)
	require.InDelta(t, 0.25, b.Height, 1e-12)
	x0, y0, x1, y1 := b.Pixels(r)
	require.Equal(t, [4]float64{110, 95, 210, 170}, [4]float64{x0, y0, x1, y1})

	clipped := ml.BoxOf(r, 0, 0, 1000, 100)
	require.Equal(t, ml.Box{X: 0, Y: 0, Width: 1, Height: 80.0 / 300}, clipped)

	p := ml.PointOf(r, 10, 470) // below the picture: kept, not clipped
	require.Equal(t, ml.Point{X: 0, Y: 1.5}, p)
	x, y := p.Pixels(r)
	require.Equal(t, [2]float64{10, 470}, [2]float64{x, y})
}

func TestCosine(t *testing.T) {
	a := ml.Embedding{1, 0}
	b := ml.Embedding{float32(math.Sqrt(0.5)), float32(math.Sqrt(0.5))}
	require.InDelta(t, 1, a.Cosine(a), 1e-7)
	require.InDelta(t, math.Sqrt(0.5), a.Cosine(b), 1e-7)
	require.InDelta(t, -1, a.Cosine(ml.Embedding{-1, 0}), 1e-7)
	require.Zero(t, a.Cosine(ml.Embedding{1, 0, 0}))
}

func TestPoints5AveragesTheEyesAndMouthCorners(t *testing.T) {
	var f ml.Face
	for i := 36; i <= 41; i++ {
		f.Landmarks[i] = ml.Point{X: 0.3, Y: 0.4}
	}
	for i := 42; i <= 47; i++ {
		f.Landmarks[i] = ml.Point{X: 0.7, Y: 0.4}
	}
	f.Landmarks[30] = ml.Point{X: 0.5, Y: 0.6}
	f.Landmarks[48], f.Landmarks[60] = ml.Point{X: 0.35, Y: 0.8}, ml.Point{X: 0.45, Y: 0.8}
	f.Landmarks[54], f.Landmarks[64] = ml.Point{X: 0.65, Y: 0.8}, ml.Point{X: 0.55, Y: 0.8}
	p := f.Points5()
	require.InDelta(t, 0.3, p[0].X, 1e-12)
	require.InDelta(t, 0.7, p[1].X, 1e-12)
	require.Equal(t, ml.Point{X: 0.5, Y: 0.6}, p[2])
	require.InDelta(t, 0.4, p[3].X, 1e-12)
	require.InDelta(t, 0.6, p[4].X, 1e-12)
}
