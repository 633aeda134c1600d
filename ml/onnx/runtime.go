// Package onnx runs ONNX models on the CPU with ONNX Runtime, a shared
// library loaded at run time through github.com/yalue/onnxruntime_go (the
// only importer of that module). Every session runs on one thread; a
// Runtime bounds how many runs execute at once, so images are processed in
// parallel, one per core, rather than one image on every core.
package onnx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	ort "github.com/yalue/onnxruntime_go"

	"github.com/photoctl/photoctl/ml"
)

// env is the process's ONNX Runtime environment: onnxruntime_go keeps one
// per process, so Runtimes share it, counted, and the last Close unloads
// the library.
var env struct {
	mu      sync.Mutex
	users   int
	library string
	version string // copied: the library's own string goes when it unloads
}

// Runtime is a loaded ONNX Runtime with its model directory. It is safe
// for concurrent use; Close releases its sessions.
type Runtime struct {
	cfg     Config
	version string
	sem     chan struct{} // one token per concurrent run

	mu       sync.RWMutex // read-held by each Run; write-held by Close
	closed   bool
	sessions []*Session
}

// Open validates cfg, loads the library (once per process; every Runtime
// must name the same file) and returns a Runtime. A missing directory,
// library or unloadable library is an error wrapping ml.ErrUnavailable
// that says what to do.
func Open(cfg Config) (*Runtime, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	lib, err := filepath.Abs(cfg.Library)
	if err != nil {
		return nil, fmt.Errorf("onnx: library path %s: %w", cfg.Library, err)
	}
	cfg.Library = lib
	version, err := acquireEnv(lib)
	if err != nil {
		return nil, err
	}
	return &Runtime{cfg: cfg, version: version, sem: make(chan struct{}, cfg.Concurrency)}, nil
}

func acquireEnv(lib string) (version string, err error) {
	env.mu.Lock()
	defer env.mu.Unlock()
	if env.users > 0 {
		if env.library != lib {
			return "", fmt.Errorf("onnx: runtime already loaded from %s, cannot also load %s", env.library, lib)
		}
		env.users++
		return env.version, nil
	}
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return "", unavailable(fmt.Errorf("load onnx runtime %s: %w", lib, err))
	}
	env.users, env.library, env.version = 1, lib, strings.Clone(ort.GetVersion())
	return env.version, nil
}

func releaseEnv() error {
	env.mu.Lock()
	defer env.mu.Unlock()
	env.users--
	if env.users > 0 {
		return nil
	}
	env.library, env.version = "", ""
	if err := ort.DestroyEnvironment(); err != nil {
		return fmt.Errorf("onnx: unload runtime: %w", err)
	}
	return nil
}

// Version is the loaded ONNX Runtime's version, e.g. "1.30.0".
func (r *Runtime) Version() string { return r.version }

// Dir is the model directory in use.
func (r *Runtime) Dir() string { return r.cfg.Dir }

// Concurrency is how many runs execute at once.
func (r *Runtime) Concurrency() int { return r.cfg.Concurrency }

// ModelPath returns the path of the model file name in the model
// directory, or an error wrapping ml.ErrUnavailable when it is missing.
func (r *Runtime) ModelPath(name string) (string, error) {
	p := filepath.Join(r.cfg.Dir, "models", name)
	if _, err := os.Stat(p); err != nil {
		return "", unavailable(fmt.Errorf("model %s: %w; run `make models`", p, err))
	}
	return p, nil
}

// Close waits for the runs in progress, releases every session the
// Runtime opened and, with the last Runtime of the process, unloads the
// library. Later calls to Run fail with ml.ErrClosed; Close is idempotent.
func (r *Runtime) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	var errs []error
	for _, s := range r.sessions {
		errs = append(errs, s.destroy())
	}
	r.sessions = nil
	errs = append(errs, releaseEnv())
	return errors.Join(errs...)
}

// acquire takes a run slot and the read lock, honouring ctx while it
// waits; release gives both back.
func (r *Runtime) acquire(ctx context.Context) error {
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	r.mu.RLock()
	if r.closed {
		r.mu.RUnlock()
		<-r.sem
		return ml.ErrClosed
	}
	return nil
}

func (r *Runtime) release() {
	r.mu.RUnlock()
	<-r.sem
}

func unavailable(err error) error {
	return fmt.Errorf("%w: %w", ml.ErrUnavailable, err)
}
