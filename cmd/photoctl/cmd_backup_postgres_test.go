package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBackupAndRestoreRefuseAPostgresDatabase: the SQLite snapshot tools
// say they are SQLite-only instead of copying a data directory without its
// database.
func TestBackupAndRestoreRefuseAPostgresDatabase(t *testing.T) {
	for _, cmd := range []string{"backup", "restore"} {
		t.Run(cmd, func(t *testing.T) {
			isolate(t)
			t.Setenv("PHOTOCTL_DATABASE_URL", "postgres://photoctl:hunter2@127.0.0.1:1/photos")
			r := runCLI(t, nil, "", "admin", cmd, "--data-dir", t.TempDir(), t.TempDir())
			require.NotEqual(t, 0, r.code, r.stderr)
			require.Contains(t, r.stderr, "admin "+cmd+" is not supported on PostgreSQL")
			require.Contains(t, r.stderr, "pg_dump")
			require.NotContains(t, r.stderr, "hunter2")
		})
	}
}
