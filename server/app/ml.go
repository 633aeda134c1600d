package app

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/describe"
	"github.com/photoctl/photoctl/ml/faces"
	"github.com/photoctl/photoctl/ml/ocr"
	"github.com/photoctl/photoctl/ml/onnx"
	"github.com/photoctl/photoctl/server/pipeline"
)

// MLConfig configures the machine-learning steps of the pipeline: faces,
// OCR (ONNX Runtime and models, docs/ml.md) and descriptions.
type MLConfig struct {
	// Enabled runs the faces and ocr steps (default true); off, they are
	// skipped and describe still runs.
	Enabled bool `koanf:"enabled"`
	// Dir holds lib/ and models/ as `make models` lays them out. Empty:
	// the first that exists of the places mlSearchDirs lists (data_dir/ml,
	// $XDG_DATA_HOME/photoctl/ml, the install prefix's, the system's).
	Dir string `koanf:"dir"`
	// Library is the ONNX Runtime shared library (1.24 or newer). Empty:
	// Dir/lib/<os>-<arch>/libonnxruntime.so.1.
	Library string `koanf:"library"`
	// Threads is how many model runs go at once, one thread each (0: one
	// per core).
	Threads int `koanf:"threads"`
	// IdleUnload releases the models after this long without use (default
	// 5m; 0 keeps them once loaded). They load on first use either way.
	IdleUnload time.Duration   `koanf:"idle_unload"`
	Describer  DescriberConfig `koanf:"describer"`
}

// DescriberConfig picks who writes asset descriptions.
type DescriberConfig struct {
	// Provider is "builtin" (default: a sentence from the signals the
	// pipeline computed) or "openai" (an OpenAI-compatible vision model).
	Provider string `koanf:"provider"`
	// BaseURL, Model and APIKey address the openai provider: BaseURL is
	// the API root /chat/completions is appended to
	// (https://api.openai.com/v1, http://localhost:11434/v1 for Ollama).
	BaseURL string `koanf:"base_url"`
	Model   string `koanf:"model"`
	APIKey  Secret `koanf:"api_key"`
	// Timeout bounds one request to the provider (default 60s).
	Timeout time.Duration `koanf:"timeout"`
}

// mlDisabled is the skip note of the faces and ocr tasks with ML off.
const mlDisabled = "ML is disabled (ml.enabled = false)"

// Describer providers.
const (
	ProviderBuiltin = "builtin"
	ProviderOpenAI  = "openai"
)

func mlDefaults() MLConfig {
	return MLConfig{Enabled: true, IdleUnload: 5 * time.Minute, Describer: DescriberConfig{Provider: ProviderBuiltin, Timeout: 60 * time.Second}}
}

func (c DescriberConfig) openAI() describe.OpenAIConfig {
	return describe.OpenAIConfig{BaseURL: c.BaseURL, Model: c.Model, APIKey: string(c.APIKey), Timeout: c.Timeout}
}

// Validate reports the problems of the ML settings.
func (c MLConfig) Validate() error {
	var errs []error
	if c.Threads < 0 {
		errs = append(errs, fmt.Errorf("ml.threads %d: must not be negative", c.Threads))
	}
	if c.IdleUnload < 0 {
		errs = append(errs, errors.New("ml.idle_unload must not be negative"))
	}
	switch c.Describer.Provider {
	case ProviderBuiltin:
	case ProviderOpenAI:
		if err := c.Describer.openAI().Validate(); err != nil {
			errs = append(errs, fmt.Errorf("ml.describer: %w", err))
		}
	default:
		errs = append(errs, fmt.Errorf("ml.describer.provider %q: want builtin or openai", c.Describer.Provider))
	}
	if c.Describer.Timeout < 0 {
		errs = append(errs, errors.New("ml.describer.timeout must not be negative"))
	}
	return errors.Join(errs...)
}

// openML builds the ML steps' tools for this process: the face analyzer
// and the OCR reader over the ONNX runtime, and the describer. It finds
// the ML folder (ml.dir, else the places mlSearchDirs lists for dataDir)
// and says which in one log line, loads
// the runtime and looks for the model files to find out what can run —
// ML disabled, the runtime or a model missing is not an error: its steps
// are skipped with the reason, logged here once. The models themselves
// load on first use and unload when idle (mlModels); a model file that
// is there but broken fails its tasks with the reason. The returned
// Closer releases them.
func openML(cfg MLConfig, dataDir string, log *slog.Logger) (pipeline.ML, io.Closer, error) {
	log = log.With("component", "ml")
	var out pipeline.ML
	switch cfg.Describer.Provider {
	case ProviderOpenAI:
		d, err := describe.NewOpenAI(cfg.Describer.openAI())
		if err != nil {
			return out, nil, err
		}
		out.Describer = d
	default:
		out.Describer = describe.Builtin{}
	}
	noop := closeFunc(func() error { return nil })
	if !cfg.Enabled {
		out.FacesOff, out.TextOff = mlDisabled, mlDisabled
		log.Info("ml disabled: faces and ocr tasks are skipped", "describer", out.Describer.Name())
		return out, noop, nil
	}
	cfg, err := resolveMLDir(cfg, dataDir, log) // ml_dir.go
	if err != nil {
		reason := unavailable(log, "runtime", err)
		out.FacesOff, out.TextOff = reason, reason
		return out, noop, nil
	}
	rt, err := onnx.Open(onnx.Config{Dir: cfg.Dir, Library: cfg.Library, Concurrency: cfg.Threads})
	if err != nil {
		reason := unavailable(log, "runtime", err)
		out.FacesOff, out.TextOff = reason, reason
		return out, noop, nil
	}
	models := &mlModels{cfg: cfg, log: log}
	if err := faces.Check(rt); err != nil {
		out.FacesOff = unavailable(log, "faces", err)
	} else {
		models.faces, out.Faces = true, lazyFaces{models}
	}
	if err := ocr.Check(rt); err != nil {
		out.TextOff = unavailable(log, "ocr", err)
	} else {
		models.text, out.Text = true, lazyText{models}
	}
	version, dir, threads := rt.Version(), rt.Dir(), rt.Concurrency()
	if err := rt.Close(); err != nil {
		return out, noop, err
	}
	if out.Faces == nil && out.Text == nil {
		return out, noop, nil
	}
	log.Info("ml ready", "onnxruntime", version, "dir", dir, "threads", threads,
		"faces", out.Faces != nil, "ocr", out.Text != nil, "describer", out.Describer.Name(),
		"idle_unload", cfg.IdleUnload)
	return out, models, nil
}

// closeFunc is a function as an io.Closer.
type closeFunc func() error

func (f closeFunc) Close() error { return f() }

// unavailable logs once why a capability cannot run (a missing file is a
// warning, anything else an error) and returns the reason its tasks give.
func unavailable(log *slog.Logger, what string, err error) string {
	if errors.Is(err, ml.ErrUnavailable) {
		log.Warn("ml "+what+" unavailable: its tasks are skipped", "err", err)
		return err.Error()
	}
	log.Error("ml "+what+" failed to load: its tasks are skipped", "err", err)
	return fmt.Sprintf("ml %s failed to load: %v", what, err)
}
