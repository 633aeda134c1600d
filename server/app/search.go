package app

import (
	"fmt"
	"log/slog"

	"github.com/photoctl/photoctl/ml"
)

// searchFaces is the face analyzer of image search (POST /api/search) in
// the serving process. It loads the ONNX runtime and the face models on
// the first image search, not at start (most servers never get one), and
// releases them after ml.idle_unload without use. With ML off or not
// installed it answers ml.ErrUnavailable, and image search goes by looks
// alone. It is separate from the pipeline's models (ml.go), which live
// with the task runner and may be in another process (`photoctl worker`).
type searchFaces struct{ lazyFaces }

func newSearchFaces(cfg MLConfig, log *slog.Logger) *searchFaces {
	m := &mlModels{cfg: cfg, log: log.With("component", "ml"), faces: true}
	if !cfg.Enabled {
		m.off = fmt.Errorf("%s: %w", mlDisabled, ml.ErrUnavailable)
	}
	return &searchFaces{lazyFaces{m}}
}

// Close releases the models if a search loaded them.
func (s *searchFaces) Close() error { return s.m.Close() }
