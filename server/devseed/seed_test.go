package devseed_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/devseed"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/store"
)

// newLibrary opens a fresh store with one user owning one library.
func newLibrary(t testing.TB) (store.Store, *catalog.Library) {
	t.Helper()
	ctx := context.Background()
	db := servertest.NewStore(t) // SQLite, or PostgreSQL with PHOTOCTL_TEST_STORE=postgres
	now := time.Now()
	u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, now), Email: "dev@example.com", IsActive: true,
		CreatedAt: now, UpdatedAt: now}
	l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, now), Name: "My Library", OwnerID: u.ID,
		CreatedAt: now, UpdatedAt: now}
	require.NoError(t, db.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, u); err != nil {
			return err
		}
		return r.Libraries().Create(ctx, l)
	}))
	return db, l
}

// everyAsset reads the whole library, trashed assets included.
func everyAsset(t *testing.T, db store.Store, libraryID string) []catalog.Asset {
	t.Helper()
	var all []catalog.Asset
	p := query.Page{Limit: 1000}
	for {
		page, more, err := db.Read().Assets().List(context.Background(),
			query.AssetFilter{LibraryID: libraryID, State: query.StateAll}, p)
		require.NoError(t, err)
		all = append(all, page...)
		if !more {
			return all
		}
		p.AfterID = page[len(page)-1].ID
	}
}

func TestDevSeedWritesARealisticLibrary(t *testing.T) {
	ctx := context.Background()
	db, lib := newLibrary(t)
	end := time.Date(2025, 6, 30, 0, 0, 0, 0, time.UTC)
	var progress []int
	res, err := devseed.Seed(ctx, db, devseed.Options{LibraryID: lib.ID, Assets: 6000, Batch: 2500, Seed: 7,
		End: end, Progress: func(done int) { progress = append(progress, done) }})
	require.NoError(t, err)
	require.Equal(t, 6000, res.Assets)
	require.Equal(t, []int{2500, 5000, 6000}, progress)

	all := everyAsset(t, db, lib.ID)
	require.Len(t, all, 6000)
	ids := make(map[string]bool)
	offsets := make(map[int]int)
	var located, videos, rated, trashed, unknownOffset int
	var size int64
	for _, a := range all {
		require.False(t, ids[a.ID], "duplicate id %s", a.ID)
		ids[a.ID] = true
		require.Len(t, a.Checksum, 32)
		require.Equal(t, lib.OwnerID, a.ContributorID)
		require.False(t, a.Capture.Wall.After(end.Add(24*time.Hour)), a.Capture.String())
		require.True(t, a.Capture.Wall.After(end.AddDate(-10, 0, -8)), a.Capture.String())
		size += a.OriginalSize
		if a.Capture.Offset == nil {
			unknownOffset++
		} else {
			offsets[*a.Capture.Offset]++
		}
		m := a.Merged()
		if m.Latitude != nil {
			located++
			require.InDelta(t, 0, *m.Latitude, 90)
			require.InDelta(t, 0, *m.Longitude, 180)
		}
		if a.MediaType == catalog.MediaVideo {
			videos++
		}
		if m.Rating != nil {
			rated++
		}
		if a.TrashedAt != nil {
			trashed++
		}
	}
	share := func(n int) float64 { return float64(n) / float64(len(all)) }
	require.InDelta(t, 0.70, share(located), 0.08, "with coordinates")
	require.InDelta(t, 0.05, share(videos), 0.02, "videos")
	require.InDelta(t, 0.10, share(rated), 0.03, "rated")
	require.InDelta(t, 0.02, share(trashed), 0.01, "trashed")
	require.InDelta(t, 0.25, share(unknownOffset), 0.15, "unknown offsets (chosen per trip, so they vary more)")
	require.GreaterOrEqual(t, len(offsets), 8, "known offsets %v", offsets)

	used, err := db.Read().Storage().Used(ctx, lib.OwnerID)
	require.NoError(t, err)
	require.Equal(t, size, used, "seeded sizes are charged to the owner")
}

func TestDevSeedTwiceIntoOneLibraryAddsToIt(t *testing.T) {
	ctx := context.Background()
	db, lib := newLibrary(t)
	for range 2 {
		_, err := devseed.Seed(ctx, db, devseed.Options{LibraryID: lib.ID, Assets: 300})
		require.NoError(t, err)
	}
	require.Len(t, everyAsset(t, db, lib.ID), 600)
}

func TestDevSeedIntoAMissingLibraryIsNotFound(t *testing.T) {
	db, _ := newLibrary(t)
	_, err := devseed.Seed(context.Background(), db, devseed.Options{LibraryID: "lib_missing", Assets: 1})
	require.ErrorIs(t, err, catalog.ErrNotFound)
}

func TestDevFirstOwnedLibraryIsTheOldest(t *testing.T) {
	ctx := context.Background()
	db, lib := newLibrary(t)
	later := time.Now().Add(time.Hour)
	require.NoError(t, db.InTx(ctx, func(r store.Repos) error {
		return r.Libraries().Create(ctx, &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, later),
			Name: "Second", OwnerID: lib.OwnerID, CreatedAt: later, UpdatedAt: later})
	}))
	got, err := devseed.FirstOwnedLibrary(ctx, db, lib.OwnerID)
	require.NoError(t, err)
	require.Equal(t, lib.ID, got.ID)
}
