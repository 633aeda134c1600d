//go:build !client

package servercmd

import (
	"testing"

	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/stretchr/testify/require"

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
