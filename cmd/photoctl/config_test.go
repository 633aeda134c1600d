package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeConfig writes a TOML config file into a temp dir and returns its path.
func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

// showJSON runs `photoctl <global...> config show --json <flags...>` and
// returns the decoded configuration.
func showJSON(t *testing.T, global []string, flags ...string) map[string]any {
	t.Helper()
	args := append(append(append([]string{}, global...), "config", "show", "--json"), flags...)
	r := runCLI(t, nil, "", args...)
	require.Equal(t, exitOK, r.code, r.stderr)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &m), r.stdout)
	return m
}

// lookup returns the value at a dotted key such as "rate_limit.enabled".
func lookup(t *testing.T, m map[string]any, key string) any {
	t.Helper()
	var v any = m
	for _, part := range strings.Split(key, ".") {
		obj, ok := v.(map[string]any)
		require.True(t, ok, "key %s: %v is not a table", key, v)
		v, ok = obj[part]
		require.True(t, ok, "key %s missing", key)
	}
	return v
}

func TestConfigLayersOverrideInOrder(t *testing.T) {
	isolate(t)
	path := writeConfig(t, `
listen = "0.0.0.0:1001"
data_dir = "/from/file"

[log]
level = "warn"
format = "json"

[upload]
max_bytes = 1000

[rate_limit]
enabled = true
burst = 7
`)
	t.Setenv("PHOTOCTL_LISTEN", "0.0.0.0:1002")
	t.Setenv("PHOTOCTL_LOG_LEVEL", "debug")
	t.Setenv("PHOTOCTL_DATA_DIR", "/from/env")
	t.Setenv("PHOTOCTL_RATE_LIMIT_ENABLED", "false")
	t.Setenv("PHOTOCTL_UPLOAD_MAX_BYTES", "2000")

	m := showJSON(t, []string{"--config", path}, "--listen", "127.0.0.1:1003", "--max-upload-bytes", "3000")

	want := map[string]any{
		"rate_limit.rate":    50.0,             // default only
		"log.format":         "json",           // file over default
		"rate_limit.burst":   7.0,              // file over default
		"log.level":          "debug",          // env over file
		"data_dir":           "/from/env",      // env over file
		"rate_limit.enabled": false,            // env over file and default
		"listen":             "127.0.0.1:1003", // flag over env over file
		"upload.max_bytes":   3000.0,           // flag over env over file
	}
	for key, v := range want {
		require.Equal(t, v, lookup(t, m, key), key)
	}
}

func TestConfigFlagsNotSetOverrideNothing(t *testing.T) {
	isolate(t)
	t.Setenv("PHOTOCTL_LISTEN", "0.0.0.0:1002")
	m := showJSON(t, nil, "--log-level", "warn")
	require.Equal(t, "0.0.0.0:1002", lookup(t, m, "listen"))
	require.Equal(t, "warn", lookup(t, m, "log.level"))
}

func TestConfigDefaultsFollowXDG(t *testing.T) {
	configHome, dataHome := isolate(t)
	m := showJSON(t, nil)
	require.Equal(t, filepath.Join(dataHome, "photoctl"), lookup(t, m, "data_dir"))
	require.Equal(t, "127.0.0.1:2283", lookup(t, m, "listen"))

	// The default config file is read once it exists.
	require.NoError(t, os.MkdirAll(filepath.Join(configHome, "photoctl"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(configHome, "photoctl", "config.toml"), []byte(`listen = "0.0.0.0:9"`), 0o600))
	m = showJSON(t, nil)
	require.Equal(t, "0.0.0.0:9", lookup(t, m, "listen"))
}

func TestConfigDurations(t *testing.T) {
	isolate(t)
	path := writeConfig(t, "shutdown_timeout = \"90s\"\n[trash]\nretention = \"48h\"\n")
	t.Setenv("PHOTOCTL_AUTH_ACCESS_TTL", "90m")
	m := showJSON(t, []string{"--config", path})
	require.Equal(t, "48h0m0s", lookup(t, m, "trash.retention"))
	require.Equal(t, "1m30s", lookup(t, m, "shutdown_timeout"))
	require.Equal(t, "1h30m0s", lookup(t, m, "auth.access_ttl"))
	require.Equal(t, "720h0m0s", lookup(t, m, "auth.refresh_ttl"))

	r := runCLI(t, nil, "", "config", "show")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "access_ttl = '1h30m0s'")
}

func TestConfigFileNamedButMissingIsAnError(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.toml")
	t.Run("with --config", func(t *testing.T) {
		isolate(t)
		r := runCLI(t, nil, "", "--config", missing, "config", "show")
		require.Equal(t, exitUsage, r.code)
		require.Contains(t, r.stderr, "config file "+missing+" does not exist")
		require.Empty(t, r.stdout)
	})
	t.Run("with PHOTOCTL_CONFIG", func(t *testing.T) {
		isolate(t)
		t.Setenv("PHOTOCTL_CONFIG", missing)
		r := runCLI(t, nil, "", "config", "show")
		require.Equal(t, exitUsage, r.code)
		require.Contains(t, r.stderr, "does not exist")
	})
	t.Run("the default file may be missing", func(t *testing.T) {
		isolate(t)
		r := runCLI(t, nil, "", "config", "show")
		require.Equal(t, exitOK, r.code, r.stderr)
	})
}

func TestConfigInvalidValuesAreUsageErrors(t *testing.T) {
	tests := []struct {
		name       string
		env        map[string]string
		file       string
		flags      []string
		wantStderr string
	}{
		{name: "an unknown log level from env", env: map[string]string{"PHOTOCTL_LOG_LEVEL": "loud"}, wantStderr: `log.level "loud"`},
		{name: "a listen address without port from a flag", flags: []string{"--listen", "nope"}, wantStderr: `listen "nope": want HOST:PORT`},
		{name: "a zero upload limit from env", env: map[string]string{"PHOTOCTL_UPLOAD_MAX_BYTES": "0"}, wantStderr: "upload.max_bytes must be positive"},
		{name: "a non-boolean switch from env", env: map[string]string{"PHOTOCTL_RATE_LIMIT_ENABLED": "maybe"}, wantStderr: "rate_limit.enabled"},
		{name: "a bad duration from env", env: map[string]string{"PHOTOCTL_TRASH_RETENTION": "forever"}, wantStderr: "trash.retention"},
		{name: "a bad duration in the file", file: "[auth]\nrefresh_ttl = \"a month\"\n", wantStderr: "auth.refresh_ttl"},
		{name: "a database url of an unsupported database", env: map[string]string{"PHOTOCTL_DATABASE_URL": "mysql://db"}, wantStderr: "database.url: unsupported database (mysql)"},
		{name: "an unknown key in the file", file: "[rate_limit]\nburts = 5\n", wantStderr: "unknown keys: rate_limit.burts"},
		{name: "a file that is not TOML", file: "listen = [", wantStderr: "parse config file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			var global []string
			if tt.file != "" {
				global = []string{"--config", writeConfig(t, tt.file)}
			}
			args := append(append(global, "config", "show"), tt.flags...)
			r := runCLI(t, nil, "", args...)
			require.Equal(t, exitUsage, r.code, r.stderr)
			require.Contains(t, r.stderr, tt.wantStderr)
			require.Empty(t, r.stdout)
		})
	}
}

func TestConfigShowMasksSecrets(t *testing.T) {
	isolate(t)
	t.Setenv("PHOTOCTL_DATABASE_URL", "sqlite:///srv/hidden-name.db")
	for _, format := range [][]string{nil, {"--json"}} {
		r := runCLI(t, nil, "", append([]string{"config", "show"}, format...)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		require.NotContains(t, r.stdout, "hidden-name")
		require.Contains(t, r.stdout, "********")
	}
	m := showJSON(t, nil)
	require.Equal(t, "********", lookup(t, m, "database.url"))
}

func TestConfigShowTOMLIsAValidConfigFile(t *testing.T) {
	isolate(t)
	t.Setenv("PHOTOCTL_TRASH_RETENTION", "36h")
	first := runCLI(t, nil, "", "config", "show", "--listen", "0.0.0.0:7")
	require.Equal(t, exitOK, first.code, first.stderr)

	isolate(t)
	second := runCLI(t, nil, "", "--config", writeConfig(t, first.stdout), "config", "show")
	require.Equal(t, exitOK, second.code, second.stderr)
	require.Equal(t, first.stdout, second.stdout)
}
