package storetest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// addMember makes u a member of l with role, joined at minute m.
func addMember(t *testing.T, s store.Store, l *catalog.Library, u *catalog.User, role catalog.Role, m int) *catalog.Member {
	t.Helper()
	mem := &catalog.Member{User: catalog.MemberSummary(u), Role: role, JoinedAt: at(m), UpdatedAt: at(m)}
	write(t, s, func(r store.Repos) error { return r.Libraries().AddMember(ctx(t), l.ID, mem) })
	return mem
}

// listMembers returns the Members list of library id over Read().
func listMembers(t *testing.T, s store.Store, id string) list[catalog.Member] {
	return func(p query.Page) ([]catalog.Member, bool, error) {
		return s.Read().Libraries().Members(ctx(t), id, p)
	}
}

func memberID(m catalog.Member) string { return m.User.ID }

var libraryMemberCases = []testCase{
	{"the owner is a member with role owner and no invitation", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		u.FirstName = "Alice"
		write(t, s, func(r store.Repos) error { return r.Users().Update(ctx(t), u) })
		l := makeLibrary(t, s, u.ID, "Family", 3)
		m, err := s.Read().Libraries().Member(ctx(t), l.ID, u.ID)
		require.NoError(t, err)
		require.Equal(t, &catalog.Member{User: catalog.UserSummary{ID: u.ID, DisplayName: "Alice"},
			Role: catalog.RoleOwner, JoinedAt: at(3), UpdatedAt: at(3)}, m)
	}},
	{"an added member reads back and reaches the library", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		want := addMember(t, s, l, bob, catalog.RoleViewer, 5)
		got, err := s.Read().Libraries().Member(ctx(t), l.ID, bob.ID)
		require.NoError(t, err)
		require.Equal(t, want, got)
		ms, err := s.Read().Libraries().Membership(ctx(t), l.ID, bob.ID)
		require.NoError(t, err)
		require.Equal(t, catalog.RoleViewer, ms.Role)
		live, err := s.Read().Libraries().LiveMemberships(ctx(t), bob.ID)
		require.NoError(t, err)
		require.Equal(t, []catalog.Membership{*ms}, live)
	}},
	{"the invitation that admitted a member is kept", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		inv := makeInvitation(t, s, l, alice, 3, 1)
		mem := &catalog.Member{User: catalog.MemberSummary(bob), Role: catalog.RoleCollaborator, InvitationID: &inv.ID,
			JoinedAt: at(2), UpdatedAt: at(2)}
		write(t, s, func(r store.Repos) error { return r.Libraries().AddMember(ctx(t), l.ID, mem) })
		got, err := s.Read().Libraries().Member(ctx(t), l.ID, bob.ID)
		require.NoError(t, err)
		require.Equal(t, mem, got)
	}},
	{"adding a member twice conflicts", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		addMember(t, s, l, bob, catalog.RoleViewer, 1)
		err := writeErr(t, s, func(r store.Repos) error {
			return r.Libraries().AddMember(ctx(t), l.ID, &catalog.Member{User: bob.Summary(),
				Role: catalog.RoleCollaborator, JoinedAt: at(2), UpdatedAt: at(2)})
		})
		requireKind(t, err, catalog.ErrConflict)
		m, err := s.Read().Libraries().Member(ctx(t), l.ID, bob.ID)
		require.NoError(t, err)
		require.Equal(t, catalog.RoleViewer, m.Role)
	}},
	{"members page most recently joined first with exact has_more", func(t *testing.T, s store.Store) {
		owner := makeUser(t, s, "owner@example.com")
		l := makeLibrary(t, s, owner.ID, "Family", 0)
		other := makeLibrary(t, s, owner.ID, "Other", 0)
		want := []string{}
		for i := range 4 {
			u := makeUser(t, s, fmt.Sprintf("u%d@example.com", i))
			addMember(t, s, l, u, catalog.RoleViewer, 10-i) // joined out of id order
			addMember(t, s, other, u, catalog.RoleViewer, 10)
			want = append(want, u.ID)
		}
		want = append(want, owner.ID)
		checkPaging(t, want, memberID, listMembers(t, s, l.ID))
	}},
	{"a member cursor from another library is a validation error", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		theirs := makeLibrary(t, s, bob.ID, "Bob's", 0)
		_, _, err := s.Read().Libraries().Members(ctx(t), theirs.ID, query.Page{Limit: 5, AfterID: alice.ID})
		requireInvalidCursor(t, err)
		_, _, err = s.Read().Libraries().Members(ctx(t), l.ID, query.Page{Limit: 5, AfterID: alice.ID})
		require.NoError(t, err)
	}},
	{"a role change updates the role and updated_at", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		addMember(t, s, l, bob, catalog.RoleViewer, 1)
		write(t, s, func(r store.Repos) error {
			return r.Libraries().SetMemberRole(ctx(t), l.ID, bob.ID, catalog.RoleCollaborator, at(7))
		})
		m, err := s.Read().Libraries().Member(ctx(t), l.ID, bob.ID)
		require.NoError(t, err)
		require.Equal(t, catalog.RoleCollaborator, m.Role)
		require.Equal(t, at(1), m.JoinedAt)
		require.Equal(t, at(7), m.UpdatedAt)
	}},
	{"changing or deleting a non-member is not found", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		requireKind(t, writeErr(t, s, func(r store.Repos) error {
			return r.Libraries().SetMemberRole(ctx(t), l.ID, bob.ID, catalog.RoleViewer, at(1))
		}), catalog.ErrNotFound)
		requireKind(t, writeErr(t, s, func(r store.Repos) error {
			return r.Libraries().DeleteMember(ctx(t), l.ID, bob.ID)
		}), catalog.ErrNotFound)
		_, err := s.Read().Libraries().Member(ctx(t), l.ID, bob.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a deleted member no longer reaches or lists the library", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		addMember(t, s, l, bob, catalog.RoleCollaborator, 1)
		write(t, s, func(r store.Repos) error { return r.Libraries().DeleteMember(ctx(t), l.ID, bob.ID) })
		_, err := s.Read().Libraries().Membership(ctx(t), l.ID, bob.ID)
		requireKind(t, err, catalog.ErrNotFound)
		require.Empty(t, liveIDs(t, s, bob.ID))
		items, _ := firstPage(t, 10, listLibraries(t, s, query.LibraryFilter{UserID: bob.ID, IncludeTrashed: true}))
		require.Empty(t, items)
		checkPaging(t, []string{alice.ID}, memberID, listMembers(t, s, l.ID))
	}},
	{"removals are recorded per library, the latest winning", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		l := makeLibrary(t, s, alice.ID, "Family", 0)
		other := makeLibrary(t, s, alice.ID, "Other", 0)
		got, err := s.Read().Libraries().RemovedAt(ctx(t), l.ID, bob.ID)
		require.NoError(t, err)
		require.Nil(t, got)
		for _, m := range []int{4, 9} {
			write(t, s, func(r store.Repos) error { return r.Libraries().RecordRemoval(ctx(t), l.ID, bob.ID, at(m)) })
		}
		got, err = s.Read().Libraries().RemovedAt(ctx(t), l.ID, bob.ID)
		require.NoError(t, err)
		require.Equal(t, at(9), *got)
		got, err = s.Read().Libraries().RemovedAt(ctx(t), other.ID, bob.ID)
		require.NoError(t, err)
		require.Nil(t, got)
	}},
	{"the library list keeps only trashed ones, or only the given ids, when asked", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		libs := makeLibraries(t, s, u.ID, 4)
		trash(t, s, libs[1], 10)
		trash(t, s, libs[2], 11)
		trashed := listLibraries(t, s, query.LibraryFilter{UserID: u.ID, OnlyTrashed: true})
		checkPaging(t, newestFirst(libs[1], libs[2]), membershipID, trashed)
		picked := listLibraries(t, s, query.LibraryFilter{UserID: u.ID, IncludeTrashed: true,
			IDs: []string{libs[0].ID, libs[2].ID}})
		checkPaging(t, newestFirst(libs[0], libs[2]), membershipID, picked)
		none := listLibraries(t, s, query.LibraryFilter{UserID: u.ID, IDs: []string{}})
		checkPaging(t, []string{}, membershipID, none)
	}},
}
