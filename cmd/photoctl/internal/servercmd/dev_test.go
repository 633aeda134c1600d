//go:build !client

package servercmd

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/devseed"
)

func TestDevSeedParsesItsOptions(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	got := parse(t, NewCmdDevSeed, "--data-dir", dir, "--assets", "1200", "--batch", "500",
		"--library-email", " bench@example.com ", "--password", "pw", "--seed", "42")
	require.Equal(t, dir, got.Config.DataDir)
	require.Equal(t, 1200, got.Assets)
	require.Equal(t, 500, got.Batch)
	require.Equal(t, "bench@example.com", got.Email)
	require.Equal(t, "pw", got.Password)
	require.Equal(t, uint64(42), got.Seed)
	require.NotNil(t, got.Out)
	require.NotNil(t, got.ErrOut)
	require.NotNil(t, got.OpenStore)

	got = parse(t, NewCmdDevSeed, "--assets", "10")
	require.Equal(t, devEmail, got.Email)
	require.Equal(t, devPassword, got.Password)
	require.Equal(t, devseed.DefaultBatch, got.Batch)
	require.Zero(t, got.Seed)
}

func TestDevSeedRefusesBadCommandLines(t *testing.T) {
	isolate(t)
	requireRefusals(t, NewCmdDevSeed, map[string][]string{
		"an argument":    {"--assets", "10", "extra"},
		"no assets":      {},
		"zero assets":    {"--assets", "0"},
		"a zero batch":   {"--assets", "10", "--batch", "0"},
		"a bad data dir": {"--assets", "10", "--data-dir", " "},
	})
}
