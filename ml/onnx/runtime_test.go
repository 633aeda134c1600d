package onnx_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/internal/mltest"
	"github.com/photoctl/photoctl/ml/onnx"
)

func TestOpenWithoutTheFilesIsUnavailableAndSaysWhy(t *testing.T) {
	for name, cfg := range map[string]onnx.Config{
		"empty directory":   {Dir: t.TempDir()},
		"missing directory": {Dir: filepath.Join(t.TempDir(), "nope")},
		"missing library":   {Dir: t.TempDir(), Library: "/nonexistent/libonnxruntime.so.1"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := onnx.Open(cfg)
			require.ErrorIs(t, err, ml.ErrUnavailable)
			require.Regexp(t, "make models|not a directory", err.Error())
		})
	}
	t.Run("a file that is not a library", func(t *testing.T) {
		dir := t.TempDir()
		lib := filepath.Join(dir, "libonnxruntime.so.1")
		require.NoError(t, os.WriteFile(lib, []byte("not an ELF file"), 0o644))
		_, err := onnx.Open(onnx.Config{Dir: dir, Library: lib})
		require.ErrorIs(t, err, ml.ErrUnavailable)
	})
	_, err := onnx.Open(onnx.Config{Concurrency: -1})
	require.Error(t, err)
	require.NotErrorIs(t, err, ml.ErrUnavailable)
}

func TestSessionRunsAModelOnOneThread(t *testing.T) {
	rt := mltest.Runtime(t, 2)
	require.Equal(t, "1.30.0", rt.Version())
	require.Equal(t, 2, rt.Concurrency())

	s, err := rt.NewSession("fr_landmark.onnx", onnx.SessionOptions{})
	require.NoError(t, err)
	require.Equal(t, []onnx.Port{{Name: "input", Shape: []int64{1, 1, 64, 64}}}, s.Inputs())
	require.Equal(t, []onnx.Port{{Name: "output", Shape: []int64{1, 136}}}, s.Outputs())

	in := onnx.Tensor{Shape: []int64{1, 1, 64, 64}, Data: make([]float32, 64*64)}
	for i := range in.Data {
		in.Data[i] = float32(i%64) / 64
	}
	out, err := s.Run(context.Background(), in)
	require.NoError(t, err)
	require.Len(t, out, 1)
	require.Equal(t, []int64{1, 136}, out[0].Shape)
	require.Len(t, out[0].Data, 136)

	// Runs from many goroutines share the session; the results agree.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := s.Run(context.Background(), in)
			if !(err == nil && len(got) == 1) {
				t.Errorf("concurrent run: %v", err)
				return
			}
			for i := range got[0].Data {
				if got[0].Data[i] != out[0].Data[i] {
					t.Errorf("concurrent run differs at %d", i)
					return
				}
			}
		})
	}
	wg.Wait()

	_, err = s.Run(context.Background())
	require.Error(t, err, "wrong number of inputs")
	_, err = s.Run(context.Background(), onnx.Tensor{Shape: []int64{1, 1, 64, 64}, Data: make([]float32, 10)})
	require.Error(t, err, "data shorter than the shape")
}

func TestMissingModelIsUnavailable(t *testing.T) {
	rt := mltest.Runtime(t, 1)
	_, err := rt.NewSession("no-such-model.onnx", onnx.SessionOptions{})
	require.ErrorIs(t, err, ml.ErrUnavailable)
	require.Contains(t, err.Error(), "make models")
}

func TestRunStopsForACancelledContext(t *testing.T) {
	rt := mltest.Runtime(t, 1)
	s, err := rt.NewSession("ch_PP-OCRv4_det_infer.onnx", onnx.SessionOptions{VaryingShapes: true})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = s.Run(ctx, onnx.Tensor{Shape: []int64{1, 3, 64, 64}, Data: make([]float32, 3*64*64)})
	require.ErrorIs(t, err, context.Canceled)
}

func TestCloseReleasesSessionsAndTheLibraryCanBeLoadedAgain(t *testing.T) {
	dir := mltest.Dir(t)
	first, err := onnx.Open(onnx.Config{Dir: dir, Concurrency: 1})
	require.NoError(t, err)
	second, err := onnx.Open(onnx.Config{Dir: dir, Concurrency: 1})
	require.NoError(t, err, "runtimes share the loaded library")

	other := filepath.Join(t.TempDir(), "libonnxruntime.so.1")
	require.NoError(t, os.Symlink(filepath.Join(dir, onnx.LibraryPath()), other))
	_, err = onnx.Open(onnx.Config{Dir: dir, Library: other})
	require.ErrorContains(t, err, "already loaded")

	s, err := first.NewSession("fr_landmark.onnx", onnx.SessionOptions{})
	require.NoError(t, err)
	require.NoError(t, first.Close())
	require.NoError(t, first.Close(), "Close is idempotent")
	require.Equal(t, "1.30.0", first.Version())
	_, err = s.Run(context.Background(), onnx.Tensor{Shape: []int64{1, 1, 64, 64}, Data: make([]float32, 64*64)})
	require.ErrorIs(t, err, ml.ErrClosed)
	_, err = first.NewSession("fr_landmark.onnx", onnx.SessionOptions{})
	require.ErrorIs(t, err, ml.ErrClosed)

	// The second runtime still works; closing it unloads the library,
	// and a later Open loads it again.
	s2, err := second.NewSession("fr_landmark.onnx", onnx.SessionOptions{})
	require.NoError(t, err)
	_, err = s2.Run(context.Background(), onnx.Tensor{Shape: []int64{1, 1, 64, 64}, Data: make([]float32, 64*64)})
	require.NoError(t, err)
	require.NoError(t, second.Close())
	require.Equal(t, "1.30.0", second.Version(), "after the library is gone")

	third, err := onnx.Open(onnx.Config{Dir: dir, Library: other})
	require.NoError(t, err, "with every runtime closed, another library may load")
	require.NoError(t, third.Close())
}
