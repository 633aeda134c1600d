package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store"
)

// Storage and BlobJournal have no group in the conformance suite yet; these
// tests state their contracts (store/assets.go) and the SQLite store's
// behaviour, on PostgreSQL.

func TestStorageAccountsBytesPerUser(t *testing.T) {
	s := openStore(t)
	us := makeUsers(t, s, 2)
	used := func(id string) int64 {
		n, err := s.Read().Storage().Used(t.Context(), id)
		require.NoError(t, err)
		return n
	}
	require.Zero(t, used(us[0].ID), "a user who never stored anything uses nothing")
	add := func(id string, delta int64) {
		require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error { return r.Storage().Add(t.Context(), id, delta) }))
	}
	add(us[0].ID, 100)
	add(us[0].ID, 50)
	add(us[1].ID, 7)
	require.EqualValues(t, 150, used(us[0].ID))
	require.EqualValues(t, 7, used(us[1].ID))
	add(us[0].ID, -120)
	require.EqualValues(t, 30, used(us[0].ID))
	add(us[0].ID, -1000)
	require.Zero(t, used(us[0].ID), "freeing more than is used stops at zero")
	add(us[1].ID, -1)
	add(us[1].ID, -10)
	require.Zero(t, used(us[1].ID))
}

func TestStorageOfAFirstNegativeDeltaIsZero(t *testing.T) {
	s := openStore(t)
	u := makeUsers(t, s, 1)[0]
	require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error { return r.Storage().Add(t.Context(), u.ID, -5) }))
	n, err := s.Read().Storage().Used(t.Context(), u.ID)
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestBlobJournalListsOldestFirstOnceEach(t *testing.T) {
	s := openStore(t)
	j := func(fn func(j store.BlobJournal) error) {
		require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error { return fn(r.BlobJournal()) }))
	}
	j(func(b store.BlobJournal) error { return b.Add(t.Context(), []string{"b/2", "b/1", "b/1"}, base) })
	j(func(b store.BlobJournal) error { return b.Add(t.Context(), []string{"a/9"}, base.Add(time.Minute)) })
	// A key journaled again keeps its first time.
	j(func(b store.BlobJournal) error { return b.Add(t.Context(), []string{"b/2"}, base.Add(time.Hour)) })
	j(func(b store.BlobJournal) error { return b.Add(t.Context(), nil, base) })

	keys, err := s.Read().BlobJournal().List(t.Context(), 10)
	require.NoError(t, err)
	require.Equal(t, []string{"b/1", "b/2", "a/9"}, keys)
	keys, err = s.Read().BlobJournal().List(t.Context(), 2)
	require.NoError(t, err)
	require.Equal(t, []string{"b/1", "b/2"}, keys)

	j(func(b store.BlobJournal) error { return b.Remove(t.Context(), []string{"b/1", "a/9", "never"}) })
	j(func(b store.BlobJournal) error { return b.Remove(t.Context(), nil) })
	keys, err = s.Read().BlobJournal().List(t.Context(), 10)
	require.NoError(t, err)
	require.Equal(t, []string{"b/2"}, keys)
}

func TestBlobJournalListsNothingWhenEmpty(t *testing.T) {
	s := openStore(t)
	keys, err := s.Read().BlobJournal().List(t.Context(), 10)
	require.NoError(t, err)
	require.Empty(t, keys)
}
