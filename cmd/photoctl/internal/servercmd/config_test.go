//go:build !client

package servercmd

import (
	"testing"

	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

func TestEveryConfigKeyHasItsOwnEnvVar(t *testing.T) {
	k := koanf.New(".")
	require.NoError(t, k.Load(structs.Provider(app.Defaults(""), "koanf"), nil))
	known := make(map[string]bool)
	for _, key := range k.Keys() {
		known[key] = true
	}
	names := cmdutil.EnvKeys(known)
	require.Len(t, names, len(known), "two keys share an environment variable")
	for name, key := range map[string]string{
		"PHOTOCTL_LISTEN":             "listen",
		"PHOTOCTL_DATA_DIR":           "data_dir",
		"PHOTOCTL_RATE_LIMIT_ENABLED": "rate_limit.enabled",
		"PHOTOCTL_LOG_LEVEL":          "log.level",
		"PHOTOCTL_UPLOAD_MAX_BYTES":   "upload.max_bytes",
		"PHOTOCTL_DATABASE_URL":       "database.url",
		"PHOTOCTL_AUTH_REFRESH_TTL":   "auth.refresh_ttl",
	} {
		require.Equal(t, key, names[name], name)
	}
	for _, key := range flagKeys {
		require.True(t, known[key], "flag sets unknown key %s", key)
	}
}

func TestServeParsesItsOptions(t *testing.T) {
	cmdtest.Isolate(t)
	dir := t.TempDir()
	got := parse(t, NewCmdServe, "--listen", "127.0.0.1:0", "--data-dir", dir, "--log-level", "debug",
		"--log-format", "json", "--max-upload-bytes", "1024", "--immich-listen", "127.0.0.1:2284")
	require.Equal(t, "127.0.0.1:0", got.Config.Listen)
	require.Equal(t, dir, got.Config.DataDir)
	require.Equal(t, int64(1024), got.Config.Upload.MaxBytes)
	require.Equal(t, app.LogConfig{Level: "debug", Format: "json"}, got.Config.Log)
	require.Equal(t, "127.0.0.1:2284", got.Config.Immich.Listen)
	require.NotNil(t, got.ErrOut)
}

func TestServeRefusesBadCommandLines(t *testing.T) {
	cmdtest.Isolate(t)
	requireRefusals(t, NewCmdServe, map[string][]string{
		"an argument":      {"extra"},
		"a bad log format": {"--log-format", "xml"},
	})
}

func TestWorkerParsesItsOptions(t *testing.T) {
	cmdtest.Isolate(t)
	dir := t.TempDir()
	got := parse(t, NewCmdWorker, "--data-dir", dir, "--concurrency", "4", "--log-format", "json")
	require.Equal(t, dir, got.Config.DataDir)
	require.Equal(t, 4, got.Config.Workers.Concurrency)
	require.Equal(t, "json", got.Config.Log.Format)
	require.NotNil(t, got.ErrOut)
	require.NotNil(t, got.Run)
}

func TestWorkerRefusesBadCommandLines(t *testing.T) {
	cmdtest.Isolate(t)
	requireRefusals(t, NewCmdWorker, map[string][]string{
		"an argument":           {"extra"},
		"too many tasks":        {"--concurrency", "100000"},
		"a negative task count": {"--concurrency", "-1"},
	})
}

func TestConfigShowParsesItsOptions(t *testing.T) {
	cmdtest.Isolate(t)
	got := parse(t, NewCmdConfigShow, "--listen", "0.0.0.0:7", "--json")
	require.Equal(t, "0.0.0.0:7", got.Config.Listen)
	require.True(t, got.JSON)
	require.NotNil(t, got.Out)

	got = parse(t, NewCmdConfigShow)
	require.False(t, got.JSON)
	require.Equal(t, app.Defaults(got.Config.DataDir).Listen, got.Config.Listen)
}

func TestConfigShowRefusesBadCommandLines(t *testing.T) {
	cmdtest.Isolate(t)
	requireRefusals(t, NewCmdConfigShow, map[string][]string{
		"an argument":      {"extra"},
		"a bad log format": {"--log-format", "xml"},
	})
}
