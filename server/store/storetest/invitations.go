package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// newInvitation returns an unsaved invitation to l by creator, created at
// minute m, with places places, expiring a day later.
func newInvitation(l *catalog.Library, creator *catalog.User, m, places int) *catalog.Invitation {
	id := catalog.NewID(catalog.PrefixInvitation, at(m))
	return &catalog.Invitation{ID: id, LibraryID: l.ID, CreatedBy: creator.Summary(), TokenHash: []byte("hash of " + id),
		Role: catalog.RoleViewer, ExpiresAt: at(m + 24*60), MaxJoiners: places, CreatedAt: at(m), UpdatedAt: at(m)}
}

// makeInvitation saves an invitation (see newInvitation).
func makeInvitation(t *testing.T, s store.Store, l *catalog.Library, creator *catalog.User, m, places int) *catalog.Invitation {
	t.Helper()
	inv := newInvitation(l, creator, m, places)
	write(t, s, func(r store.Repos) error { return r.Invitations().Create(ctx(t), inv) })
	return inv
}

// redeem records that u redeemed inv at minute m.
func redeem(t *testing.T, s store.Store, inv *catalog.Invitation, u *catalog.User, m int) error {
	t.Helper()
	return writeErr(t, s, func(r store.Repos) error { return r.Invitations().Redeem(ctx(t), inv.ID, u.ID, at(m)) })
}

func listInvitations(t *testing.T, s store.Store, libraryID string) list[catalog.Invitation] {
	return func(p query.Page) ([]catalog.Invitation, bool, error) {
		return s.Read().Invitations().List(ctx(t), libraryID, p)
	}
}

func invitationID(i catalog.Invitation) string { return i.ID }

var invitationCases = []testCase{
	{"an invitation reads back by id and by token hash with its creator and no joiners", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		alice.FirstName, alice.LastName = "Alice", "Liddell"
		write(t, s, func(r store.Repos) error { return r.Users().Update(ctx(t), alice) })
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		inv := newInvitation(l, alice, 1, 3)
		inv.Role = catalog.RoleCollaborator
		write(t, s, func(r store.Repos) error { return r.Invitations().Create(ctx(t), inv) })
		require.Equal(t, catalog.UserSummary{ID: alice.ID, DisplayName: "Alice Liddell"}, inv.CreatedBy)

		got, err := s.Read().Invitations().Get(ctx(t), inv.ID)
		require.NoError(t, err)
		require.Equal(t, inv, got)
		got, err = s.Read().Invitations().GetByTokenHash(ctx(t), inv.TokenHash)
		require.NoError(t, err)
		require.Equal(t, inv, got)
	}},
	{"an unknown id or token hash is not found", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		makeInvitation(t, s, makeLibrary(t, s, alice.ID, "Family", 0), alice, 1, 1)
		_, err := s.Read().Invitations().Get(ctx(t), catalog.NewID(catalog.PrefixInvitation, base))
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().Invitations().GetByTokenHash(ctx(t), []byte("no such hash"))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a token hash in use conflicts and writes nothing", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		first := makeInvitation(t, s, l, alice, 1, 1)
		dup := newInvitation(l, alice, 2, 1)
		dup.TokenHash = first.TokenHash
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.Invitations().Create(ctx(t), dup) }),
			catalog.ErrConflict)
		_, err := s.Read().Invitations().Get(ctx(t), dup.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a library's invitations page newest first with exact has_more", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		other := makeLibrary(t, s, alice.ID, "Other", 0)
		var want []string
		for m := range 5 {
			want = append([]string{makeInvitation(t, s, l, alice, m, 1).ID}, want...)
			makeInvitation(t, s, other, alice, m, 1)
		}
		checkPaging(t, want, invitationID, listInvitations(t, s, l.ID))
	}},
	{"an invitation cursor from another library is a validation error", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		other := makeLibrary(t, s, alice.ID, "Other", 0)
		theirs := makeInvitation(t, s, other, alice, 1, 1)
		_, _, err := s.Read().Invitations().List(ctx(t), l.ID, query.Page{Limit: 5, AfterID: theirs.ID})
		requireInvalidCursor(t, err)
	}},
	{"disabling sets disabled_at once and a repeat changes nothing", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		inv := makeInvitation(t, s, makeLibrary(t, s, alice.ID, "Family", 0), alice, 1, 1)
		for _, m := range []int{5, 9} {
			write(t, s, func(r store.Repos) error { return r.Invitations().Disable(ctx(t), inv.ID, at(m)) })
		}
		got, err := s.Read().Invitations().Get(ctx(t), inv.ID)
		require.NoError(t, err)
		inv.DisabledAt, inv.UpdatedAt = ptr(at(5)), at(5)
		require.Equal(t, inv, got)
	}},
	{"disabling an unknown invitation is not found", func(t *testing.T, s store.Store) {
		makeUser(t, s, "alice@example.com")
		requireKind(t, writeErr(t, s, func(r store.Repos) error {
			return r.Invitations().Disable(ctx(t), catalog.NewID(catalog.PrefixInvitation, base), at(1))
		}), catalog.ErrNotFound)
	}},
	{"redemptions count each account once", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		carol := makeUser(t, s, "carol@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		inv := makeInvitation(t, s, l, alice, 1, 5)
		other := makeInvitation(t, s, l, alice, 2, 5)

		done, err := s.Read().Invitations().Redeemed(ctx(t), inv.ID, bob.ID)
		require.NoError(t, err)
		require.False(t, done)
		require.NoError(t, redeem(t, s, inv, bob, 3))
		require.NoError(t, redeem(t, s, inv, carol, 4))
		requireKind(t, redeem(t, s, inv, bob, 5), catalog.ErrConflict)
		require.NoError(t, redeem(t, s, other, bob, 6))

		done, err = s.Read().Invitations().Redeemed(ctx(t), inv.ID, bob.ID)
		require.NoError(t, err)
		require.True(t, done)
		got, err := s.Read().Invitations().Get(ctx(t), inv.ID)
		require.NoError(t, err)
		require.Equal(t, 2, got.JoinerCount)
		items, _ := firstPage(t, 10, listInvitations(t, s, l.ID))
		require.Equal(t, []int{1, 2}, []int{items[0].JoinerCount, items[1].JoinerCount})
	}},
	{"a redemption of an unknown invitation writes nothing", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		ghost := newInvitation(l, alice, 1, 1)
		require.Error(t, redeem(t, s, ghost, alice, 2))
		done, err := s.Read().Invitations().Redeemed(ctx(t), ghost.ID, alice.ID)
		require.NoError(t, err)
		require.False(t, done)
	}},
}
