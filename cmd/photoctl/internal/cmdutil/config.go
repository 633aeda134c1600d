package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/knadh/koanf/parsers/toml/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"
	"github.com/urfave/cli/v2"
)

// EnvPrefix starts every environment variable that sets a config key.
const EnvPrefix = "PHOTOCTL_"

// InvalidConfig reports every problem of err on one line, as a usage error.
// Both the decoder and Validate join several errors with newlines.
func InvalidConfig(err error) error {
	msg := strings.TrimPrefix(err.Error(), "decoding failed due to the following error(s):")
	var parts []string
	for _, line := range strings.Split(msg, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return &UsageError{Err: fmt.Errorf("invalid configuration: %s", strings.Join(parts, "; "))}
}

// LoadConfigFile merges the TOML file at path into k. A missing file is
// fine unless the user named it; keys that are not config keys are errors,
// so that a typo does not silently fall back to a default.
func LoadConfigFile(k *koanf.Koanf, path string, explicit bool, known map[string]bool) error {
	if path == "" {
		return nil
	}
	fk := koanf.New(".")
	err := fk.Load(file.Provider(path), toml.Parser())
	var pathErr *fs.PathError
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist) && !explicit:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return &UsageError{Err: fmt.Errorf("config file %s does not exist", path)}
	case errors.As(err, &pathErr):
		return fmt.Errorf("read config file: %w", err)
	default:
		return &UsageError{Err: fmt.Errorf("parse config file %s: %w", path, err)}
	}

	var unknown []string
	for _, key := range fk.Keys() {
		if m, ok := fk.Get(key).(map[string]any); ok && len(m) == 0 {
			continue // an empty [table] sets nothing
		}
		if !known[key] {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		return &UsageError{Err: fmt.Errorf("config file %s: unknown keys: %s", path, strings.Join(unknown, ", "))}
	}
	return k.Merge(fk)
}

// envName is the environment variable that sets key: data_dir is
// PHOTOCTL_DATA_DIR, rate_limit.enabled is PHOTOCTL_RATE_LIMIT_ENABLED.
func envName(key string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// EnvKeys maps environment variable names to config keys. Keys contain
// underscores themselves, so the name cannot be split back on "_"; it is
// looked up among the known keys instead.
func EnvKeys(known map[string]bool) map[string]string {
	out := make(map[string]string, len(known))
	for key := range known {
		out[envName(key)] = key
	}
	return out
}

// EnvTransform returns koanf's env transform: a known variable becomes its
// key, any other PHOTOCTL_* variable (PHOTOCTL_CONFIG, say) is skipped.
func EnvTransform(keys map[string]string) func(string, string) (string, any) {
	return func(name, value string) (string, any) {
		key, ok := keys[name]
		if !ok {
			return "", nil
		}
		return key, value
	}
}

// ConfigPath returns the config file to read and whether the user named it
// (with --config or PHOTOCTL_CONFIG).
func ConfigPath(c *cli.Context) (path string, explicit bool) {
	if c.IsSet("config") && c.String("config") != "" {
		return c.String("config"), true
	}
	dir := XDGDir("XDG_CONFIG_HOME", ".config")
	if dir == "" {
		return "", false
	}
	return filepath.Join(dir, "photoctl", "config.toml"), false
}

// DefaultDataDir is $XDG_DATA_HOME/photoctl, or ~/.local/share/photoctl.
func DefaultDataDir() string {
	dir := XDGDir("XDG_DATA_HOME", filepath.Join(".local", "share"))
	if dir == "" {
		return "" // Validate asks for data_dir
	}
	return filepath.Join(dir, "photoctl")
}

// XDGDir returns the XDG base directory in env, or homeRel under the home
// directory when env is unset or, against the spec, relative.
func XDGDir(env, homeRel string) string {
	if dir := os.Getenv(env); filepath.IsAbs(dir) {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, homeRel)
}
