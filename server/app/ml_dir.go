package app

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/photoctl/photoctl/ml"
	"github.com/photoctl/photoctl/ml/onnx"
)

// mlSearchDirs are the places the ML folder (lib/ and models/, as `make
// models` lays them out) is looked for when ml.dir is unset, in order:
//
//   - <data_dir>/ml, beside the library it serves;
//   - $XDG_DATA_HOME/photoctl/ml (~/.local/share/photoctl/ml);
//   - <prefix>/lib/photoctl/ml for a binary in <prefix>/bin, where `make
//     install PREFIX=...` puts both;
//   - onnx.SystemDirs (/usr/local/lib/photoctl/ml, /usr/lib/photoctl/ml);
//   - .cache/ml of the checkout a binary was built in (bin/photoctl beside
//     go.mod), where `make models` fetches it: `make run` and a
//     bin/photoctl started from any folder find it.
//
// None is relative to the working directory: a server started in a
// folder it does not own loads no library from it.
func mlSearchDirs(dataDir string) []string {
	var dirs []string
	add := func(d string) {
		if d != "" && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	if dataDir != "" {
		add(filepath.Join(dataDir, "ml"))
	}
	if data := xdgDataHome(); data != "" {
		add(filepath.Join(data, "photoctl", "ml"))
	}
	prefix := executablePrefix()
	if prefix != "" {
		add(filepath.Join(prefix, "lib", "photoctl", "ml"))
	}
	for _, d := range onnx.SystemDirs {
		add(d)
	}
	if prefix != "" && isFile(filepath.Join(prefix, "go.mod")) {
		add(filepath.Join(prefix, ".cache", "ml"))
	}
	return dirs
}

// resolveMLDir returns cfg with Dir set to the ML folder this process
// uses, saying which in one log line: ml.dir when set, else the first of
// mlSearchDirs(dataDir) that is a directory. None existing is an error
// wrapping ml.ErrUnavailable that lists where it looked.
func resolveMLDir(cfg MLConfig, dataDir string, log *slog.Logger) (MLConfig, error) {
	if cfg.Dir != "" {
		log.Info("ml models dir", "dir", cfg.Dir, "from", "ml.dir")
		return cfg, nil
	}
	dirs := mlSearchDirs(dataDir)
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			log.Info("ml models dir", "dir", d, "from", "search")
			cfg.Dir = d
			return cfg, nil
		}
	}
	return cfg, fmt.Errorf("%w: no models dir: looked in %s; run `make models` (a checkout) or `make install`, "+
		"or set ml.dir (docs/ml.md)", ml.ErrUnavailable, strings.Join(dirs, ", "))
}

// xdgDataHome is $XDG_DATA_HOME, or ~/.local/share when it is unset or,
// against the spec, relative; "" without a home directory.
func xdgDataHome() string {
	if dir := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(dir) {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share")
}

// executablePrefix is the folder above the one holding this binary
// (symlinks resolved): /usr/local for /usr/local/bin/photoctl, the
// checkout for bin/photoctl. "" when the binary cannot be found.
func executablePrefix() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return ""
	}
	return filepath.Dir(filepath.Dir(exe))
}

// isFile reports whether path is a regular file.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
