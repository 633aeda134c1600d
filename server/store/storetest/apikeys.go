package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// getKey reads key id of user userID through Read().
func getKey(t *testing.T, s store.Store, userID, id string) *catalog.APIKey {
	t.Helper()
	k, err := s.Read().APIKeys().Get(ctx(t), userID, id)
	require.NoError(t, err)
	return k
}

// touch calls Touch in its own transaction.
func touch(t *testing.T, s store.Store, id string, when time.Time, minGap time.Duration) {
	t.Helper()
	write(t, s, func(r store.Repos) error { return r.APIKeys().Touch(ctx(t), id, when, minGap) })
}

var apiKeyCases = []testCase{
	{"a created key reads back by id and by hash", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		k := newKey(u.ID, "backup script", 1)
		k.Scope = catalog.Scope{Actions: []catalog.Action{catalog.ActionAssetRead, catalog.ActionLibraryRead},
			LibraryIDs: []string{"lib_a", "lib_b"}}
		k.UpdatedAt = at(2)
		saveKeys(t, s, k)
		require.Equal(t, k, getKey(t, s, u.ID, k.ID))
		got, owner, err := s.Read().APIKeys().GetByHash(ctx(t), k.SecretHash)
		require.NoError(t, err)
		require.Equal(t, k, got)
		require.Equal(t, u, owner, "the key comes with its user")
	}},
	{"a null library scope and an empty one stay distinct", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		every, none := newKey(u.ID, "every", 1), newKey(u.ID, "none", 2)
		none.Scope.LibraryIDs = []string{}
		saveKeys(t, s, every, none)
		require.Nil(t, getKey(t, s, u.ID, every.ID).Scope.LibraryIDs, "null means every library")
		got := getKey(t, s, u.ID, none.ID).Scope.LibraryIDs
		require.NotNil(t, got, "an empty list reaches no library")
		require.Empty(t, got)
	}},
	{"get is scoped to the key's user", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		k := newKey(alice.ID, "mine", 1)
		saveKeys(t, s, k)
		_, err := s.Read().APIKeys().Get(ctx(t), bob.ID, k.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"an unknown id or hash is not found", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		saveKeys(t, s, newKey(u.ID, "mine", 1))
		_, err := s.Read().APIKeys().Get(ctx(t), u.ID, catalog.NewID(catalog.PrefixAPIKey, base))
		requireKind(t, err, catalog.ErrNotFound)
		_, _, err = s.Read().APIKeys().GetByHash(ctx(t), []byte("no such hash"))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a duplicate secret hash conflicts", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		k := newKey(u.ID, "first", 1)
		saveKeys(t, s, k)
		dup := newKey(u.ID, "second", 2)
		dup.SecretHash = k.SecretHash
		err := writeErr(t, s, func(r store.Repos) error { return r.APIKeys().Create(ctx(t), dup) })
		requireKind(t, err, catalog.ErrConflict)
	}},
	{"update changes the name and the scope", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		k := newKey(u.ID, "old", 1)
		saveKeys(t, s, k)
		k.Name, k.UpdatedAt = "new", at(5)
		k.Scope = catalog.Scope{Actions: []catalog.Action{catalog.ActionSearch}, LibraryIDs: []string{"lib_c"}}
		write(t, s, func(r store.Repos) error { return r.APIKeys().Update(ctx(t), k) })
		require.Equal(t, k, getKey(t, s, u.ID, k.ID))

		k.Scope.LibraryIDs, k.UpdatedAt = nil, at(6)
		write(t, s, func(r store.Repos) error { return r.APIKeys().Update(ctx(t), k) })
		require.Equal(t, k, getKey(t, s, u.ID, k.ID))
	}},
	{"update of an unknown key is not found", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		err := writeErr(t, s, func(r store.Repos) error { return r.APIKeys().Update(ctx(t), newKey(u.ID, "x", 1)) })
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"delete removes the key only for its own user", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		k, other := newKey(alice.ID, "mine", 1), newKey(alice.ID, "kept", 2)
		saveKeys(t, s, k, other)
		del := func(userID string) error {
			return writeErr(t, s, func(r store.Repos) error { return r.APIKeys().Delete(ctx(t), userID, k.ID) })
		}
		requireKind(t, del(bob.ID), catalog.ErrNotFound)
		getKey(t, s, alice.ID, k.ID)

		require.NoError(t, del(alice.ID))
		_, err := s.Read().APIKeys().Get(ctx(t), alice.ID, k.ID)
		requireKind(t, err, catalog.ErrNotFound)
		_, _, err = s.Read().APIKeys().GetByHash(ctx(t), k.SecretHash)
		requireKind(t, err, catalog.ErrNotFound)
		requireKind(t, del(alice.ID), catalog.ErrNotFound)
		getKey(t, s, alice.ID, other.ID)
	}},
	{"touch records the first use", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		k := newKey(u.ID, "mine", 1)
		saveKeys(t, s, k)
		touch(t, s, k.ID, at(10), time.Minute)
		got := getKey(t, s, u.ID, k.ID)
		require.NotNil(t, got.LastUsedAt)
		require.Equal(t, at(10), *got.LastUsedAt)
	}},
	{"touch within the minimum gap does not write", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		k := newKey(u.ID, "mine", 1)
		saveKeys(t, s, k)
		touch(t, s, k.ID, at(10), time.Minute)
		touch(t, s, k.ID, at(10).Add(30*time.Second), time.Minute)
		touch(t, s, k.ID, at(10).Add(59*time.Second), time.Minute)
		require.Equal(t, at(10), *getKey(t, s, u.ID, k.ID).LastUsedAt)
	}},
	{"touch after the minimum gap writes", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		k := newKey(u.ID, "mine", 1)
		saveKeys(t, s, k)
		touch(t, s, k.ID, at(10), time.Minute)
		touch(t, s, k.ID, at(12), time.Minute)
		require.Equal(t, at(12), *getKey(t, s, u.ID, k.ID).LastUsedAt)
		touch(t, s, k.ID, at(12).Add(time.Second), 0)
		require.Equal(t, at(12).Add(time.Second), *getKey(t, s, u.ID, k.ID).LastUsedAt, "no gap writes every use")
	}},
}
