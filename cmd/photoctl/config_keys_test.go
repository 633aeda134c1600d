package main

import (
	"testing"

	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

// The client-only build cannot ask server/app for its keys; the list it
// uses must be the server's.
func TestServerConfigKeysMatchTheServer(t *testing.T) {
	k := koanf.New(".")
	require.NoError(t, k.Load(structs.Provider(app.Defaults(t.TempDir()), "koanf"), nil))
	require.ElementsMatch(t, k.Keys(), cmdutil.ServerConfigKeys,
		"cmdutil.ServerConfigKeys (internal/cmdutil/config_keys.go) must list app.Config's keys")
}
