package faces

import (
	"math"

	"github.com/photoctl/photoctl/ml/internal/raster"
)

// The detector's input is a 320×240 RGB picture; the smallest face it
// finds reliably is about minDetectable pixels high in that picture
// (measured on the face set shrunk: at 14–16 pixels it misses one face in
// three, at 20 it misses none). It sees some faces down to 10 pixels.
const (
	detW, detH    = 320, 240
	minDetectable = 20
	// levelStep is about how much finer each level of tiles looks than
	// the one above it (plan allows up to 12% more rather than add a
	// level).
	levelStep = 3
	// overlap is the fraction of a tile shared with its neighbour: a face
	// up to this much of a tile's height lies whole in some tile. Tiles
	// report only faces that small (maxTileFace); bigger ones are the
	// coarser level's, which sees them at levelStep times less, still well
	// above minDetectable. Big detections in small tiles are mostly
	// texture (hair, knees, railings) that the whole picture shows is not
	// a face.
	overlap     = 0.4
	maxTileFace = overlap * detH
)

// level is the image scaled down to w×h (image pixels per level pixel: fx
// across, fy down) and cut into tiles of at most detW×detH. Level 0 is
// the whole image in one tile.
type level struct {
	w, h   int
	fx, fy float64
	tiles  []tile
	second bool
}

// tile is one detector run: the level's pixels x0,y0–x1,y1 copied into the
// detector input at ox,oy (mirrored left to right if mirror), the rest
// black. inner marks the edges that cut through the image (left, top,
// right, bottom), where a face may be cut in half; maxFace, when not 0, is
// the largest face height it reports, and minFace the smallest, in level
// pixels.
type tile struct {
	x0, y0, x1, y1   int
	ox, oy           int
	mirror           bool
	inner            [4]bool
	minFace, maxFace float64
}

// plan lays out the levels for a w×h image, coarsest first: the whole
// image, then levels of overlapping tiles, each about levelStep times
// finer than the one before, spaced evenly down to the scale at which
// faces of secondPass×minFace pixels are within the detector's reach;
// then, marked second, one level at which faces of minFace pixels are.
// The second level is searched only when the others found small faces or
// when it is small itself (wantSecond): it is often the dearest.
func plan(w, h int, minFace int) []level {
	W, H := float64(w), float64(h)
	f := math.Max(W/detW, H/detH)
	levels := []level{whole(W, H, f)}
	// Scales up to 12% coarser than needed (levelStep^1.1 for steps) are
	// accepted rather than add a whole level of tiles.
	const slack = 1.12
	finest := float64(minFace) / minDetectable
	if first := secondPass * finest; f > first*slack {
		n := math.Max(1, math.Ceil(math.Log(f/first)/math.Log(levelStep)-0.1))
		ratio := math.Pow(f/first, 1/n)
		for i := 1; i <= int(n); i++ {
			f /= ratio
			levels = append(levels, tiled(W, H, f))
		}
	}
	if f > finest*slack {
		l := tiled(W, H, finest)
		l.second = true
		// The smallest faces are the ones the detector finds one way round
		// and not the other, as at the whole level.
		for _, t := range l.tiles {
			t.mirror = true
			l.tiles = append(l.tiles, t)
		}
		levels = append(levels, l)
	}
	return levels
}

// secondPass is how much bigger than Config.MinFaceSize the faces are
// that the levels before the second one reach; smallFaces, how much
// bigger the faces those levels find may be for the second level to be
// searched; smallLevel, how many tiles a second level may have to be
// searched when those levels found no face (a small image: 640×480 has
// 4, and 4 mirrored).
const (
	secondPass = 1.5
	smallFaces = 2
	smallLevel = 8
)

// whole is the image scaled to fit the detector, seen as it is and
// mirrored: the detector is not symmetric, and a face it misses one way
// round (a three-quarter view, mostly) it often finds the other; the
// mirrored run costs one detector run and makes what the whole picture
// finds the same for a photo and its mirror.
func whole(W, H, f float64) level {
	w, h := max(1, int(math.Round(W/f))), max(1, int(math.Round(H/f)))
	w, h = min(w, detW), min(h, detH)
	return level{w: w, h: h, fx: W / float64(w), fy: H / float64(h), tiles: []tile{{x1: w, y1: h}, {x1: w, y1: h, mirror: true}}}
}

// zoomFit is the part of the detector's width and height the zoomed out
// picture fills, and zoomMinFace the smallest face it reports, as a
// fraction of the picture's height.
const zoomFit, zoomMinFace = 0.5, 0.6

// zoomed is the W×H image scaled to fit half the detector's input, in its
// middle: a face filling most of the frame fills the whole detector input
// at the whole level, bigger than the faces the detector learnt, and it
// finds only a part (an eye, a mouth). Here the face is at most half the
// input's height. Only faces of at least zoomMinFace of the picture's
// height are reported: smaller ones are the whole level's.
func zoomed(W, H float64) level {
	f := math.Max(W/(zoomFit*detW), H/(zoomFit*detH))
	w, h := max(1, int(math.Round(W/f))), max(1, int(math.Round(H/f)))
	t := tile{x1: w, y1: h, ox: (detW - w) / 2, oy: (detH - h) / 2, minFace: zoomMinFace * float64(h)}
	return level{w: w, h: h, fx: W / float64(w), fy: H / float64(h), tiles: []tile{t}}
}

// tiled covers the image scaled by 1/f with detW×detH tiles overlapping by
// the fraction overlap.
func tiled(W, H, f float64) level {
	w, h := max(1, int(math.Round(W/f))), max(1, int(math.Round(H/f)))
	l := level{w: w, h: h, fx: W / float64(w), fy: H / float64(h)}
	for _, y := range starts(h, detH) {
		for _, x := range starts(w, detW) {
			t := tile{x0: x, y0: y, x1: min(x+detW, w), y1: min(y+detH, h), maxFace: maxTileFace}
			t.inner = [4]bool{x > 0, y > 0, t.x1 < w, t.y1 < h}
			l.tiles = append(l.tiles, t)
		}
	}
	return l
}

// starts spreads tiles of length t over length n, evenly, with at least
// the overlap fraction shared between neighbours.
func starts(n, t int) []int {
	if t >= n {
		return []int{0}
	}
	stride := float64(t) * (1 - overlap)
	k := int(math.Ceil(float64(n-t) / stride))
	out := make([]int, k+1)
	for i := range out {
		out[i] = int(math.Round(float64(n-t) * float64(i) / float64(k)))
	}
	return out
}

// scale renders every level's picture, finest first, each from the next
// finer one (cheaper than from the original, and as good for the
// detector).
func scale(src *raster.Image, levels []level) []*raster.Image {
	out := make([]*raster.Image, len(levels))
	from := src
	for i := len(levels) - 1; i >= 0; i-- {
		out[i] = from.Scaled(levels[i].w, levels[i].h)
		from = out[i]
	}
	return out
}
