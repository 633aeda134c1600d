package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

var base = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// TestOpenMigratesOnceWhenProcessesStartTogether opens one new database
// from several pools at once (serve beside workers): every Open succeeds
// and each migration is recorded once.
func TestOpenMigratesOnceWhenProcessesStartTogether(t *testing.T) {
	url := pgtest.EmptyURL(t)
	const n = 4
	dbs := make([]*postgres.DB, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { dbs[i], errs[i] = postgres.Open(t.Context(), url) })
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		t.Cleanup(func() { dbs[i].Close() })
	}
	var versions, distinct int
	require.NoError(t, dbs[0].Pool().QueryRow(t.Context(),
		"SELECT count(*), count(DISTINCT version) FROM schema_migrations").Scan(&versions, &distinct))
	require.Positive(t, versions)
	require.Equal(t, distinct, versions)
}

// TestConcurrentAppendsKeepEventIDsInCommitOrder appends events from
// concurrent goroutines: every transaction commits (InTx runs writers one
// at a time), and the feed's ids increase in commit order.
func TestConcurrentAppendsKeepEventIDsInCommitOrder(t *testing.T) {
	s := openStore(t)
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	started := barrier(writers)
	for w := range writers {
		wg.Go(func() {
			started()
			for i := range each {
				errs <- s.InTx(t.Context(), func(r store.Repos) error {
					// All at one instant: ids after the first must come
					// from the previous event's id, not the clock.
					return r.Events().Append(t.Context(), &catalog.Event{Type: "asset.created",
						LibraryID: "lib_1", ResourceID: fmt.Sprintf("w%d-%d", w, i), CreatedAt: base})
				})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	got, more, err := s.Read().Events().List(t.Context(), "lib_1", query.Page{Limit: 100})
	require.NoError(t, err)
	require.False(t, more)
	require.Len(t, got, writers*each)
	for i := 1; i < len(got); i++ {
		require.Less(t, got[i-1].ID, got[i].ID, "event %d", i)
	}
}

// TestConflictLeavesTransactionUsable: a unique conflict is returned as
// ErrConflict and the transaction carries on, as on SQLite (a PostgreSQL
// error would abort the whole transaction).
func TestConflictLeavesTransactionUsable(t *testing.T) {
	s := openStore(t)
	alice := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, base), Email: "alice@example.com",
		IsActive: true, CreatedAt: base, UpdatedAt: base}
	bob := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, base.Add(time.Minute)), Email: "bob@example.com",
		IsActive: true, CreatedAt: base, UpdatedAt: base}
	require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error {
		require.NoError(t, r.Users().Create(t.Context(), alice))
		again := *alice
		again.ID = catalog.NewID(catalog.PrefixUser, base.Add(2*time.Minute))
		require.ErrorIs(t, r.Users().Create(t.Context(), &again), catalog.ErrConflict)
		_, err := r.Settings().PutIfAbsent(t.Context(), "k", []byte("v"))
		require.NoError(t, err)
		return r.Users().Create(t.Context(), bob)
	}))
	for _, id := range []string{alice.ID, bob.ID} {
		_, err := s.Read().Users().Get(t.Context(), id)
		require.NoError(t, err)
	}
}

// TestInTxGivesUpWhenContextEnds: a cancelled context ends InTx with an
// error and writes nothing.
func TestInTxGivesUpWhenContextEnds(t *testing.T) {
	s := openStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := s.InTx(ctx, func(r store.Repos) error {
		_, err := r.Settings().PutIfAbsent(ctx, "k", []byte("v"))
		return err
	})
	require.Error(t, err)
	_, err = s.Read().Settings().Get(t.Context(), "k")
	require.ErrorIs(t, err, catalog.ErrNotFound)
}
