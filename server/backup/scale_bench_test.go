package backup_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3" // the seeded rows get checksums of real files
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/backup"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/servertest/scale"
)

// BenchmarkBackupScale backs up a library of BACKUP_ASSETS (default 2,000)
// seeded assets, each with a small original whose SHA-256 its row records,
// a sidecar and two variants (four files an asset), then backs it up again
// (nothing to copy) and restores it. It reports each phase's time and the
// most heap it held (sampled), which must not grow with the library.
func BenchmarkBackupScale(b *testing.B) {
	servertest.SkipOnPostgres(b, "admin backup snapshots the SQLite file")
	n := scale.Size(b, "BACKUP_ASSETS", 2000)
	ctx := context.Background()
	dataDir := b.TempDir()
	seedFiles(b, dataDir, n)
	for b.Loop() {
		dir := filepath.Join(b.TempDir(), "backup")
		for _, phase := range []struct {
			name string
			run  func() error
		}{
			{"first", func() error { _, err := backup.Backup(ctx, dataDir, dir, time.Now()); return err }},
			{"again", func() error { _, err := backup.Backup(ctx, dataDir, dir, time.Now()); return err }},
			{"restore", func() error {
				_, err := backup.Restore(ctx, dir, filepath.Join(b.TempDir(), "restored"))
				return err
			}},
		} {
			stop := scale.SampleHeap()
			start := time.Now()
			require.NoError(b, phase.run(), phase.name)
			b.ReportMetric(time.Since(start).Seconds(), phase.name+"-s")
			b.ReportMetric(float64(stop())/(1<<20), phase.name+"-peak-heap-MiB")
		}
	}
}

// seedFiles seeds n assets into a new library in dataDir and gives each
// an original (its id's bytes, the row's checksum and size set to match),
// a sidecar and two variants.
func seedFiles(b *testing.B, dataDir string, n int) {
	ctx := context.Background()
	s := servertest.Start(b, func(c *app.Config) { c.DataDir = dataDir })
	_, tok := s.Session()
	st, err := app.OpenStore(ctx, s.Config)
	require.NoError(b, err)
	_, err = devseed.Seed(ctx, st, devseed.Options{LibraryID: s.Libraries(tok)[0].ID, Assets: n, Seed: 1})
	require.NoError(b, errors.Join(err, st.Close()))

	db, err := sql.Open("sqlite3", filepath.Join(dataDir, "photoctl.db")+"?_busy_timeout=10000")
	require.NoError(b, err)
	defer db.Close()
	var ids []string
	rows, err := db.Query(`SELECT id FROM assets`)
	require.NoError(b, err)
	for rows.Next() {
		var id string
		require.NoError(b, rows.Scan(&id))
		ids = append(ids, id)
	}
	require.NoError(b, rows.Err())
	tx, err := db.Begin()
	require.NoError(b, err)
	for _, id := range ids {
		sum := sha256.Sum256([]byte(id))
		_, err := tx.Exec(`UPDATE assets SET checksum = ?, original_size = ? WHERE id = ?`, sum[:], len(id), id)
		require.NoError(b, err)
		scale.AssetFiles(b, dataDir, id, []byte(id))
	}
	require.NoError(b, tx.Commit())
}
