package app_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// TestStartFinishesAnInterruptedDeletion simulates a crash right after a
// deletion committed (row gone, file journaled) but before the file was
// removed, and a crash between an upload's file rename and its row's
// commit: the next start removes both files.
func TestStartFinishesAnInterruptedDeletion(t *testing.T) {
	dir := t.TempDir()
	s := servertest.Start(t, func(c *app.Config) { c.DataDir = dir })
	_, session := s.Session()
	a := s.UploadAsset(session, "a.jpg", servertest.JPEG(t, 8, 8, 1), nil)
	keep := s.UploadAsset(session, "b.jpg", servertest.JPEG(t, 8, 8, 2), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, s.App().Shutdown(ctx))

	// The committed half of a deletion: row gone, key journaled, file kept.
	db, err := app.OpenStore(ctx, s.Config)
	require.NoError(t, err)
	require.NoError(t, db.InTx(ctx, func(r store.Repos) error {
		if err := r.BlobJournal().Add(ctx, []string{catalog.OriginalKey(a.ID)}, time.Now()); err != nil {
			return err
		}
		return r.Assets().Delete(ctx, []string{a.ID})
	}))
	require.NoError(t, db.Close())
	// An upload's file renamed into place whose row never committed, and a
	// process that died without a clean shutdown.
	orphan := filepath.Join(dir, "blobs", "originals", "asset_01hzzzzzzzzzzzzzzzzzzzzzzz")
	require.NoError(t, os.WriteFile(orphan, []byte("partial"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "photoctl.running"), nil, 0o600))

	servertest.Start(t, func(c *app.Config) { c.DataDir = dir })
	_, err = os.Stat(filepath.Join(dir, "blobs", catalog.OriginalKey(a.ID)))
	require.ErrorIs(t, err, os.ErrNotExist, "the journaled file is removed on start")
	_, err = os.Stat(orphan)
	require.ErrorIs(t, err, os.ErrNotExist, "the orphan is swept after an unclean stop")
	_, err = os.Stat(filepath.Join(dir, "blobs", catalog.OriginalKey(keep.ID)))
	require.NoError(t, err, "live files stay")
}
