package faces

import (
	"context"
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/internal/raster"
	"github.com/photoctl/photoctl/ml/onnx"
)

const (
	// nmsIoU: of two detections overlapping more than this, the weaker
	// goes (the value the detector's authors use).
	nmsIoU = 0.4
	// nmsCover: a detection this much covered by a stronger one, or
	// covering it this much, is part of the same face (a chin, a face with
	// its hair) and goes too.
	nmsCover = 0.5
	// edgeMargin, in detector pixels: a detection this close to a tile
	// edge that cuts through the image may be half a face; the
	// overlapping tile or the coarser level sees all of it.
	edgeMargin = 2
)

// detection is a face box in image pixels with the detector's score.
type detection struct {
	x0, y0, x1, y1 float64
	score          float64
}

func (d detection) area() float64 { return math.Max(0, d.x1-d.x0) * math.Max(0, d.y1-d.y0) }

// overlaps returns the intersection of a and b over their union and over
// the smaller of the two.
func overlaps(a, b detection) (iou, cover float64) {
	in := detection{x0: math.Max(a.x0, b.x0), y0: math.Max(a.y0, b.y0), x1: math.Min(a.x1, b.x1), y1: math.Min(a.y1, b.y1)}
	i := in.area()
	if i == 0 {
		return 0, 0
	}
	return i / (a.area() + b.area() - i), i / math.Min(a.area(), b.area())
}

// square is the square around the detection's centre with its height as
// side: the crop the landmark model's authors give it.
func (d detection) square() raster.Rect {
	side := d.y1 - d.y0
	cx, cy := (d.x0+d.x1)/2, (d.y0+d.y1)/2
	return raster.Rect{X0: cx - side/2, Y0: cy - side/2, X1: cx + side/2, Y1: cy + side/2}
}

// DetectFaces implements ml.FaceAnalyzer. For each detection it fits the
// landmarks and embeds the face, then keeps it only if it passes the
// sanity check (sanity.go); the image is converted once. An image smaller
// than minLocate pixels has no faces.
func (a *Analyzer) DetectFaces(ctx context.Context, img image.Image) ([]ml.Face, error) {
	if b := img.Bounds(); b.Dx() < minLocate || b.Dy() < minLocate {
		return []ml.Face{}, nil
	}
	src := raster.FromImage(img)
	dets, err := a.detectAll(ctx, src)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	faces := make([]ml.Face, 0, len(dets))
	for _, d := range dets {
		sq := d.square()
		pts, err := a.landmarks(ctx, src, sq)
		if err != nil {
			return nil, err
		}
		ok, err := a.stable(ctx, src, sq, pts)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		e, norm, err := a.embed(ctx, src, points5(pts))
		if err != nil {
			return nil, err
		}
		if norm < minFeatureNorm {
			continue
		}
		f := toFace(b, d, pts)
		f.Embedding = e
		faces = append(faces, f)
	}
	return faces, nil
}

// detectAll runs the detector over every tile of the plan and merges the
// results, coarsest level first: a detection from a finer level that
// overlaps one already kept is a part of that face (a chin, an eye) and
// goes, however high its score.
func (a *Analyzer) detectAll(ctx context.Context, src *raster.Image) ([]detection, error) {
	levels := plan(src.W, src.H, a.cfg.MinFaceSize)
	pics := scale(src, levels)
	var kept []detection
	for i, l := range levels {
		var found []detection
		for _, t := range l.tiles {
			ds, err := a.detectTile(ctx, pics[i], l, t)
			if err != nil {
				return nil, err
			}
			found = append(found, ds...)
		}
		for _, d := range nms(found) {
			if !overlapsAny(d, kept) {
				kept = append(kept, d)
			}
		}
	}
	slices.SortStableFunc(kept, func(a, b detection) int { return -cmpFloat(a.score, b.score) })
	return kept, nil
}

// detectTile runs the detector on one tile of the level's picture pic and
// returns its detections in image pixels, dropping those cut by an inner
// tile edge and those too big for the tile.
func (a *Analyzer) detectTile(ctx context.Context, pic *raster.Image, l level, t tile) ([]detection, error) {
	w, h := t.x1-t.x0, t.y1-t.y0
	in := raster.New(detW, detH)
	for y := 0; y < h; y++ {
		copy(in.Pix[y*detW*3:(y*detW+w)*3], pic.Pix[((t.y0+y)*pic.W+t.x0)*3:])
	}
	out, err := a.detect.Run(ctx, onnx.Tensor{
		Shape: []int64{1, 3, detH, detW},
		Data:  in.Planar(false, [3]float32{127, 127, 127}, [3]float32{128, 128, 128}),
	})
	if err != nil {
		return nil, fmt.Errorf("faces: detect: %w", err)
	}
	scores, boxes := out[0].Data, out[1].Data
	W, H := float64(w), float64(h)
	var ds []detection
	for i := 0; i < len(scores)/2; i++ {
		s := float64(scores[2*i+1])
		if s < a.cfg.MinScore {
			continue
		}
		bx := boxes[4*i : 4*i+4]
		x0, y0, x1, y1 := float64(bx[0])*detW, float64(bx[1])*detH, float64(bx[2])*detW, float64(bx[3])*detH
		if x1 <= x0 || y1 <= y0 || (t.maxFace > 0 && y1-y0 > t.maxFace) {
			continue
		}
		if (t.inner[0] && x0 < edgeMargin) || (t.inner[1] && y0 < edgeMargin) ||
			(t.inner[2] && x1 > W-edgeMargin) || (t.inner[3] && y1 > H-edgeMargin) {
			continue
		}
		ds = append(ds, detection{
			x0: (float64(t.x0) + math.Max(x0, 0)) * l.fx, y0: (float64(t.y0) + math.Max(y0, 0)) * l.fy,
			x1: (float64(t.x0) + math.Min(x1, W)) * l.fx, y1: (float64(t.y0) + math.Min(y1, H)) * l.fy,
			score: s,
		})
	}
	return nms(ds), nil
}

// nms keeps the strongest of each group of overlapping detections,
// strongest first.
func nms(ds []detection) []detection {
	slices.SortFunc(ds, func(a, b detection) int { return -cmpFloat(a.score, b.score) })
	var keep []detection
	for _, d := range ds {
		if !overlapsAny(d, keep) {
			keep = append(keep, d)
		}
	}
	return keep
}

func overlapsAny(d detection, ds []detection) bool {
	for _, k := range ds {
		if iou, cover := overlaps(d, k); iou > nmsIoU || cover > nmsCover {
			return true
		}
	}
	return false
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
