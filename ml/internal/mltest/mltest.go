// Package mltest gives the ml tests the runtime, models and photos that
// `make models` puts in .cache/ml. A test skips when they are absent,
// unless PHOTOCTL_ML_REQUIRED is set (`make test` sets it, so CI never
// skips): then their absence fails it.
package mltest

import (
	"image"
	_ "image/jpeg" // the sample photos
	_ "image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/onnx"
)

// Dir returns the ML directory: $PHOTOCTL_ML_DIR, or .cache/ml at the
// root of the module.
func Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("PHOTOCTL_ML_DIR")
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(root, ".cache", "ml")
	}
	if _, err := os.Stat(filepath.Join(dir, onnx.LibraryPath())); err != nil {
		if os.Getenv("PHOTOCTL_ML_REQUIRED") != "" {
			t.Fatalf("PHOTOCTL_ML_REQUIRED is set but the ML files are missing (%v); run `make models`", err)
		}
		t.Skipf("no ML files in %s; run `make models` (set PHOTOCTL_ML_REQUIRED=1 to fail instead)", dir)
	}
	return dir
}

var root struct {
	once sync.Once
	dir  string
	err  error
}

func moduleRoot() (string, error) {
	root.once.Do(func() {
		dir, err := os.Getwd()
		for err == nil {
			if _, statErr := os.Stat(filepath.Join(dir, "go.mod")); statErr == nil {
				root.dir = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				err = os.ErrNotExist
				break
			}
			dir = parent
		}
		root.err = err
	})
	return root.dir, root.err
}

// Runtime opens the runtime over Dir with concurrency runs at once (0:
// one per CPU) and closes it when the test ends.
func Runtime(t testing.TB, concurrency int) *onnx.Runtime {
	t.Helper()
	rt, err := onnx.Open(onnx.Config{Dir: Dir(t), Concurrency: concurrency})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := rt.Close(); err != nil {
			t.Error(err)
		}
	})
	return rt
}

// RuntimeWithoutModels opens the runtime library of Dir over an ML
// directory with no models, as a half-finished install would have.
func RuntimeWithoutModels(t testing.TB) *onnx.Runtime {
	t.Helper()
	lib := filepath.Join(Dir(t), onnx.LibraryPath())
	rt, err := onnx.Open(onnx.Config{Dir: t.TempDir(), Library: lib, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	return rt
}

// Photo decodes the test photo name from Dir/photos.
func Photo(t testing.TB, name string) image.Image {
	t.Helper()
	f, err := os.Open(filepath.Join(Dir(t), "photos", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
	return img
}

// GroupPhotos are the multi-face sample photos of @vladmandic/face-api,
// each with the centres of the faces in it (fractions of the image),
// checked by eye. Faces lists the faces DetectFaces must find; Profile
// the faces it drops on purpose (turned so far that one eye is hidden:
// no five-point alignment, no usable embedding). Some people appear in
// more than one of these photos.
var GroupPhotos = []struct {
	Name    string
	Faces   []ml.Point
	Profile []ml.Point
}{
	{Name: "face-api-sample1.jpg", Faces: []ml.Point{{X: 0.26, Y: 0.37}, {X: 0.49, Y: 0.42}, {X: 0.82, Y: 0.26}}},
	{Name: "face-api-sample2.jpg", Faces: []ml.Point{{X: 0.80, Y: 0.20}, {X: 0.51, Y: 0.25}}, Profile: []ml.Point{{X: 0.23, Y: 0.20}}},
	{Name: "face-api-sample3.jpg", Faces: []ml.Point{{X: 0.36, Y: 0.34}, {X: 0.62, Y: 0.27}, {X: 0.83, Y: 0.32}}},
	{Name: "face-api-sample4.jpg", Faces: []ml.Point{{X: 0.18, Y: 0.22}, {X: 0.39, Y: 0.13}, {X: 0.56, Y: 0.21}, {X: 0.70, Y: 0.19}}},
	{Name: "face-api-sample5.jpg", Faces: []ml.Point{{X: 0.24, Y: 0.73}, {X: 0.36, Y: 0.39}, {X: 0.46, Y: 0.16}, {X: 0.62, Y: 0.23}, {X: 0.78, Y: 0.38}}},
	{Name: "face-api-sample6.jpg", Faces: []ml.Point{{X: 0.19, Y: 0.41}, {X: 0.40, Y: 0.31}, {X: 0.66, Y: 0.29}, {X: 0.83, Y: 0.26}}},
}
