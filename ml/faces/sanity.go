package faces

import (
	"context"
	"math"

	"github.com/photoctl/photoctl/ml/internal/raster"
)

// The detector also fires on cat and monkey faces, hair, knees and
// railings, often with scores above 0.9, and the landmark model draws a
// plausible face on anything, so neither score nor landmark geometry tells
// them apart. Two measurements do (docs/ml.md, "Faces", has the figures):
//
//   - Drift: the landmarks of a real face are anchored to the eyes, nose
//     and mouth, so moving and growing the crop barely moves them in the
//     image; on anything else the landmark model draws its face relative to
//     the crop, and the points follow it.
//   - Feature norm: the embedding model's output is long for a clear
//     human face and short for anything else, including faces too turned
//     away to align (a full profile), whose embeddings would be noise.
const (
	// driftShift and driftScale perturb the landmark crop: moved by this
	// fraction of its side right and down, and grown by this factor.
	driftShift = 0.1
	driftScale = 1.15
	// maxDrift is the mean landmark movement, as a fraction of the crop
	// side, above which the landmarks are not anchored to a face. Measured:
	// faces 0.009–0.035; cat 0.098, mandrill 0.142, other non-faces 0.025
	// (a railing, also stopped by its score) to 0.146.
	maxDrift = 0.075
	// minFeatureNorm is the shortest embedding, before normalising, of a
	// face worth keeping. Measured: faces 2.51–3.87; full profile 2.04; cat
	// 1.43, mandrill 1.97, other non-faces 1.42–2.21.
	minFeatureNorm = 2.35
	// A face under bigFace pixels high needs an embedding at least
	// minSmallNorm long at smallFace pixels and below, and from there up
	// to minFeatureNorm in proportion, with a drift of at most smallDrift
	// (plausible).
	smallFace, bigFace = 48, 80
	minSmallNorm       = 1.9
	smallDrift         = 0.05
)

// drift returns how far, on average, the landmarks pts found in the
// square sq move when the square is moved and grown, as a fraction of its
// side.
func (a *Analyzer) drift(ctx context.Context, src *raster.Image, sq raster.Rect, pts [68][2]float64) (float64, error) {
	side := sq.X1 - sq.X0
	cx, cy := (sq.X0+sq.X1)/2+driftShift*side, (sq.Y0+sq.Y1)/2+driftShift*side
	h := side * driftScale / 2
	moved, err := a.landmarks(ctx, src, raster.Rect{X0: cx - h, Y0: cy - h, X1: cx + h, Y1: cy + h})
	if err != nil {
		return 0, err
	}
	var drift float64
	for i := range pts {
		drift += math.Hypot(moved[i][0]-pts[i][0], moved[i][1]-pts[i][1])
	}
	return drift / float64(len(pts)) / side, nil
}

// plausible reports whether a detection height pixels high (in the image
// given) whose landmarks drift this much and whose embedding is this long
// is a human face. A small face has fewer pixels to embed, and its
// embedding is shorter (measured: faces 24–50 px high 1.84–2.59, most
// above 1.93), so below bigFace pixels a shorter one is accepted from
// landmarks that hold still (at most smallDrift; small faces measured
// 0.008–0.05, the non-faces whose norm came close 0.062–0.066).
func plausible(height, drift, norm float64) bool {
	switch {
	case drift > maxDrift:
		return false
	case norm >= minFeatureNorm:
		return true
	case drift > smallDrift || height >= bigFace:
		return false
	}
	t := math.Max(0, (height-smallFace)/(bigFace-smallFace))
	return norm >= minSmallNorm+t*(minFeatureNorm-minSmallNorm)
}
