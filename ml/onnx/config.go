package onnx

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// SystemDirs are where Config.Dir is looked for when it is empty, in
// order: the places `make install` and packagers put the ML folder
// (docs/ml.md, "Installing"). The server looks in its own places first
// (server/app, mlSearchDirs); nothing is looked for relative to the
// working directory.
var SystemDirs = []string{"/usr/local/lib/photoctl/ml", "/usr/lib/photoctl/ml"}

// Config locates ONNX Runtime and the models and bounds their work.
type Config struct {
	// Dir holds lib/<os>-<arch>/libonnxruntime.so.1 and models/, as
	// scripts/fetch-models lays them out. Default: the first of
	// SystemDirs that exists.
	Dir string
	// Library is the ONNX Runtime shared library (1.24 or newer). Default:
	// the one under Dir.
	Library string
	// Concurrency is how many model runs execute at once; each runs on
	// one thread. Default: the number of CPUs.
	Concurrency int
}

// Validate rejects a negative concurrency; zero values take the defaults.
func (c Config) Validate() error {
	if c.Concurrency < 0 {
		return fmt.Errorf("onnx: concurrency must not be negative, got %d", c.Concurrency)
	}
	return nil
}

// withDefaults fills Dir, Library and Concurrency. An empty Dir stays
// empty when none of SystemDirs exists; Open then reports that.
func (c Config) withDefaults() Config {
	if c.Dir == "" {
		for _, d := range SystemDirs {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				c.Dir = d
				break
			}
		}
	}
	if c.Library == "" && c.Dir != "" {
		c.Library = filepath.Join(c.Dir, LibraryPath())
	}
	if c.Concurrency == 0 {
		c.Concurrency = runtime.NumCPU()
	}
	return c
}

// LibraryPath is where scripts/fetch-models puts the library for this
// platform, relative to Config.Dir.
func LibraryPath() string {
	arch := runtime.GOARCH
	switch arch {
	case "amd64":
		arch = "x64"
	}
	return filepath.Join("lib", runtime.GOOS+"-"+arch, "libonnxruntime.so.1")
}

// check reports, wrapping ml.ErrUnavailable, what is missing.
func (c Config) check() error {
	switch {
	case c.Library == "" && c.Dir == "":
		return unavailable(fmt.Errorf("no model directory: none of %v exists; run `make models` or set the ML directory", SystemDirs))
	case c.Dir == "":
		return unavailable(errors.New("no model directory set"))
	}
	if st, err := os.Stat(c.Dir); err != nil || !st.IsDir() {
		return unavailable(fmt.Errorf("model directory %s: not a directory", c.Dir))
	}
	if _, err := os.Stat(c.Library); err != nil {
		return unavailable(fmt.Errorf("onnx runtime library %s: %w; run `make models`", c.Library, err))
	}
	return nil
}
