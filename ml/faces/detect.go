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
	dets, big, err := a.detectAll(ctx, src)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	faces := make([]ml.Face, 0, len(dets))
	var kept []detection
	check := func(d detection) error {
		f, ok, err := a.check(ctx, src, b, d)
		if ok {
			faces = append(faces, f)
			kept = append(kept, d)
		}
		return err
	}
	for _, d := range dets {
		if err := check(d); err != nil {
			return nil, err
		}
	}
	if a.wantSecond(src, kept) {
		more, err := a.detectSecond(ctx, src, dets)
		if err != nil {
			return nil, err
		}
		for _, d := range more {
			if err := check(d); err != nil {
				return nil, err
			}
		}
	}
	// A face filling most of the frame that the whole picture showed only
	// in part (an eye, a chin: dropped by the check above) is the zoomed
	// out picture's (detectAll).
	for _, d := range big {
		if overlapsAny(d, kept) {
			continue
		}
		if err := check(d); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(faces, func(a, b ml.Face) int { return -cmpFloat(a.Score, b.Score) })
	return faces, nil
}

// check fits the landmarks of the detection d, embeds it and reports
// whether it passes the sanity check (sanity.go), as it is or mirrored:
// the landmark and embedding models are not symmetric, and a face they
// pass only one way round would be found in a photo and not in its mirror.
// The mirrored check runs only for detections the first one drops.
func (a *Analyzer) check(ctx context.Context, src *raster.Image, b image.Rectangle, d detection) (ml.Face, bool, error) {
	pts, drift, norm, e, err := a.measure(ctx, src, d)
	if err != nil {
		return ml.Face{}, false, err
	}
	if !plausible(d.y1-d.y0, drift, norm) {
		crop, md := mirrorAround(src, d)
		_, drift, norm, _, err = a.measure(ctx, crop, md)
		if err != nil || !plausible(md.y1-md.y0, drift, norm) {
			return ml.Face{}, false, err
		}
		if e == nil { // the first check stopped at the drift
			if e, _, err = a.embed(ctx, src, points5(pts)); err != nil {
				return ml.Face{}, false, err
			}
		}
	}
	f := toFace(b, d, pts)
	f.Embedding = e
	return f, true, nil
}

// measure fits the landmarks of d and measures their drift, and when that
// is within maxDrift, embeds the face.
func (a *Analyzer) measure(ctx context.Context, src *raster.Image, d detection) (pts [68][2]float64, drift, norm float64, e ml.Embedding, err error) {
	sq := d.square()
	if pts, err = a.landmarks(ctx, src, sq); err != nil {
		return pts, 0, 0, nil, err
	}
	if drift, err = a.drift(ctx, src, sq, pts); err != nil || drift > maxDrift {
		return pts, drift, 0, nil, err
	}
	e, norm, err = a.embed(ctx, src, points5(pts))
	return pts, drift, norm, e, err
}

// mirrorAround returns the part of src around d that the checks read (the
// detection's square grown by half each way, which holds the drift's
// moved square and the aligned face), mirrored, and d in it.
func mirrorAround(src *raster.Image, d detection) (*raster.Image, detection) {
	side := d.y1 - d.y0
	x0, y0 := max(0, math.Floor(d.x0-side)), max(0, math.Floor(d.y0-side))
	x1, y1 := min(float64(src.W), math.Ceil(d.x1+side)), min(float64(src.H), math.Ceil(d.y1+side))
	crop := src.Resize(raster.Rect{X0: x0, Y0: y0, X1: x1, Y1: y1}, int(x1-x0), int(y1-y0)).Mirror()
	w := x1 - x0
	return crop, detection{x0: w - (d.x1 - x0), y0: d.y0 - y0, x1: w - (d.x0 - x0), y1: d.y1 - y0, score: d.score}
}

// detectAll runs the detector over every tile of the plan but its second
// level (detectSecond) and merges the results, coarsest level first: a
// detection from a finer level that overlaps one already kept is a part
// of that face (a chin, an eye) and goes, however high its score. It
// returns apart the faces of the zoomed out picture (zoomed), which only
// DetectFaces's check can weigh against what the whole picture showed.
func (a *Analyzer) detectAll(ctx context.Context, src *raster.Image) (dets, big []detection, err error) {
	levels := plan(src.W, src.H, a.cfg.MinFaceSize)
	if levels[len(levels)-1].second {
		levels = levels[:len(levels)-1]
	}
	pics := scale(src, levels)
	for i, l := range levels {
		if dets, err = a.detectLevel(ctx, pics[i], l, dets); err != nil {
			return nil, nil, err
		}
	}
	slices.SortStableFunc(dets, func(a, b detection) int { return -cmpFloat(a.score, b.score) })
	z := zoomed(float64(src.W), float64(src.H))
	if big, err = a.detectTile(ctx, pics[0].Scaled(z.w, z.h), z, z.tiles[0]); err != nil {
		return nil, nil, err
	}
	return dets, big, nil
}

// wantSecond reports whether the plan for src has a second level worth
// searching: any when the faces found so far include one less than
// smallFaces times Config.MinFaceSize high, and a small one (at most
// smallLevel runs) when no face was found. Small faces seldom come alone
// (a crowd, a group at a distance), and a face the coarser levels saw at
// the edge of their reach may have neighbours they missed.
func (a *Analyzer) wantSecond(src *raster.Image, faces []detection) bool {
	levels := plan(src.W, src.H, a.cfg.MinFaceSize)
	l := levels[len(levels)-1]
	if !l.second {
		return false
	}
	if len(faces) == 0 && len(l.tiles) <= smallLevel {
		return true
	}
	for _, d := range faces {
		if d.y1-d.y0 < smallFaces*float64(a.cfg.MinFaceSize) {
			return true
		}
	}
	return false
}

// detectSecond searches the plan's second level and returns the
// detections that overlap none of known (detectAll's).
func (a *Analyzer) detectSecond(ctx context.Context, src *raster.Image, known []detection) ([]detection, error) {
	levels := plan(src.W, src.H, a.cfg.MinFaceSize)
	l := levels[len(levels)-1]
	all, err := a.detectLevel(ctx, src.Scaled(l.w, l.h), l, known)
	if err != nil {
		return nil, err
	}
	return all[len(known):], nil
}

// detectLevel runs the detector on every tile of the level l, whose
// picture is pic, and appends to dets the detections that overlap none
// of them.
func (a *Analyzer) detectLevel(ctx context.Context, pic *raster.Image, l level, dets []detection) ([]detection, error) {
	var found []detection
	for _, t := range l.tiles {
		ds, err := a.detectTile(ctx, pic, l, t)
		if err != nil {
			return nil, err
		}
		found = append(found, ds...)
	}
	for _, d := range nms(found) {
		if !overlapsAny(d, dets) {
			dets = append(dets, d)
		}
	}
	return dets, nil
}

// detectTile runs the detector on one tile of the level's picture pic and
// returns its detections in image pixels, dropping those cut by an inner
// tile edge and those too big or too small for the tile.
func (a *Analyzer) detectTile(ctx context.Context, pic *raster.Image, l level, t tile) ([]detection, error) {
	w, h := t.x1-t.x0, t.y1-t.y0
	in := raster.New(detW, detH)
	for y := 0; y < h; y++ {
		row := pic.Pix[((t.y0+y)*pic.W+t.x0)*3 : ((t.y0+y)*pic.W+t.x0+w)*3]
		dst := in.Pix[((t.oy+y)*detW+t.ox)*3 : ((t.oy+y)*detW+t.ox+w)*3]
		if !t.mirror {
			copy(dst, row)
			continue
		}
		for x := 0; x < w; x++ {
			copy(dst[3*x:3*x+3], row[3*(w-1-x):])
		}
	}
	a.runs.detect.Add(1)
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
		x0, y0 := float64(bx[0])*detW-float64(t.ox), float64(bx[1])*detH-float64(t.oy)
		x1, y1 := float64(bx[2])*detW-float64(t.ox), float64(bx[3])*detH-float64(t.oy)
		if x1 <= x0 || y1 <= y0 || (t.maxFace > 0 && y1-y0 > t.maxFace) || y1-y0 < t.minFace {
			continue
		}
		if t.mirror {
			x0, x1 = W-x1, W-x0
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
