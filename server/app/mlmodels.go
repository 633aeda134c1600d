package app

import (
	"context"
	"errors"
	"image"
	"log/slog"
	"sync"
	"time"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/faces"
	"github.com/photoctl/photoctl/ml/ocr"
	"github.com/photoctl/photoctl/ml/onnx"
)

// mlModels is the ONNX runtime with the face and OCR models, loaded when a
// step or an image search first needs them and released after
// ml.idle_unload without use (like Immich's model TTL): loaded, they take
// about 85 MB that an idle server should not hold. Loading takes well
// under a second, so a burst of uploads pays it once.
type mlModels struct {
	cfg         MLConfig
	log         *slog.Logger
	faces, text bool  // which models to load
	off         error // why none can load (ML disabled), or nil

	mu     sync.Mutex
	rt     *onnx.Runtime
	fa     *faces.Analyzer
	tr     *ocr.Reader
	users  int    // calls in progress
	idle   uint64 // generation of the pending unload; 0 when none
	timer  *time.Timer
	closed bool
}

// acquire returns the loaded models, loading them if need be; every
// successful acquire is paired with a release.
func (m *mlModels) acquire() (*faces.Analyzer, *ocr.Reader, error) {
	if m.off != nil {
		return nil, nil, m.off
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, nil, ml.ErrClosed
	}
	if m.rt == nil {
		if err := m.load(); err != nil {
			return nil, nil, err
		}
	}
	m.users++
	m.stopTimer()
	return m.fa, m.tr, nil
}

// load opens the runtime and the wanted models; m.mu is held.
func (m *mlModels) load() error {
	rt, err := onnx.Open(onnx.Config{Dir: m.cfg.Dir, Library: m.cfg.Library, Concurrency: m.cfg.Threads})
	if err != nil {
		return err
	}
	var fa *faces.Analyzer
	var tr *ocr.Reader
	if m.faces {
		if fa, err = faces.New(rt, faces.Config{}); err != nil {
			return errors.Join(err, rt.Close())
		}
	}
	if m.text {
		if tr, err = ocr.New(rt, ocr.Config{}); err != nil {
			return errors.Join(err, rt.Close())
		}
	}
	m.rt, m.fa, m.tr = rt, fa, tr
	m.log.Debug("ml models loaded", "faces", m.faces, "ocr", m.text)
	return nil
}

// release ends a call; the last one out arms the idle unload.
func (m *mlModels) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users--
	if m.users > 0 || m.closed || m.cfg.IdleUnload <= 0 {
		return
	}
	m.stopTimer()
	m.idle++
	gen := m.idle
	m.timer = time.AfterFunc(m.cfg.IdleUnload, func() { m.unloadIdle(gen) })
}

// stopTimer cancels the pending unload; m.mu is held. A timer that fired
// already finds its generation stale and does nothing.
func (m *mlModels) stopTimer() {
	if m.timer != nil {
		m.timer.Stop()
		m.timer = nil
	}
	m.idle++
}

// unloadIdle releases the models if nothing used them since the timer of
// generation gen was armed.
func (m *mlModels) unloadIdle(gen uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if gen != m.idle || m.users > 0 || m.rt == nil {
		return
	}
	m.timer = nil
	if err := m.unload(); err != nil {
		m.log.Warn("ml models unload", "err", err)
		return
	}
	m.log.Debug("ml models unloaded after idle", "idle", m.cfg.IdleUnload)
}

// unload closes the runtime (waiting for runs in progress); m.mu is held.
func (m *mlModels) unload() error {
	if m.rt == nil {
		return nil
	}
	rt := m.rt
	m.rt, m.fa, m.tr = nil, nil, nil
	return rt.Close()
}

// loaded reports whether the models are in memory (for tests).
func (m *mlModels) loaded() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rt != nil
}

// Close releases the models for good; later calls fail with ml.ErrClosed.
func (m *mlModels) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.stopTimer()
	return m.unload()
}

// lazyFaces is the ml.FaceAnalyzer over mlModels.
type lazyFaces struct{ m *mlModels }

var _ ml.FaceAnalyzer = lazyFaces{}

func (f lazyFaces) DetectFaces(ctx context.Context, img image.Image) ([]ml.Face, error) {
	fa, _, err := f.m.acquire()
	if err != nil {
		return nil, err
	}
	defer f.m.release()
	return fa.DetectFaces(ctx, img)
}

func (f lazyFaces) LocateFace(ctx context.Context, img image.Image, box ml.Box) (ml.Face, error) {
	fa, _, err := f.m.acquire()
	if err != nil {
		return ml.Face{}, err
	}
	defer f.m.release()
	return fa.LocateFace(ctx, img, box)
}

// lazyText is the ml.TextReader over mlModels.
type lazyText struct{ m *mlModels }

var _ ml.TextReader = lazyText{}

func (t lazyText) ReadText(ctx context.Context, img image.Image) ([]ml.TextLine, error) {
	_, tr, err := t.m.acquire()
	if err != nil {
		return nil, err
	}
	defer t.m.release()
	return tr.ReadText(ctx, img)
}
