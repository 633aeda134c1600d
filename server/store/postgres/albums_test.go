package postgres_test

import (
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// TestConcurrentAlbumWritesKeepItsCountExact: asset_count is maintained by
// triggers on album_assets and assets, so every link, unlink, trash and
// restore of concurrent writers updates the album's row. SERIALIZABLE
// and InTx's retries must leave the count equal to the live links, with no
// update lost.
func TestConcurrentAlbumWritesKeepItsCountExact(t *testing.T) {
	s := openStore(t)
	ctx := t.Context()
	u := makeUsers(t, s, 1)[0]
	lib := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, base), Name: "Family", OwnerID: u.ID,
		CreatedAt: base, UpdatedAt: base}
	album := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, base), LibraryID: lib.ID, Name: "A",
		CreatedAt: base, UpdatedAt: base}
	const writers, each = 6, 5
	assets := make([]*catalog.Asset, writers*each)
	require.NoError(t, s.InTx(ctx, func(r store.Repos) error {
		if err := r.Libraries().Create(ctx, lib); err != nil {
			return err
		}
		if err := r.Albums().Create(ctx, album); err != nil {
			return err
		}
		for i := range assets {
			at := base.Add(time.Duration(i) * time.Minute)
			sum := sha256.Sum256(fmt.Append(nil, i))
			assets[i] = &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, at), LibraryID: lib.ID,
				ContributorID: u.ID, MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: "a.jpg",
				FileCreatedAt: at, FileModifiedAt: at, Capture: catalog.CaptureTime{Wall: at}, Checksum: sum[:],
				OriginalSize: 1, FileSizeBytes: 1, CreatedAt: at, UpdatedAt: at}
			if err := r.Assets().Create(ctx, assets[i]); err != nil {
				return err
			}
		}
		return nil
	}))

	// Each writer links its assets one transaction at a time, then trashes
	// its first, unlinks its second, and trashes and restores its third.
	start := barrier(writers)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := assets[w*each : (w+1)*each]
			start()
			var links []string
			for i, a := range mine {
				at := base.Add(time.Duration(w*each+i) * time.Second)
				l := &catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, at), AlbumID: album.ID,
					AssetID: a.ID, LibraryID: lib.ID, CreatedAt: at, UpdatedAt: at}
				if err := s.InTx(ctx, func(r store.Repos) error { return r.Albums().AddLink(ctx, l) }); err != nil {
					errs <- err
					return
				}
				links = append(links, l.ID)
			}
			trashed := base.Add(time.Hour)
			steps := []func(r store.Repos) error{
				func(r store.Repos) error { return r.Assets().SetTrashed(ctx, []string{mine[0].ID}, &trashed, trashed) },
				func(r store.Repos) error { return r.Albums().RemoveLinks(ctx, links[1:2]) },
				func(r store.Repos) error { return r.Assets().SetTrashed(ctx, []string{mine[2].ID}, &trashed, trashed) },
				func(r store.Repos) error { return r.Assets().SetTrashed(ctx, []string{mine[2].ID}, nil, trashed) },
			}
			for _, step := range steps {
				if err := s.InTx(ctx, step); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	got, err := s.Read().Albums().Get(ctx, album.ID)
	require.NoError(t, err)
	require.Equal(t, writers*(each-2), got.AssetCount, "each writer leaves all but a trashed and an unlinked asset")
	links, err := s.Read().Albums().AlbumLinks(ctx, album.ID)
	require.NoError(t, err)
	require.Len(t, links, writers*(each-1))
}
