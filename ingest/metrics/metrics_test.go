package metrics_test

import (
	"image"
	"image/color"
	"image/draw"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/metrics"
)

func TestSharpnessOrdersSharpAboveBlurred(t *testing.T) {
	sharp := checkerboard(512, 384, 16)
	soft := blur(sharp, 2)
	softer := blur(sharp, 6)
	s, m, b := metrics.Compute(sharp), metrics.Compute(soft), metrics.Compute(softer)
	require.Greater(t, s.Sharpness, m.Sharpness)
	require.Greater(t, m.Sharpness, b.Sharpness)
	require.Greater(t, s.Sharpness, 0.8, "a hard-edged checkerboard is sharp")
	require.Less(t, b.Sharpness, 0.2, "a strongly blurred one is not")
	require.Greater(t, s.Quality, b.Quality)
}

func TestExposure(t *testing.T) {
	scene := render(512, 384, landscape)
	dark := render(512, 384, func(x, y float64) color.RGBA {
		c := landscape(x, y)
		return rgb(float64(c.R)/8, float64(c.G)/8, float64(c.B)/8)
	})
	bright := render(512, 384, func(x, y float64) color.RGBA {
		c := landscape(x, y)
		return rgb(200+float64(c.R), 200+float64(c.G), 200+float64(c.B))
	})
	mid := image.NewUniform(color.Gray{128})
	s, d, b := metrics.Compute(scene), metrics.Compute(dark), metrics.Compute(bright)
	require.Greater(t, s.Exposure, 0.8, "a daylight scene is well exposed")
	require.Less(t, d.Exposure, 0.3, "an underexposed copy is not")
	require.Less(t, b.Exposure, 0.3, "nor a blown-out one")
	require.InDelta(t, 1, metrics.Compute(sub(mid, 64, 64)).Exposure, 0.01, "mid grey is the ideal")
	require.Greater(t, s.Quality, d.Quality)
}

func TestContrast(t *testing.T) {
	flat := sub(image.NewUniform(color.Gray{100}), 200, 100)
	halves := image.NewGray(image.Rect(0, 0, 200, 100))
	for i := range halves.Pix {
		if i%200 >= 100 {
			halves.Pix[i] = 255
		}
	}
	require.InDelta(t, 0, metrics.Compute(flat).Contrast, 1e-6)
	require.InDelta(t, 1, metrics.Compute(halves).Contrast, 0.01)
	scene := metrics.Compute(render(512, 384, landscape)).Contrast
	require.True(t, scene > 0.1 && scene < 0.9, "a scene's contrast %.2f is in between", scene)
}

func TestColorfulness(t *testing.T) {
	gray := render(512, 384, func(x, y float64) color.RGBA { v := 255 * x; return rgb(v, v, v) })
	vivid := render(512, 384, mosaic)
	g, v := metrics.Compute(gray), metrics.Compute(vivid)
	require.Less(t, g.Colorfulness, 0.01, "a grey image has no colour")
	require.Greater(t, v.Colorfulness, 0.6, "random saturated tiles are very colourful")
	require.Greater(t, metrics.Compute(render(512, 384, landscape)).Colorfulness, 0.2)
}

func TestNoise(t *testing.T) {
	clean := render(512, 384, landscape)
	light, heavy := noisy(clean, 3, 1), noisy(clean, 8, 2)
	c, l, h := metrics.Compute(clean), metrics.Compute(light), metrics.Compute(heavy)
	require.Less(t, c.Noise, 0.05, "a clean render is not noisy")
	require.InDelta(t, 0.3, l.Noise, 0.1, "σ = 3 reads as about 3 levels")
	require.InDelta(t, 0.8, h.Noise, 0.15, "σ = 8 reads as about 8 levels")
	for name, img := range map[string]*image.RGBA{"checkerboard": checkerboard(512, 384, 32), "rings": render(512, 384, rings), "tiles": render(512, 384, mosaic)} {
		require.Less(t, metrics.Compute(img).Noise, 0.05, "the edges of %s are not noise", name)
	}
	require.Greater(t, c.Quality, h.Quality)
}

func TestPHashMatchesScaledAndRecompressedCopies(t *testing.T) {
	for name, p := range map[string]picture{"landscape": landscape, "rings": rings, "diagonal": diagonal, "portrait": portrait, "mosaic": mosaic} {
		t.Run(name, func(t *testing.T) {
			orig := render(800, 600, p)
			hash := metrics.Compute(orig).PHash
			for variant, img := range map[string]image.Image{
				"half size":         scale(orig, 400, 300),
				"thumbnail":         scale(orig, 250, 188),
				"JPEG quality 50":   recompress(t, orig, 50),
				"scaled and JPEG'd": recompress(t, scale(orig, 640, 480), 70),
				"slightly noisy":    noisy(orig, 4, 3),
			} {
				d := metrics.HammingDistance(hash, metrics.Compute(img).PHash)
				require.LessOrEqual(t, d, 6, "%s: distance %d", variant, d)
			}
		})
	}
}

func TestPHashTellsDifferentPicturesApart(t *testing.T) {
	pictures := []picture{landscape, rings, diagonal, portrait, mosaic}
	hashes := make([]string, len(pictures))
	for i, p := range pictures {
		hashes[i] = metrics.Compute(render(800, 600, p)).PHash
		require.Len(t, hashes[i], 16)
	}
	for i := range hashes {
		for j := i + 1; j < len(hashes); j++ {
			d := metrics.HammingDistance(hashes[i], hashes[j])
			require.Greater(t, d, 20, "pictures %d and %d: distance %d", i, j, d)
		}
	}
}

func TestHammingDistance(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		want int
	}{
		{"equal hashes are 0 apart", "0123456789abcdef", "0123456789abcdef", 0},
		{"one bit", "0000000000000000", "0000000000000001", 1},
		{"all bits", "0000000000000000", "ffffffffffffffff", 64},
		{"upper case is read too", "ABCDEF0000000000", "abcdef0000000000", 0},
		{"a short hash is maximally far", "abc", "abc", 64},
		{"a non-hex hash is maximally far", "zzzzzzzzzzzzzzzz", "0000000000000000", 64},
		{"an empty hash is maximally far", "", "", 64},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, metrics.HammingDistance(tc.a, tc.b))
		})
	}
}

// TestComputeReadsEveryImageType checks that the same picture gives the
// same numbers whichever way it is stored, including a sub-image whose
// bounds do not start at the origin.
func TestComputeReadsEveryImageType(t *testing.T) {
	rgba := render(640, 480, landscape)
	nrgba := image.NewNRGBA(rgba.Bounds())
	draw.Draw(nrgba, nrgba.Bounds(), rgba, image.Point{}, draw.Src)
	big := image.NewRGBA(image.Rect(-10, -10, 700, 500))
	draw.Draw(big, image.Rect(0, 0, 640, 480), rgba, image.Point{}, draw.Src)
	want := metrics.Compute(rgba)
	for name, img := range map[string]image.Image{
		"NRGBA":     nrgba,
		"sub-image": big.SubImage(image.Rect(0, 0, 640, 480)),
		"RGBA64":    convert(rgba, image.NewRGBA64(rgba.Bounds())),
	} {
		got := metrics.Compute(img)
		require.Equal(t, want, got, name)
	}
	ycbcr := recompress(t, rgba, 95) // *image.YCbCr
	require.LessOrEqual(t, metrics.HammingDistance(want.PHash, metrics.Compute(ycbcr).PHash), 2)
	require.InDelta(t, want.Exposure, metrics.Compute(ycbcr).Exposure, 0.02)
}

func TestComputeComposesTransparencyOntoWhite(t *testing.T) {
	clear := image.NewNRGBA(image.Rect(0, 0, 64, 64)) // transparent black
	white := image.NewUniform(color.White)
	require.Equal(t, metrics.Compute(sub(white, 64, 64)), metrics.Compute(clear))
	premultiplied := image.NewRGBA(image.Rect(0, 0, 64, 64))
	require.Equal(t, metrics.Compute(sub(white, 64, 64)), metrics.Compute(premultiplied))
}

func TestComputeStaysInRange(t *testing.T) {
	cases := map[string]image.Image{
		"1×1":        sub(image.NewUniform(color.Black), 1, 1),
		"2×3":        render(2, 3, mosaic),
		"white":      sub(image.NewUniform(color.White), 300, 200),
		"pure noise": noisy(sub(image.NewUniform(color.Gray{128}), 300, 200), 120, 4),
		"a panorama": render(4000, 300, landscape),
		"a tower":    render(100, 3000, portrait),
	}
	for name, img := range cases {
		m := metrics.Compute(img)
		for field, v := range map[string]float64{"sharpness": m.Sharpness, "exposure": m.Exposure, "contrast": m.Contrast,
			"colorfulness": m.Colorfulness, "noise": m.Noise, "quality": m.Quality} {
			require.True(t, v >= 0 && v <= 1, "%s: %s = %v", name, field, v)
		}
		require.Len(t, m.PHash, 16, name)
	}
	require.Equal(t, metrics.Metrics{}, metrics.Compute(image.NewRGBA(image.Rectangle{})), "no pixels, no metrics")
}

// sub returns the w×h top-left corner of img as an RGBA image.
func sub(img image.Image, w, h int) *image.RGBA {
	return convert(img, image.NewRGBA(image.Rect(0, 0, w, h))).(*image.RGBA)
}

func convert(src image.Image, dst draw.Image) image.Image {
	draw.Draw(dst, dst.Bounds(), src, dst.Bounds().Min, draw.Src)
	return dst
}
