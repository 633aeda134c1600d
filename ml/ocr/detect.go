package ocr

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/photoctl/photoctl/ml/internal/raster"
	"github.com/photoctl/photoctl/ml/onnx"
)

// DB post-processing constants, PaddleOCR's defaults for PP-OCRv4.
const (
	// pixelThreshold: a pixel with a higher text probability is text.
	pixelThreshold = 0.3
	// unclipRatio: the model marks a shrunk core of each line; its box is
	// pushed out by area·unclipRatio/perimeter to cover the glyphs.
	unclipRatio = 1.5
	// minSide is the shortest side, in map pixels, of a box worth reading.
	minSide = 3
	// maxCandidates bounds the regions looked at in one image.
	maxCandidates = 1000
	// sameRow: boxes whose tops are this close (image pixels) are on one
	// row, ordered left to right.
	sameRow = 10
)

// ImageNet normalisation on BGR channels, as PaddleOCR's detector is fed.
var (
	detMean = [3]float32{0.485 * 255, 0.456 * 255, 0.406 * 255}
	detStd  = [3]float32{0.229 * 255, 0.224 * 255, 0.225 * 255}
)

// detect returns the text lines' quads in src pixels, in reading order.
func (r *Reader) detect(ctx context.Context, src *raster.Image) ([]quad, error) {
	w, h := detSize(src.W, src.H, r.cfg.MaxSide)
	in := src.Resize(raster.Rect{X1: float64(src.W), Y1: float64(src.H)}, w, h)
	out, err := r.det.Run(ctx, onnx.Tensor{Shape: []int64{1, 3, int64(h), int64(w)}, Data: in.Planar(true, detMean, detStd)})
	if err != nil {
		return nil, fmt.Errorf("ocr: detect: %w", err)
	}
	if s := out[0].Shape; len(s) != 4 || s[2] != int64(h) || s[3] != int64(w) {
		return nil, fmt.Errorf("ocr: detector gave a map of shape %v for input %dx%d", s, w, h)
	}
	prob := out[0].Data
	sx, sy := float64(src.W)/float64(w), float64(src.H)/float64(h)
	var quads []quad
	for _, region := range regions(prob, w, h) {
		box := minAreaRect(region)
		if math.Min(box.w, box.h) < minSide {
			continue
		}
		// The region's pixel centres span one pixel less than the pixels.
		box.w, box.h = box.w+1, box.h+1
		box.cx, box.cy = box.cx+0.5, box.cy+0.5
		if boxScore(prob, w, h, box) < r.cfg.BoxThreshold {
			continue
		}
		box = box.grow(box.w * box.h * unclipRatio / (2 * (box.w + box.h)))
		if math.Min(box.w, box.h) < minSide+2 {
			continue
		}
		q := box.quad()
		for i := range q {
			q[i][0] = math.Min(math.Max(q[i][0]*sx, 0), float64(src.W))
			q[i][1] = math.Min(math.Max(q[i][1]*sy, 0), float64(src.H))
		}
		quads = append(quads, q)
	}
	readingOrder(quads)
	return quads, nil
}

// detSize scales w×h so its longer side is at most maxSide, each side a
// multiple of 32 (the detector's stride), at least 32.
func detSize(w, h, maxSide int) (int, int) {
	ratio := math.Min(1, float64(maxSide)/float64(max(w, h)))
	round := func(v int) int { return max(32, int(math.Round(float64(v)*ratio/32))*32) }
	return round(w), round(h)
}

// regions labels the 8-connected groups of text pixels and returns, for
// each of the first maxCandidates, the centres of its edge pixels (the
// hull needs no more).
func regions(prob []float32, w, h int) [][][2]float64 {
	label := make([]int32, w*h)
	var out [][][2]float64
	var stack []int
	for start := range prob {
		if prob[start] <= pixelThreshold || label[start] != 0 {
			continue
		}
		if len(out) == maxCandidates {
			break
		}
		id := int32(len(out) + 1)
		var edge [][2]float64
		label[start] = id
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := i%w, i/w
			border := false
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := x+dx, y+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						border = true
						continue
					}
					j := ny*w + nx
					if prob[j] <= pixelThreshold {
						border = true
						continue
					}
					if label[j] == 0 {
						label[j] = id
						stack = append(stack, j)
					}
				}
			}
			if border {
				edge = append(edge, [2]float64{float64(x), float64(y)})
			}
		}
		out = append(out, edge)
	}
	return out
}

// boxScore is the mean text probability inside box (PaddleOCR's "fast"
// score, over the rectangle rather than the region).
func boxScore(prob []float32, w, h int, box rect) float64 {
	x0, y0, x1, y1 := box.quad().bounds()
	var sum float64
	var n int
	for y := max(0, int(y0)); y < min(h, int(math.Ceil(y1))); y++ {
		for x := max(0, int(x0)); x < min(w, int(math.Ceil(x1))); x++ {
			if box.contains(float64(x)+0.5, float64(y)+0.5) {
				sum += float64(prob[y*w+x])
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// readingOrder sorts quads top to bottom, and left to right among those
// whose tops are within sameRow pixels.
func readingOrder(qs []quad) {
	slices.SortStableFunc(qs, func(a, b quad) int {
		if c := cmp(a[0][1], b[0][1]); c != 0 {
			return c
		}
		return cmp(a[0][0], b[0][0])
	})
	for i := 1; i < len(qs); i++ {
		for j := i; j > 0 && math.Abs(qs[j][0][1]-qs[j-1][0][1]) < sameRow && qs[j][0][0] < qs[j-1][0][0]; j-- {
			qs[j], qs[j-1] = qs[j-1], qs[j]
		}
	}
}
