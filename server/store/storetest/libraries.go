package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

var libraryCases = []testCase{
	{"a created library reads back and its owner is a member with role owner", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		l := newLibrary(u.ID, "Family", 1)
		l.UpdatedAt = at(2)
		write(t, s, func(r store.Repos) error { return r.Libraries().Create(ctx(t), l) })

		got, err := s.Read().Libraries().Get(ctx(t), l.ID)
		require.NoError(t, err)
		require.Equal(t, l, got)
		m, err := s.Read().Libraries().Membership(ctx(t), l.ID, u.ID)
		require.NoError(t, err)
		require.Equal(t, &catalog.Membership{Library: *l, Role: catalog.RoleOwner}, m)
	}},
	{"an unknown library is not found", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		makeLibrary(t, s, u.ID, "Family", 0)
		_, err := s.Read().Libraries().Get(ctx(t), catalog.NewID(catalog.PrefixLibrary, base))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"the same name in another case conflicts for one owner and writes nothing", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		makeLibrary(t, s, u.ID, "Family", 0)
		dup := newLibrary(u.ID, " FAMILY ", 1)
		err := writeErr(t, s, func(r store.Repos) error { return r.Libraries().Create(ctx(t), dup) })
		requireKind(t, err, catalog.ErrConflict)
		_, err = s.Read().Libraries().Get(ctx(t), dup.ID)
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().Libraries().Membership(ctx(t), dup.ID, u.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a trashed library still holds its name", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		trash(t, s, makeLibrary(t, s, u.ID, "Family", 0), 1)
		err := writeErr(t, s, func(r store.Repos) error {
			return r.Libraries().Create(ctx(t), newLibrary(u.ID, "family", 2))
		})
		requireKind(t, err, catalog.ErrConflict)
	}},
	{"the same name is allowed for different owners", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		a := makeLibrary(t, s, alice.ID, "Family", 0)
		b := makeLibrary(t, s, bob.ID, "family", 1)
		require.NotEqual(t, a.ID, b.ID)
	}},
	{"update renames and trashes, and a trashed library is still found by id", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		l := makeLibrary(t, s, u.ID, "Family", 0)
		l.Name = "Relatives"
		trash(t, s, l, 3)
		got, err := s.Read().Libraries().Get(ctx(t), l.ID)
		require.NoError(t, err)
		require.Equal(t, l, got)
		require.Equal(t, at(3), *got.TrashedAt)
	}},
	{"renaming onto another owned name conflicts", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		makeLibrary(t, s, u.ID, "Family", 0)
		l := makeLibrary(t, s, u.ID, "Work", 1)
		l.Name = "FAMILY"
		err := writeErr(t, s, func(r store.Repos) error { return r.Libraries().Update(ctx(t), l) })
		requireKind(t, err, catalog.ErrConflict)
	}},
	{"update of an unknown library is not found", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		err := writeErr(t, s, func(r store.Repos) error {
			return r.Libraries().Update(ctx(t), newLibrary(u.ID, "Family", 0))
		})
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"membership of a non-member is not found", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		_, err := s.Read().Libraries().Membership(ctx(t), l.ID, bob.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"membership of an unknown library is not found", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		_, err := s.Read().Libraries().Membership(ctx(t), catalog.NewID(catalog.PrefixLibrary, base), u.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"membership survives trashing", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		l := makeLibrary(t, s, u.ID, "Family", 0)
		trash(t, s, l, 1)
		m, err := s.Read().Libraries().Membership(ctx(t), l.ID, u.ID)
		require.NoError(t, err)
		require.Equal(t, catalog.RoleOwner, m.Role)
		require.Equal(t, l, &m.Library)
	}},
	{"find owned by name matches the name key, trashed or not", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		live := makeLibrary(t, s, u.ID, "Family Photos", 0)
		gone := makeLibrary(t, s, u.ID, "Old", 1)
		trash(t, s, gone, 2)
		for _, want := range []*catalog.Library{live, gone} {
			got, err := s.Read().Libraries().FindOwnedByName(ctx(t), u.ID, catalog.NameKey(" "+want.Name+" "))
			require.NoError(t, err, want.Name)
			require.Equal(t, want, got)
		}
		_, err := s.Read().Libraries().FindOwnedByName(ctx(t), u.ID, "family")
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"find owned by name ignores other owners' libraries", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		makeLibrary(t, s, alice.ID, "Family", 0)
		_, err := s.Read().Libraries().FindOwnedByName(ctx(t), bob.ID, "family")
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"the live owned count leaves out trashed libraries and other owners", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		libs := makeLibraries(t, s, alice.ID, 3)
		makeLibrary(t, s, bob.ID, "Bob's", 9)
		trash(t, s, libs[1], 10)
		n, err := s.Read().Libraries().CountLiveOwned(ctx(t), alice.ID)
		require.NoError(t, err)
		require.Equal(t, 2, n)
		n, err = s.Read().Libraries().CountLiveOwned(ctx(t), catalog.NewID(catalog.PrefixUser, base))
		require.NoError(t, err)
		require.Zero(t, n)
	}},
	{"live memberships leave out trashed libraries and other users' libraries", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		libs := makeLibraries(t, s, alice.ID, 3)
		makeLibrary(t, s, bob.ID, "Bob's", 9)
		trash(t, s, libs[0], 10)
		ms, err := s.Read().Libraries().LiveMemberships(ctx(t), alice.ID)
		require.NoError(t, err)
		require.Len(t, ms, 2)
		for i, m := range ms { // in library id order: the order of creation
			require.Equal(t, *libs[i+1], m.Library)
			require.Equal(t, catalog.RoleOwner, m.Role)
		}

		carol := makeUser(t, s, "carol@example.com")
		require.Empty(t, liveIDs(t, s, carol.ID))
	}},
}

// liveIDs lists the ids of a user's live libraries (LiveMemberships).
func liveIDs(t *testing.T, s store.Store, userID string) []string {
	t.Helper()
	ms, err := s.Read().Libraries().LiveMemberships(ctx(t), userID)
	require.NoError(t, err)
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.Library.ID)
	}
	return ids
}

var libraryPositionCases = []testCase{
	{"the libraries with a positioned asset, trashed ones too, are listed in id order", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		libs := makeLibraries(t, s, u.ID, 3)
		makeAsset(t, s, libs[0].ID, u.ID, 1) // no position
		for i, l := range []*catalog.Library{libs[2], libs[1]} {
			id := makeAsset(t, s, l.ID, u.ID, 10+i)
			write(t, s, func(r store.Repos) error {
				a, err := r.Assets().Get(ctx(t), id)
				if err != nil {
					return err
				}
				a.FileMeta.Latitude, a.FileMeta.Longitude = ptr(28.39), ptr(-80.6)
				if err := r.Assets().Update(ctx(t), a); err != nil {
					return err
				}
				return r.Assets().SetTrashed(ctx(t), []string{id}, ptr(at(20)), at(20))
			})
		}
		got, err := s.Read().Libraries().WithPositions(ctx(t))
		require.NoError(t, err)
		require.Equal(t, []string{libs[1].ID, libs[2].ID}, got)
	}},
	{"no positions, no libraries", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		l := makeLibrary(t, s, u.ID, "Family", 0)
		makeAsset(t, s, l.ID, u.ID, 1)
		got, err := s.Read().Libraries().WithPositions(ctx(t))
		require.NoError(t, err)
		require.Empty(t, got)
	}},
}
