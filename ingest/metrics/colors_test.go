package metrics_test

import (
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/metrics"
)

// mirror flips img left to right.
func mirror(img *image.RGBA) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(b.Max.X-1-(x-b.Min.X), y, img.At(x, y))
		}
	}
	return out
}

func TestColorSignatureSurvivesCopiesAndTellsPicturesApart(t *testing.T) {
	pics := map[string]picture{"landscape": landscape, "rings": rings, "diagonal": diagonal, "portrait": portrait,
		"mosaic": mosaic}
	for name, p := range pics {
		orig := render(900, 600, p)
		sig := metrics.ColorSignature(orig)
		require.Len(t, sig, 64, name)
		require.InDelta(t, 1.0, metrics.ColorSimilarity(sig, sig), 1e-9)
		for how, copyOf := range map[string]image.Image{
			"scaled":       scale(orig, 300, 200),
			"recompressed": recompress(t, orig, 60),
			"mirrored":     mirror(orig),
		} {
			require.Greater(t, metrics.ColorSimilarity(sig, metrics.ColorSignature(copyOf)), 0.85, "%s %s", name, how)
		}
		for other, q := range pics {
			if other != name {
				require.Less(t, metrics.ColorSimilarity(sig, metrics.ColorSignature(render(900, 600, q))), 0.6, "%s vs %s", name, other)
			}
		}
	}
}

func TestColorSignatureEdgeCases(t *testing.T) {
	require.Empty(t, metrics.ColorSignature(image.NewRGBA(image.Rect(0, 0, 0, 0))))
	sig := metrics.ColorSignature(render(10, 10, landscape))
	require.Zero(t, metrics.ColorSimilarity(sig, ""))
	require.Zero(t, metrics.ColorSimilarity(sig, strings.Repeat("z", 64)))
	require.Zero(t, metrics.ColorSimilarity(strings.Repeat("0", 64), sig), "no colour at all")
}
