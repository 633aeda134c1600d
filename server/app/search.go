package app

import (
	"context"
	"fmt"
	"image"
	"sync"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/faces"
	"github.com/photoctl/photoctl/ml/onnx"
)

// searchFaces is the face analyzer of image search (POST /api/search) in
// the serving process. It opens the ONNX runtime and the face models on
// the first image search, not at start: loading them takes a while and
// most servers never get one. With ML off or not installed it answers
// ml.ErrUnavailable, and image search goes by looks alone. It is separate
// from the pipeline's analyzer (ml.go), which lives with the task runner
// and may be in another process (`photoctl worker`).
type searchFaces struct {
	cfg  MLConfig
	once sync.Once
	mu   sync.Mutex // guards rt against a Close during the opening
	rt   *onnx.Runtime
	fa   *faces.Analyzer
	err  error
}

var _ ml.FaceAnalyzer = (*searchFaces)(nil)

func newSearchFaces(cfg MLConfig) *searchFaces { return &searchFaces{cfg: cfg} }

func (s *searchFaces) open() {
	s.once.Do(func() {
		if !s.cfg.Enabled {
			s.err = fmt.Errorf("%s: %w", mlDisabled, ml.ErrUnavailable)
			return
		}
		rt, err := onnx.Open(onnx.Config{Dir: s.cfg.Dir, Library: s.cfg.Library, Concurrency: s.cfg.Threads})
		if err != nil {
			s.err = err
			return
		}
		fa, err := faces.New(rt, faces.Config{})
		if err != nil {
			s.err = err
			_ = rt.Close()
			return
		}
		s.mu.Lock()
		s.rt, s.fa = rt, fa
		s.mu.Unlock()
	})
}

// DetectFaces opens the analyzer if need be and finds the faces of img.
func (s *searchFaces) DetectFaces(ctx context.Context, img image.Image) ([]ml.Face, error) {
	s.open()
	if s.err != nil {
		return nil, s.err
	}
	return s.fa.DetectFaces(ctx, img)
}

// LocateFace opens the analyzer if need be and embeds the face in box.
func (s *searchFaces) LocateFace(ctx context.Context, img image.Image, box ml.Box) (ml.Face, error) {
	s.open()
	if s.err != nil {
		return ml.Face{}, s.err
	}
	return s.fa.LocateFace(ctx, img, box)
}

// Close releases the runtime if a search opened it.
func (s *searchFaces) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rt == nil {
		return nil
	}
	rt := s.rt
	s.rt = nil
	return rt.Close()
}
