package app

import (
	"bytes"
	"image"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/onnx"
)

func TestMLConfigValidate(t *testing.T) {
	ok := mlDefaults()
	require.NoError(t, ok.Validate())
	openai := ok
	openai.Describer = DescriberConfig{Provider: ProviderOpenAI, BaseURL: "http://localhost:11434/v1", Model: "llava"}
	require.NoError(t, openai.Validate())

	tests := []struct {
		name   string
		change func(*MLConfig)
		want   string
	}{
		{"negative threads", func(c *MLConfig) { c.Threads = -1 }, "ml.threads"},
		{"an unknown provider", func(c *MLConfig) { c.Describer.Provider = "magic" }, `ml.describer.provider "magic"`},
		{"openai without a model", func(c *MLConfig) { c.Describer.Provider = ProviderOpenAI; c.Describer.BaseURL = "https://x/v1" },
			"model must be set"},
		{"openai without a base URL", func(c *MLConfig) { c.Describer.Provider = ProviderOpenAI; c.Describer.Model = "m" },
			"base_url"},
		{"a negative timeout", func(c *MLConfig) { c.Describer.Timeout = -time.Second }, "ml.describer.timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mlDefaults()
			tt.change(&c)
			require.ErrorContains(t, c.Validate(), tt.want)
			cfg := Defaults(t.TempDir())
			cfg.ML = c
			require.ErrorContains(t, cfg.Validate(), tt.want, "Config.Validate reports it")
		})
	}
}

func TestAPIKeyOfTheDescriberIsMasked(t *testing.T) {
	c := DescriberConfig{APIKey: "sk-secret"}
	require.Equal(t, "********", c.APIKey.String())
}

// logTo returns a logger writing text to buf.
func logTo(buf *bytes.Buffer) *slog.Logger { return slog.New(slog.NewTextHandler(buf, nil)) }

func TestOpenMLSaysOnceWhyStepsAreSkipped(t *testing.T) {
	t.Run("disabled", func(t *testing.T) {
		var log bytes.Buffer
		c := mlDefaults()
		c.Enabled = false
		tools, closer, err := openML(c, "", logTo(&log))
		require.NoError(t, err)
		defer closer.Close()
		require.Nil(t, tools.Faces)
		require.Nil(t, tools.Text)
		require.Equal(t, "ML is disabled (ml.enabled = false)", tools.FacesOff)
		require.Equal(t, tools.FacesOff, tools.TextOff)
		require.Equal(t, "builtin", tools.Describer.Name())
		require.Equal(t, 1, bytes.Count(log.Bytes(), []byte("ml disabled")), log.String())
	})
	t.Run("no model directory", func(t *testing.T) {
		var log bytes.Buffer
		c := mlDefaults()
		c.Dir = filepath.Join(t.TempDir(), "missing")
		tools, closer, err := openML(c, "", logTo(&log))
		require.NoError(t, err)
		defer closer.Close()
		require.Nil(t, tools.Faces)
		require.Contains(t, tools.FacesOff, "ml unavailable")
		require.Contains(t, tools.FacesOff, "missing")
		require.Equal(t, tools.FacesOff, tools.TextOff)
		require.Equal(t, 1, bytes.Count(log.Bytes(), []byte("level=WARN")), log.String())
	})
	t.Run("the openai describer", func(t *testing.T) {
		c := mlDefaults()
		c.Enabled = false
		c.Describer = DescriberConfig{Provider: ProviderOpenAI, BaseURL: "http://127.0.0.1:9/v1", Model: "llava"}
		tools, closer, err := openML(c, "", logTo(&bytes.Buffer{}))
		require.NoError(t, err)
		defer closer.Close()
		require.Equal(t, "openai:llava", tools.Describer.Name())
	})
}

// modelDir returns the ML folder of `make models`, skipping the test
// without it (unless PHOTOCTL_ML_REQUIRED is set).
func modelDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".cache", "ml"))
	require.NoError(t, err)
	if d := os.Getenv("PHOTOCTL_ML_DIR"); d != "" {
		dir = d
	}
	if _, err := os.Stat(filepath.Join(dir, onnx.LibraryPath())); err != nil {
		if os.Getenv("PHOTOCTL_ML_REQUIRED") != "" {
			t.Fatalf("PHOTOCTL_ML_REQUIRED is set but the ML files are missing: %v", err)
		}
		t.Skipf("no ML files in %s; run `make models`", dir)
	}
	return dir
}

func TestOpenMLLoadsTheModels(t *testing.T) {
	dir := modelDir(t)
	var log bytes.Buffer
	c := mlDefaults()
	c.Dir, c.Threads = dir, 1
	tools, closer, err := openML(c, "", logTo(&log))
	require.NoError(t, err)
	require.NotNil(t, tools.Faces)
	require.NotNil(t, tools.Text)
	require.Empty(t, tools.FacesOff)
	require.Contains(t, log.String(), "ml ready")
	models := closer.(*mlModels)
	require.False(t, models.loaded(), "the models load on first use, not at start")
	lines, err := tools.Text.ReadText(t.Context(), image.NewGray(image.Rect(0, 0, 64, 64)))
	require.NoError(t, err)
	require.Empty(t, lines)
	require.True(t, models.loaded())
	require.NoError(t, closer.Close())
	_, err = tools.Text.ReadText(t.Context(), image.NewGray(image.Rect(0, 0, 64, 64)))
	require.ErrorIs(t, err, ml.ErrClosed)

	t.Run("a model missing skips its step alone", func(t *testing.T) {
		half := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(half, "models"), 0o700))
		for _, name := range []string{"ch_PP-OCRv4_det_infer.onnx", "ch_PP-OCRv4_rec_infer.onnx", "ppocr_keys_v1.txt"} {
			require.NoError(t, os.Symlink(filepath.Join(dir, "models", name), filepath.Join(half, "models", name)))
		}
		c := mlDefaults()
		c.Dir, c.Library = half, filepath.Join(dir, onnx.LibraryPath())
		tools, closer, err := openML(c, "", logTo(&bytes.Buffer{}))
		require.NoError(t, err)
		defer closer.Close()
		require.Nil(t, tools.Faces)
		require.Contains(t, tools.FacesOff, "fr_detect.onnx")
		require.NotNil(t, tools.Text)
	})
}

// The models go after ml.idle_unload without use and come back on the
// next call; a call in progress keeps them. (The timer's callback is
// called directly: the test does not wait for time to pass.)
func TestIdleModelsAreUnloadedAndComeBack(t *testing.T) {
	c := mlDefaults()
	c.Dir, c.Threads, c.IdleUnload = modelDir(t), 1, time.Hour
	m := &mlModels{cfg: c, log: slog.New(slog.DiscardHandler), faces: true}
	defer m.Close()
	faces := lazyFaces{m}
	found, err := faces.DetectFaces(t.Context(), image.NewRGBA(image.Rect(0, 0, 320, 240)))
	require.NoError(t, err)
	require.Empty(t, found)
	require.True(t, m.loaded())

	_, _, err = m.acquire() // a call in progress
	require.NoError(t, err)
	m.unloadIdle(m.idle)
	require.True(t, m.loaded(), "a model in use stays")
	m.release()
	armed := m.idle
	_, _, err = m.acquire() // used again before the timer fired
	require.NoError(t, err)
	m.release()
	m.unloadIdle(armed)
	require.True(t, m.loaded(), "a stale timer unloads nothing")
	m.unloadIdle(m.idle)
	require.False(t, m.loaded(), "idle models are released")

	found, err = faces.DetectFaces(t.Context(), image.NewRGBA(image.Rect(0, 0, 320, 240)))
	require.NoError(t, err)
	require.Empty(t, found)
	require.True(t, m.loaded(), "and load again on the next call")
}
