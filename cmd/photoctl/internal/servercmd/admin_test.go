//go:build !client

package servercmd

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/devseed"
)

func TestCreateUserParsesItsOptions(t *testing.T) {
	cmdtest.Isolate(t)
	dir := t.TempDir()
	got := parse(t, NewCmdCreateUser, "--data-dir", dir, "--email", " ada@example.com ", "--password", "s3cret",
		"--first-name", "Ada", "--last-name", "Lovelace", "--superuser", "--json")
	require.Equal(t, dir, got.Config.DataDir)
	require.Equal(t, app.NewUser{Email: "ada@example.com", Password: "s3cret", FirstName: "Ada", LastName: "Lovelace",
		Superuser: true}, got.User)
	require.True(t, got.JSON)
	require.NotNil(t, got.Out)

	t.Setenv(AdminPasswordEnv, "env-pw")
	got = parse(t, NewCmdCreateUser, "--email", "a@example.com")
	require.Equal(t, "env-pw", got.User.Password)
	require.False(t, got.JSON)
}

func TestCreateUserRefusesBadCommandLines(t *testing.T) {
	cmdtest.Isolate(t)
	requireRefusals(t, NewCmdCreateUser, map[string][]string{
		"an argument":          {"--email", "a@example.com", "--password", "pw", "extra"},
		"no email":             {"--password", "pw"},
		"a blank email":        {"--email", " ", "--password", "pw"},
		"no password":          {"--email", "a@example.com"},
		"two password sources": {"--email", "a@example.com", "--password", "pw", "--password-stdin"},
		"a bad data dir":       {"--email", "a@example.com", "--password", "pw", "--data-dir", " "},
	})
}

func TestMigrateParsesItsOptions(t *testing.T) {
	cmdtest.Isolate(t)
	dir := t.TempDir()
	got := parse(t, NewCmdMigrate, "--data-dir", dir)
	require.Equal(t, dir, got.Config.DataDir)
	require.Empty(t, got.From)
	require.NotNil(t, got.Out)

	got = parse(t, NewCmdMigrate, "--from", "sqlite:///srv/photoctl", "--to", "postgres://db/photoctl", "--verify", "--json")
	require.Equal(t, "sqlite:///srv/photoctl", got.From)
	require.Equal(t, "postgres://db/photoctl", got.To)
	require.True(t, got.VerifyOnly)
	require.True(t, got.JSON)
	require.Equal(t, app.Config{}, got.Config, "copying loads no config")
}

func TestMigrateRefusesBadCommandLines(t *testing.T) {
	cmdtest.Isolate(t)
	requireRefusals(t, NewCmdMigrate, map[string][]string{
		"an argument":     {"extra"},
		"--from alone":    {"--from", "sqlite:///srv/photoctl"},
		"--to alone":      {"--to", "postgres://db/photoctl"},
		"an empty --from": {"--from", "", "--to", "postgres://db/photoctl"},
		"a bad data dir":  {"--data-dir", " "},
	})
}

func TestBackupAndRestoreParseTheirOptions(t *testing.T) {
	cmdtest.Isolate(t)
	for name, newCmd := range map[string]func(*Factory, func(*BackupOptions) error) *cli.Command{
		"backup": NewCmdBackup, "restore": NewCmdRestore,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			got := parse(t, newCmd, "--data-dir", dir, "--json", "-q", "/mnt/backup")
			require.Equal(t, dir, got.Config.DataDir)
			require.Equal(t, "/mnt/backup", got.Dir)
			require.True(t, got.JSON)
			require.True(t, got.Quiet)

			got = parse(t, newCmd, "/mnt/backup")
			require.False(t, got.JSON)
			require.False(t, got.Quiet)

			requireRefusals(t, newCmd, map[string][]string{
				"no DIR":        {},
				"two DIRs":      {"a", "b"},
				"an empty DIR":  {""},
				"a bad datadir": {"--data-dir", " ", "/mnt/backup"},
			})
			t.Setenv("PHOTOCTL_DATABASE_URL", "postgres://photoctl@db/photoctl")
			requireNotRun(t, newCmd, "not supported on PostgreSQL", "/mnt/backup")
		})
	}
}

func TestCopyBlobsParsesItsOptions(t *testing.T) {
	cmdtest.Isolate(t)
	dir := t.TempDir()
	got := parse(t, NewCmdCopyBlobs, "--data-dir", dir, "--parallel", "2", "--json", "--quiet")
	require.Equal(t, dir, got.Config.DataDir)
	require.Equal(t, 2, got.Parallel)
	require.True(t, got.JSON)
	require.True(t, got.Quiet)

	got = parse(t, NewCmdCopyBlobs)
	require.Equal(t, 8, got.Parallel)
	require.False(t, got.JSON)

	requireRefusals(t, NewCmdCopyBlobs, map[string][]string{"a bad data dir": {"--data-dir", " "}})
}

func TestQueueCommandsParseTheirOptions(t *testing.T) {
	cmdtest.Isolate(t)
	for name, newCmd := range map[string]func(*Factory, func(*QueueOptions) error) *cli.Command{
		"regeocode": NewCmdRegeocode, "remeasure": NewCmdRemeasure,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			got := parse(t, newCmd, "--data-dir", dir, "--json")
			require.Equal(t, dir, got.Config.DataDir)
			require.True(t, got.JSON)
			require.NotNil(t, got.Out)
			require.NotNil(t, got.Queue)

			requireRefusals(t, newCmd, map[string][]string{
				"an argument":    {"extra"},
				"a bad data dir": {"--data-dir", " "},
			})
		})
	}
}

func TestDevSeedParsesItsOptions(t *testing.T) {
	cmdtest.Isolate(t)
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
	cmdtest.Isolate(t)
	requireRefusals(t, NewCmdDevSeed, map[string][]string{
		"an argument":    {"--assets", "10", "extra"},
		"no assets":      {},
		"zero assets":    {"--assets", "0"},
		"a zero batch":   {"--assets", "10", "--batch", "0"},
		"a bad data dir": {"--assets", "10", "--data-dir", " "},
	})
}
