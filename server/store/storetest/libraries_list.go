package storetest

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// listLibraries returns the ListForUser list of filter f over Read().
func listLibraries(t *testing.T, s store.Store, f query.LibraryFilter) list[catalog.Membership] {
	return func(p query.Page) ([]catalog.Membership, bool, error) {
		return s.Read().Libraries().ListForUser(ctx(t), f, p)
	}
}

func membershipID(m catalog.Membership) string { return m.Library.ID }

// newestFirst returns the ids of libs, newest first.
func newestFirst(libs ...*catalog.Library) []string {
	ids := make([]string, len(libs))
	for i, l := range libs {
		ids[len(libs)-1-i] = l.ID
	}
	return ids
}

var libraryListCases = []testCase{
	{"the list pages newest first with exact has_more for every limit", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		libs := makeLibraries(t, s, alice.ID, 5)
		makeLibrary(t, s, bob.ID, "Bob's", 20)
		checkPaging(t, newestFirst(libs...), membershipID, listLibraries(t, s, query.LibraryFilter{UserID: alice.ID}))
	}},
	{"each listed library carries its fields and the user's role", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		l := makeLibrary(t, s, u.ID, "Family", 0)
		items, more := firstPage(t, 10, listLibraries(t, s, query.LibraryFilter{UserID: u.ID}))
		require.False(t, more)
		require.Equal(t, []catalog.Membership{{Library: *l, Role: catalog.RoleOwner}}, items)
	}},
	{"the list leaves trashed libraries out unless asked", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		libs := makeLibraries(t, s, u.ID, 4)
		trash(t, s, libs[1], 10)
		trash(t, s, libs[3], 11)
		live := listLibraries(t, s, query.LibraryFilter{UserID: u.ID})
		checkPaging(t, newestFirst(libs[0], libs[2]), membershipID, live)
		all := listLibraries(t, s, query.LibraryFilter{UserID: u.ID, IncludeTrashed: true})
		checkPaging(t, newestFirst(libs...), membershipID, all)
	}},
	{"a user without libraries gets an empty last page", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		makeLibraries(t, s, alice.ID, 2)
		items, more := firstPage(t, 10, listLibraries(t, s, query.LibraryFilter{UserID: bob.ID}))
		require.Empty(t, items)
		require.False(t, more)
	}},
	{"a library created between pages neither repeats nor skips a row", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		libs := makeLibraries(t, s, u.ID, 4)
		l := listLibraries(t, s, query.LibraryFilter{UserID: u.ID})
		items, more := firstPage(t, 2, l)
		require.True(t, more)
		makeLibrary(t, s, u.ID, "newer", 30)
		rest, more, err := l(query.Page{Limit: 10, AfterID: items[1].Library.ID})
		require.NoError(t, err)
		require.False(t, more)
		got := slices.Concat(items, rest)
		require.Equal(t, newestFirst(libs...), idsOf(got, membershipID))
	}},
	{"a cursor naming another user's library is a validation error", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		makeLibraries(t, s, alice.ID, 2)
		theirs := makeLibrary(t, s, bob.ID, "Bob's", 5)
		_, _, err := s.Read().Libraries().ListForUser(ctx(t), query.LibraryFilter{UserID: alice.ID},
			query.Page{Limit: 10, AfterID: theirs.ID})
		requireInvalidCursor(t, err)
	}},
	{"a cursor naming an unknown library is a validation error", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		makeLibraries(t, s, u.ID, 2)
		_, _, err := s.Read().Libraries().ListForUser(ctx(t), query.LibraryFilter{UserID: u.ID},
			query.Page{Limit: 10, AfterID: catalog.NewID(catalog.PrefixLibrary, at(1))})
		requireInvalidCursor(t, err)
	}},
}
