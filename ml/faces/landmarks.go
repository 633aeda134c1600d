package faces

import (
	"context"
	"fmt"
	"math"

	"github.com/photoctl/photoctl/ml/internal/raster"
	"github.com/photoctl/photoctl/ml/onnx"
)

// landmarkSize is the side of the landmark model's gray input.
const landmarkSize = 64

// landmarks runs the landmark model on the square sq (image pixels) and
// returns the 68 points in image pixels. Like the model's authors, it
// moves a square that pokes out of the image back inside when it fits.
func (a *Analyzer) landmarks(ctx context.Context, src *raster.Image, sq raster.Rect) ([68][2]float64, error) {
	sq = inside(sq, float64(src.W), float64(src.H))
	crop := src.Resize(sq, landmarkSize, landmarkSize)
	a.runs.landmark.Add(1)
	out, err := a.landmark.Run(ctx, onnx.Tensor{
		Shape: []int64{1, 1, landmarkSize, landmarkSize},
		Data:  crop.Gray(1.0 / 256),
	})
	if err != nil {
		return [68][2]float64{}, fmt.Errorf("faces: landmarks: %w", err)
	}
	v := out[0].Data
	if len(v) != 136 {
		return [68][2]float64{}, fmt.Errorf("faces: landmark model gave %d values, want 136", len(v))
	}
	var pts [68][2]float64
	w, h := sq.X1-sq.X0, sq.Y1-sq.Y0
	for i := range pts {
		pts[i] = [2]float64{sq.X0 + float64(v[2*i])*w, sq.Y0 + float64(v[2*i+1])*h}
	}
	return pts, nil
}

// inside shifts r into the W×H image along each axis where it fits, and
// clips it where it does not.
func inside(r raster.Rect, W, H float64) raster.Rect {
	shift := func(a, b, n float64) (float64, float64) {
		if b-a >= n {
			return math.Max(a, 0), math.Min(b, n)
		}
		if a < 0 {
			return 0, b - a
		}
		if b > n {
			return a - (b - n), n
		}
		return a, b
	}
	r.X0, r.X1 = shift(r.X0, r.X1, W)
	r.Y0, r.Y1 = shift(r.Y0, r.Y1, H)
	return r
}

// points5 reduces the 68 landmarks to the five alignment points, as
// ml.Face.Points5 does for fractions.
func points5(p [68][2]float64) [5][2]float64 {
	mean := func(idx ...int) [2]float64 {
		var m [2]float64
		for _, i := range idx {
			m[0] += p[i][0]
			m[1] += p[i][1]
		}
		return [2]float64{m[0] / float64(len(idx)), m[1] / float64(len(idx))}
	}
	return [5][2]float64{
		mean(36, 37, 38, 39, 40, 41),
		mean(42, 43, 44, 45, 46, 47),
		p[30],
		mean(48, 60),
		mean(54, 64),
	}
}
