// Package faces finds faces and embeds them with the ONNX models of
// faceplugin-face-recognition-js (docs/ml.md): fr_detect (an
// Ultra-Light-Fast RFB-320 detector), fr_landmark (68 points) and
// fr_feature (a 512-d ArcFace-style embedding of a 112×112 face aligned on
// five points).
//
// Preprocessing is pure Go (ml/internal/raster). The whole image is
// searched as it is, mirrored and zoomed out (for a face filling the
// frame), big photos in overlapping tiles, and a second, finer level of
// tiles when small faces turn up, so faces down to Config.MinFaceSize
// pixels are found (tiles.go, detect.go). Detections that are not human
// faces (animals, textures, full profiles) are dropped by a check on the
// landmarks and the embedding, as they are or mirrored (sanity.go).
package faces

import (
	"context"
	"fmt"
	"image"
	"sync/atomic"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/internal/raster"
	"github.com/photoctl/photoctl/ml/onnx"
)

// Model files, in the runtime's model directory.
const (
	DetectModel   = "fr_detect.onnx"
	LandmarkModel = "fr_landmark.onnx"
	FeatureModel  = "fr_feature.onnx"
)

// SamePerson is the cosine similarity of two embeddings above which they
// are taken to be the same person: a starting point for clustering,
// measured on the test photos (docs/ml.md, "Faces"): copies of one face
// (mirrored, scaled, cropped) score at least 0.95, one person in two
// different photos 0.61, different people at most 0.39.
const SamePerson = 0.45

// Config tunes detection. Zero values take the defaults.
type Config struct {
	// MinScore is the detector confidence a face needs, 0..1. Default 0.8.
	MinScore float64
	// MinFaceSize is the side, in pixels of the image given, of the
	// smallest face looked for; smaller values search more, smaller tiles.
	// Default 32.
	MinFaceSize int
}

// Validate rejects values out of range; zero values take the defaults.
func (c Config) Validate() error {
	if c.MinScore < 0 || c.MinScore >= 1 {
		return fmt.Errorf("faces: min score must be in [0, 1), got %g", c.MinScore)
	}
	if c.MinFaceSize < 0 {
		return fmt.Errorf("faces: min face size must not be negative, got %d", c.MinFaceSize)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.MinScore == 0 {
		c.MinScore = 0.8
	}
	if c.MinFaceSize == 0 {
		c.MinFaceSize = 32
	}
	return c
}

// Analyzer is the ml.FaceAnalyzer over the three models. It is safe for
// concurrent use; the Runtime bounds how many model runs go at once and
// closes the models.
type Analyzer struct {
	cfg                       Config
	detect, landmark, feature *onnx.Session
	// runs counts the runs of each model, for the benchmarks: a measure of
	// the work that a machine's other load does not blur.
	runs struct{ detect, landmark, feature atomic.Int64 }
}

var _ ml.FaceAnalyzer = (*Analyzer)(nil)

// Check reports whether rt's model directory has the three models,
// without loading them: a missing one wraps ml.ErrUnavailable.
func Check(rt *onnx.Runtime) error {
	for _, name := range []string{DetectModel, LandmarkModel, FeatureModel} {
		if _, err := rt.ModelPath(name); err != nil {
			return err
		}
	}
	return nil
}

// New loads the three models from rt. A missing model wraps
// ml.ErrUnavailable; a model of another shape is an error too.
func New(rt *onnx.Runtime, cfg Config) (*Analyzer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := &Analyzer{cfg: cfg.withDefaults()}
	for _, m := range []struct {
		s     **onnx.Session
		name  string
		input []int64
	}{
		{&a.detect, DetectModel, []int64{1, 3, detH, detW}},
		{&a.landmark, LandmarkModel, []int64{1, 1, landmarkSize, landmarkSize}},
		{&a.feature, FeatureModel, []int64{1, 3, alignSize, alignSize}},
	} {
		s, err := rt.NewSession(m.name, onnx.SessionOptions{})
		if err != nil {
			return nil, err
		}
		if got := s.Inputs(); len(got) != 1 || fmt.Sprint(got[0].Shape) != fmt.Sprint(m.input) {
			return nil, fmt.Errorf("faces: %s takes %v, want one input of shape %v", m.name, got, m.input)
		}
		*m.s = s
	}
	return a, nil
}

// LocateFace implements ml.FaceAnalyzer. The box must span at least
// minLocate pixels each way.
func (a *Analyzer) LocateFace(ctx context.Context, img image.Image, box ml.Box) (ml.Face, error) {
	b := img.Bounds()
	x0, y0, x1, y1 := box.Pixels(b)
	d := detection{x0: x0 - float64(b.Min.X), y0: y0 - float64(b.Min.Y), x1: x1 - float64(b.Min.X), y1: y1 - float64(b.Min.Y), score: 1}
	if d.x1-d.x0 < minLocate || d.y1-d.y0 < minLocate {
		return ml.Face{}, fmt.Errorf("faces: box %+v is smaller than %d pixels", box, minLocate)
	}
	src := raster.FromImage(img)
	pts, err := a.landmarks(ctx, src, d.square())
	if err != nil {
		return ml.Face{}, err
	}
	f := toFace(b, d, pts)
	if f.Embedding, _, err = a.embed(ctx, src, points5(pts)); err != nil {
		return ml.Face{}, err
	}
	return f, nil
}

// minLocate is the smallest box side LocateFace accepts, in pixels.
const minLocate = 8

func toFace(b image.Rectangle, d detection, pts [68][2]float64) ml.Face {
	off := func(x, y float64) (float64, float64) { return x + float64(b.Min.X), y + float64(b.Min.Y) }
	x0, y0 := off(d.x0, d.y0)
	x1, y1 := off(d.x1, d.y1)
	f := ml.Face{Box: ml.BoxOf(b, x0, y0, x1, y1), Score: d.score}
	for i, p := range pts {
		f.Landmarks[i] = ml.PointOf(b, p[0]+float64(b.Min.X), p[1]+float64(b.Min.Y))
	}
	return f
}
