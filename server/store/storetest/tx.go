package storetest

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// requireNoUser requires that no user with id exists, as Read() sees it.
func requireNoUser(t *testing.T, s store.Store, id string) {
	t.Helper()
	_, err := s.Read().Users().Get(ctx(t), id)
	requireKind(t, err, catalog.ErrNotFound)
}

var txCases = []testCase{
	{"reads see committed writes", func(t *testing.T, s store.Store) {
		u := newUser("alice@example.com", 0)
		write(t, s, func(r store.Repos) error { return r.Users().Create(ctx(t), u) })
		got, err := s.Read().Users().Get(ctx(t), u.ID)
		require.NoError(t, err)
		require.Equal(t, u, got)
	}},
	{"a transaction sees its own writes before it commits", func(t *testing.T, s store.Store) {
		u := newUser("alice@example.com", 0)
		write(t, s, func(r store.Repos) error {
			require.NoError(t, r.Users().Create(ctx(t), u))
			got, err := r.Users().GetByEmail(ctx(t), "ALICE@example.com")
			require.NoError(t, err)
			require.Equal(t, u.ID, got.ID)
			return nil
		})
	}},
	{"reads outside a transaction do not see its uncommitted writes", func(t *testing.T, s store.Store) {
		u := newUser("alice@example.com", 0)
		write(t, s, func(r store.Repos) error {
			require.NoError(t, r.Users().Create(ctx(t), u))
			requireNoUser(t, s, u.ID)
			return nil
		})
		_, err := s.Read().Users().Get(ctx(t), u.ID)
		require.NoError(t, err)
	}},
	{"a transaction that returns an error writes nothing and returns that error", func(t *testing.T, s store.Store) {
		errStop := errors.New("stop")
		u := newUser("alice@example.com", 0)
		l := newLibrary(u.ID, "Family", 1)
		err := writeErr(t, s, func(r store.Repos) error {
			require.NoError(t, r.Users().Create(ctx(t), u))
			require.NoError(t, r.Libraries().Create(ctx(t), l))
			return errStop
		})
		require.ErrorIs(t, err, errStop)
		requireNoUser(t, s, u.ID)
		_, err = s.Read().Libraries().Get(ctx(t), l.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a failed write rolls back the transaction's earlier writes", func(t *testing.T, s store.Store) {
		makeUser(t, s, "bob@example.com")
		u := newUser("alice@example.com", 1)
		err := writeErr(t, s, func(r store.Repos) error {
			if err := r.Users().Create(ctx(t), u); err != nil {
				return err
			}
			return r.Users().Create(ctx(t), newUser("BOB@example.com", 2))
		})
		requireKind(t, err, catalog.ErrConflict)
		requireNoUser(t, s, u.ID)
	}},
	{"a transaction that panics writes nothing and re-panics", func(t *testing.T, s store.Store) {
		u := newUser("alice@example.com", 0)
		require.PanicsWithValue(t, "boom", func() {
			_ = s.InTx(ctx(t), func(r store.Repos) error {
				require.NoError(t, r.Users().Create(ctx(t), u))
				panic("boom")
			})
		})
		requireNoUser(t, s, u.ID)
	}},
	{"the store keeps working after a transaction panics", func(t *testing.T, s store.Store) {
		require.Panics(t, func() {
			_ = s.InTx(ctx(t), func(r store.Repos) error { panic("boom") })
		})
		u := makeUser(t, s, "alice@example.com")
		_, err := s.Read().Users().Get(ctx(t), u.ID)
		require.NoError(t, err)
	}},
	{"settings written in a rolled-back transaction are absent", func(t *testing.T, s store.Store) {
		errStop := errors.New("stop")
		err := writeErr(t, s, func(r store.Repos) error {
			_, err := r.Settings().PutIfAbsent(ctx(t), "signing_key", []byte("k"))
			require.NoError(t, err)
			return errStop
		})
		require.ErrorIs(t, err, errStop)
		_, err = s.Read().Settings().Get(ctx(t), "signing_key")
		requireKind(t, err, catalog.ErrNotFound)
	}},
}
