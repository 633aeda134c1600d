package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// concurrentAlbumCases race writers on one album: asset_count is kept by
// triggers on album_assets and assets, so every link, unlink, trash and
// restore of concurrent writers updates the album's row. The store's
// isolation (SQLite's one writer; PostgreSQL's SERIALIZABLE with InTx's
// retries) must leave the count equal to the live links, no update lost.
var concurrentAlbumCases = []testCase{
	{"concurrent links, unlinks, trashes and restores keep an album's count exact", func(t *testing.T, s store.Store) {
		w := newAssetWorld(t, s)
		album := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, at(0)), LibraryID: w.lib.ID, Name: "A",
			CreatedAt: at(0), UpdatedAt: at(0)}
		write(t, s, func(r store.Repos) error { return r.Albums().Create(ctx(t), album) })
		const writers, each = 6, 5
		assets := make([]*catalog.Asset, writers*each)
		for i := range assets {
			assets[i] = w.put(t, s, w.lib, at(i))
		}
		// Each writer links its assets one transaction at a time, then
		// trashes its first, unlinks its second, and trashes and restores
		// its third.
		var ready, done sync.WaitGroup
		ready.Add(writers)
		errs := make(chan error, writers)
		for n := range writers {
			done.Add(1)
			go func() {
				defer done.Done()
				ready.Done()
				ready.Wait()
				errs <- albumWriter(t, s, album.ID, assets[n*each:(n+1)*each], n*each)
			}()
		}
		done.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		got, err := s.Read().Albums().Get(ctx(t), album.ID)
		require.NoError(t, err)
		require.Equal(t, writers*(each-2), got.AssetCount, "each writer leaves all but a trashed and an unlinked asset")
		links, err := s.Read().Albums().AlbumLinks(ctx(t), album.ID)
		require.NoError(t, err)
		require.Len(t, links, writers*(each-1))
	}},
}

// albumWriter is one writer of concurrentAlbumCases over its assets, the
// first numbered first.
func albumWriter(t *testing.T, s store.Store, albumID string, mine []*catalog.Asset, first int) error {
	var links []string
	for i, a := range mine {
		when := at(first + i)
		l := &catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, when), AlbumID: albumID,
			AssetID: a.ID, LibraryID: a.LibraryID, CreatedAt: when, UpdatedAt: when}
		if err := s.InTx(ctx(t), func(r store.Repos) error { return r.Albums().AddLink(ctx(t), l) }); err != nil {
			return err
		}
		links = append(links, l.ID)
	}
	trashed := at(0).Add(time.Hour)
	for _, step := range []func(r store.Repos) error{
		func(r store.Repos) error {
			return r.Assets().SetTrashed(ctx(t), []string{mine[0].ID}, &trashed, trashed)
		},
		func(r store.Repos) error { return r.Albums().RemoveLinks(ctx(t), links[1:2]) },
		func(r store.Repos) error {
			return r.Assets().SetTrashed(ctx(t), []string{mine[2].ID}, &trashed, trashed)
		},
		func(r store.Repos) error { return r.Assets().SetTrashed(ctx(t), []string{mine[2].ID}, nil, trashed) },
	} {
		if err := s.InTx(ctx(t), step); err != nil {
			return err
		}
	}
	return nil
}
