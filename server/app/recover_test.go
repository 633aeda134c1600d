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
	orphan := servertest.BlobFile(t, dir, "originals/asset_01hzzzzzzzzzzzzzzzzzzzzzzz")
	require.NoError(t, os.MkdirAll(filepath.Dir(orphan), 0o700))
	require.NoError(t, os.WriteFile(orphan, []byte("partial"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "photoctl.running"), nil, 0o600))

	servertest.Start(t, func(c *app.Config) { c.DataDir = dir })
	require.FileExists(t, servertest.BlobFile(t, dir, catalog.OriginalKey(keep.ID)), "the test looks at the files' places")
	_, err = os.Stat(servertest.BlobFile(t, dir, catalog.OriginalKey(a.ID)))
	require.ErrorIs(t, err, os.ErrNotExist, "the journaled file is removed on start")
	_, err = os.Stat(orphan)
	require.ErrorIs(t, err, os.ErrNotExist, "the orphan is swept after an unclean stop")
	_, err = os.Stat(servertest.BlobFile(t, dir, catalog.OriginalKey(keep.ID)))
	require.NoError(t, err, "live files stay")
}

// TestStartMovesAFlatDataDirectoryIntoShards starts a server on a data
// directory as photoctl left it before the shard directories (each kind's
// directory holding an entry per asset): every file is found again.
func TestStartMovesAFlatDataDirectoryIntoShards(t *testing.T) {
	dir := t.TempDir()
	s := servertest.Start(t, func(c *app.Config) { c.DataDir = dir })
	u, session := s.Session()
	data := servertest.JPEG(t, 8, 8, 1)
	a := s.UploadAsset(session, "a.jpg", data, nil)
	thumb := servertest.JPEG(t, 4, 4, 2) // where the pipeline writes one
	variants := servertest.BlobFile(t, dir, "variants/"+a.ID)
	require.NoError(t, os.MkdirAll(variants, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(variants, "thumbnail.jpg"), thumb, 0o600))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, s.App().Shutdown(ctx))

	// The old layout: no mark, an entry per asset in each kind's directory.
	require.NoError(t, os.Remove(filepath.Join(dir, ".blob-layout")))
	for _, kind := range []string{"originals", "variants"} {
		shards, err := filepath.Glob(filepath.Join(dir, "blobs", kind, "??"))
		require.NoError(t, err)
		require.NotEmpty(t, shards)
		for _, sh := range shards {
			entries, err := os.ReadDir(sh)
			require.NoError(t, err)
			for _, e := range entries {
				require.NoError(t, os.Rename(filepath.Join(sh, e.Name()), filepath.Join(dir, "blobs", kind, e.Name())))
			}
			require.NoError(t, os.Remove(sh))
		}
	}

	s = servertest.Start(t, func(c *app.Config) { c.DataDir = dir })
	session = s.Login(u).AccessToken
	requireServes(t, s, session, a.ID, data, thumb)
	require.FileExists(t, servertest.BlobFile(t, dir, catalog.OriginalKey(a.ID)))
	require.Equal(t, []string{a.ID}, servertest.BlobNames(t, dir, "originals"))
}
