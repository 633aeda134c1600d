package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// userAdminCases cover what user administration needs of Users and
// Sessions: the account list, the superuser count, deletion and revoking
// a user's sessions.
var userAdminCases = []testCase{
	{"the account list runs newest first, pages and filters by e-mail substring", func(t *testing.T, s store.Store) {
		var ids []string
		for i, email := range []string{"ann@example.com", "bob@example.org", "Ann.B@Example.com"} {
			u := newUser(email, i)
			write(t, s, func(r store.Repos) error { return r.Users().Create(ctx(t), u) })
			ids = append(ids, u.ID)
		}
		list, more, err := s.Read().Users().List(ctx(t), "", query.Page{Limit: 2})
		require.NoError(t, err)
		require.True(t, more)
		require.Equal(t, []string{ids[2], ids[1]}, userIDs(list))
		list, more, err = s.Read().Users().List(ctx(t), "", query.Page{Limit: 2, AfterID: ids[1]})
		require.NoError(t, err)
		require.False(t, more)
		require.Equal(t, []string{ids[0]}, userIDs(list))
		list, _, err = s.Read().Users().List(ctx(t), "ANN", query.Page{Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []string{ids[2], ids[0]}, userIDs(list))
		list, _, err = s.Read().Users().List(ctx(t), "@example.org", query.Page{Limit: 10})
		require.NoError(t, err)
		require.Equal(t, []string{ids[1]}, userIDs(list))
	}},
	{"only active superusers are counted", func(t *testing.T, s store.Store) {
		for i, kind := range []struct{ super, active bool }{{true, true}, {true, false}, {false, true}, {true, true}} {
			u := newUser(string(rune('a'+i))+"@example.com", i)
			u.IsSuperuser, u.IsActive = kind.super, kind.active
			write(t, s, func(r store.Repos) error { return r.Users().Create(ctx(t), u) })
		}
		write(t, s, func(r store.Repos) error {
			n, err := r.Users().CountActiveSuperusers(ctx(t))
			require.Equal(t, 2, n)
			return err
		})
	}},
	{"deleting a user takes their libraries and hands their uploads elsewhere to the owners", func(t *testing.T, s store.Store) {
		alice, bob := makeUser(t, s, "alice@example.com"), newUser("bob@example.com", 1)
		write(t, s, func(r store.Repos) error { return r.Users().Create(ctx(t), bob) })
		aliceLib, bobLib := makeLibrary(t, s, alice.ID, "Alice's", 0), makeLibrary(t, s, bob.ID, "Bob's", 1)
		write(t, s, func(r store.Repos) error {
			return r.Libraries().AddMember(ctx(t), aliceLib.ID, &catalog.Member{User: bob.Summary(),
				Role: catalog.RoleCollaborator, JoinedAt: at(2), UpdatedAt: at(2)})
		})
		contributed := makeAsset(t, s, aliceLib.ID, bob.ID, 3)
		owned := makeAsset(t, s, bobLib.ID, bob.ID, 4)

		err := writeErr(t, s, func(r store.Repos) error { return r.Users().Delete(ctx(t), bob.ID) })
		requireKind(t, err, catalog.ErrConflict) // bob's library still holds an asset
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{owned}) })
		write(t, s, func(r store.Repos) error { return r.Users().Delete(ctx(t), bob.ID) })

		_, err = s.Read().Users().Get(ctx(t), bob.ID)
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().Libraries().Get(ctx(t), bobLib.ID)
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().Libraries().Member(ctx(t), aliceLib.ID, bob.ID)
		requireKind(t, err, catalog.ErrNotFound)
		a, err := s.Read().Assets().Get(ctx(t), contributed)
		require.NoError(t, err)
		require.Equal(t, alice.ID, a.ContributorID)
		err = writeErr(t, s, func(r store.Repos) error { return r.Users().Delete(ctx(t), bob.ID) })
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"revoking a user's sessions keeps the one asked for", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		keep, end := newSession(u.ID), newSession(u.ID)
		end.ID = catalog.NewID(catalog.PrefixSession, at(1))
		rtKeep, rtEnd := newRefreshToken(keep, 0), newRefreshToken(end, 1)
		write(t, s, func(r store.Repos) error {
			for _, se := range []*catalog.Session{keep, end} {
				if err := r.Sessions().Create(ctx(t), se); err != nil {
					return err
				}
			}
			if err := r.Sessions().AddRefreshToken(ctx(t), rtKeep); err != nil {
				return err
			}
			return r.Sessions().AddRefreshToken(ctx(t), rtEnd)
		})
		write(t, s, func(r store.Repos) error { return r.Sessions().RevokeUser(ctx(t), u.ID, keep.ID, at(5)) })
		got, err := s.Read().Sessions().Get(ctx(t), keep.ID)
		require.NoError(t, err)
		require.Nil(t, got.RevokedAt)
		got, err = s.Read().Sessions().Get(ctx(t), end.ID)
		require.NoError(t, err)
		require.True(t, got.RevokedAt.Equal(at(5)))
		require.Nil(t, tokenByHash(t, s, rtKeep.Hash).RotatedAt)
		require.NotNil(t, tokenByHash(t, s, rtEnd.Hash).RotatedAt)

		write(t, s, func(r store.Repos) error { return r.Sessions().RevokeUser(ctx(t), u.ID, "", at(6)) })
		got, err = s.Read().Sessions().Get(ctx(t), keep.ID)
		require.NoError(t, err)
		require.True(t, got.RevokedAt.Equal(at(6)))
	}},
}

func userIDs(list []catalog.User) []string {
	ids := make([]string, len(list))
	for i, u := range list {
		ids[i] = u.ID
	}
	return ids
}
