package faces

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPlanCoversTheImageAtEachLevel(t *testing.T) {
	for _, c := range []struct {
		w, h, minFace, levels int
	}{
		{320, 400, 32, 1},   // small: the whole image is fine enough
		{640, 480, 32, 2},   // a second level of 4 tiles at 1.6 px per detector pixel
		{1440, 1080, 32, 3}, // a preview: 9 tiles at 2.4, then 25 at 1.6
		{1920, 1280, 32, 3},
		{6000, 4000, 32, 4},  // an original: levels at most 3× apart
		{6000, 4000, 480, 1}, // faces this big need no tiles
	} {
		levels := plan(c.w, c.h, c.minFace)
		require.Len(t, levels, c.levels, "%dx%d", c.w, c.h)
		require.Len(t, levels[0].tiles, 2)
		require.True(t, levels[0].tiles[1].mirror)
		require.LessOrEqual(t, levels[0].w, detW)
		require.LessOrEqual(t, levels[0].h, detH)
		for i, l := range levels {
			require.Equal(t, i > 0 && i == len(levels)-1, l.second, "the finest level is the second pass")
			require.InDelta(t, float64(c.w), float64(l.w)*l.fx, 1e-6)
			require.InDelta(t, float64(c.h), float64(l.h)*l.fy, 1e-6)
			if i > 0 {
				require.LessOrEqual(t, levels[i-1].fx/l.fx, 1.13*levelStep) // see plan
				require.GreaterOrEqual(t, l.fx, float64(c.minFace)/minDetectable-0.01)
			}
			// Every pixel is in a tile, and neighbouring tiles share at
			// least the overlap.
			covered := make([]bool, l.w*l.h)
			for _, tl := range l.tiles {
				require.LessOrEqual(t, tl.x1-tl.x0, detW)
				require.LessOrEqual(t, tl.y1-tl.y0, detH)
				for y := tl.y0; y < tl.y1; y++ {
					for x := tl.x0; x < tl.x1; x++ {
						covered[y*l.w+x] = true
					}
				}
			}
			for _, ok := range covered {
				require.True(t, ok)
			}
			xs := starts(l.w, detW)
			for k := 1; k < len(xs); k++ {
				require.LessOrEqual(t, xs[k]-xs[k-1], int(detW*(1-overlap))+1)
			}
		}
	}
}

func TestZoomedFitsHalfTheDetectorInItsMiddle(t *testing.T) {
	for _, c := range [][2]int{{200, 200}, {512, 600}, {1920, 1280}, {300, 2000}} {
		z := zoomed(float64(c[0]), float64(c[1]))
		require.Len(t, z.tiles, 1)
		tl := z.tiles[0]
		require.LessOrEqual(t, z.w, detW/2)
		require.LessOrEqual(t, z.h, detH/2)
		require.True(t, z.w == detW/2 || z.h == detH/2, "%v: %dx%d fills half the input one way", c, z.w, z.h)
		require.Equal(t, (detW-z.w)/2, tl.ox)
		require.Equal(t, (detH-z.h)/2, tl.oy)
		require.InDelta(t, zoomMinFace*float64(z.h), tl.minFace, 1e-9)
		require.InDelta(t, float64(c[0]), float64(z.w)*z.fx, 1e-6)
	}
}
