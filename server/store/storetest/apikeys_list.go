package storetest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// listKeys returns the API key list of filter f over Read().
func listKeys(t *testing.T, s store.Store, f query.APIKeyFilter) list[catalog.APIKey] {
	return func(p query.Page) ([]catalog.APIKey, bool, error) { return s.Read().APIKeys().List(ctx(t), f, p) }
}

func keyID(k catalog.APIKey) string { return k.ID }

// keyIDs returns the ids of keys in the given order.
func keyIDs(keys ...*catalog.APIKey) []string {
	return idsOf(keys, func(k *catalog.APIKey) string { return k.ID })
}

// sortedKeys returns the ids of keys in the order the list must serve for
// orderBy: the composite key (sort value, id), both reversed when desc. A
// key never used sorts as the oldest use.
func sortedKeys(keys []*catalog.APIKey, orderBy string, desc bool) []string {
	used := func(k *catalog.APIKey) time.Time {
		if k.LastUsedAt == nil {
			return time.Time{}
		}
		return *k.LastUsedAt
	}
	sorted := slices.Clone(keys)
	slices.SortFunc(sorted, func(a, b *catalog.APIKey) int {
		c := 0
		switch orderBy {
		case "name":
			c = strings.Compare(a.Name, b.Name)
		case "last_used_at":
			c = used(a).Compare(used(b))
		default:
			c = a.CreatedAt.Compare(b.CreatedAt)
		}
		if c == 0 {
			c = strings.Compare(a.ID, b.ID)
		}
		if desc {
			return -c
		}
		return c
	})
	return keyIDs(sorted...)
}

// orderedKeys saves keys whose sort values tie in every order (same name,
// same creation time, several never used) and whose id order differs from
// their creation order.
func orderedKeys(t *testing.T, s store.Store, userID string) []*catalog.APIKey {
	t.Helper()
	specs := []struct {
		name          string
		idAt, created int
		used          *int
	}{
		{"backup", 5, 3, nil}, {"alpha", 1, 3, ptr(20)}, {"backup", 3, 1, nil}, {"zeta", 4, 2, ptr(20)},
		{"backup", 2, 5, ptr(25)}, {"mid", 6, 4, nil}, {"alpha", 7, 1, ptr(21)},
	}
	keys := make([]*catalog.APIKey, len(specs))
	for i, sp := range specs {
		k := newKey(userID, sp.name, sp.idAt)
		k.CreatedAt, k.UpdatedAt = at(sp.created), at(sp.created)
		if sp.used != nil {
			k.LastUsedAt = ptr(at(*sp.used))
		}
		keys[i] = k
	}
	saveKeys(t, s, keys...)
	return keys
}

var apiKeyListCases = []testCase{
	{"every order pages exactly both ways with ties broken by id", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		keys := orderedKeys(t, s, u.ID)
		for _, orderBy := range []string{"created_at", "last_used_at", "name"} {
			for _, desc := range []bool{false, true} {
				f := query.APIKeyFilter{UserID: u.ID, OrderBy: orderBy, Desc: desc}
				checkPaging(t, sortedKeys(keys, orderBy, desc), keyID, listKeys(t, s, f))
			}
		}
	}},
	{"the list is scoped to its user", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		mine := []*catalog.APIKey{newKey(alice.ID, "a", 1), newKey(alice.ID, "b", 2)}
		saveKeys(t, s, mine...)
		saveKeys(t, s, newKey(bob.ID, "c", 3))
		f := query.APIKeyFilter{UserID: alice.ID, OrderBy: "created_at"}
		checkPaging(t, keyIDs(mine...), keyID, listKeys(t, s, f))
	}},
	{"the name filter matches a substring ignoring case", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		script, nightly := newKey(u.ID, "Backup Script", 1), newKey(u.ID, "nightly BACKUP", 2)
		saveKeys(t, s, script, newKey(u.ID, "phone", 3), nightly, newKey(u.ID, "back up", 4))
		for _, name := range []string{"backup", "BaCkUp", "ACKU"} {
			f := query.APIKeyFilter{UserID: u.ID, Name: name, OrderBy: "created_at"}
			checkPaging(t, keyIDs(script, nightly), keyID, listKeys(t, s, f))
		}
	}},
	{"the name filter ignores case beyond ASCII", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		k := newKey(u.ID, "Äpfel Sync", 1)
		saveKeys(t, s, k, newKey(u.ID, "pfel", 2))
		for _, name := range []string{"äpfel", "ÄPFEL", "äPfEl"} {
			f := query.APIKeyFilter{UserID: u.ID, Name: name, OrderBy: "created_at"}
			checkPaging(t, keyIDs(k), keyID, listKeys(t, s, f))
		}
	}},
	{"the library filter reaches keys of every library or naming that library", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		libA, libB := makeLibrary(t, s, u.ID, "A", 0), makeLibrary(t, s, u.ID, "B", 1)
		scoped := func(name string, m int, libs ...string) *catalog.APIKey {
			k := newKey(u.ID, name, m)
			k.Scope.LibraryIDs = append([]string{}, libs...)
			return k
		}
		every := newKey(u.ID, "every", 1)
		onlyA, onlyB, both := scoped("only a", 2, libA.ID), scoped("only b", 3, libB.ID), scoped("both", 4, libB.ID, libA.ID)
		none := scoped("none", 5)
		saveKeys(t, s, every, onlyA, onlyB, both, none)
		f := query.APIKeyFilter{UserID: u.ID, LibraryID: libA.ID, OrderBy: "created_at"}
		checkPaging(t, keyIDs(every, onlyA, both), keyID, listKeys(t, s, f))
		f.Name = "O"
		checkPaging(t, keyIDs(onlyA, both), keyID, listKeys(t, s, f))
	}},
	{"keys deleted or created between pages neither repeat nor skip a row", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		keys := []*catalog.APIKey{newKey(u.ID, "a", 1), newKey(u.ID, "b", 2), newKey(u.ID, "c", 3),
			newKey(u.ID, "d", 4), newKey(u.ID, "e", 5)}
		saveKeys(t, s, keys...)
		l := listKeys(t, s, query.APIKeyFilter{UserID: u.ID, OrderBy: "created_at", Desc: true})
		first, more := firstPage(t, 2, l)
		require.True(t, more)
		write(t, s, func(r store.Repos) error { return r.APIKeys().Delete(ctx(t), u.ID, keys[1].ID) })
		saveKeys(t, s, newKey(u.ID, "f", 6))
		rest, more, err := l(query.Page{Limit: 10, AfterID: first[1].ID})
		require.NoError(t, err)
		require.False(t, more)
		require.Equal(t, keyIDs(keys[4], keys[3], keys[2], keys[0]), idsOf(slices.Concat(first, rest), keyID))
	}},
	{"a cursor naming another user's key is a validation error", func(t *testing.T, s store.Store) {
		alice := makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		theirs := newKey(bob.ID, "theirs", 2)
		saveKeys(t, s, newKey(alice.ID, "mine", 1), theirs)
		for _, orderBy := range []string{"created_at", "last_used_at", "name"} {
			_, _, err := s.Read().APIKeys().List(ctx(t), query.APIKeyFilter{UserID: alice.ID, OrderBy: orderBy},
				query.Page{Limit: 10, AfterID: theirs.ID})
			requireInvalidCursor(t, err)
		}
	}},
	{"a cursor naming an unknown key is a validation error", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		saveKeys(t, s, newKey(u.ID, "mine", 1))
		_, _, err := s.Read().APIKeys().List(ctx(t), query.APIKeyFilter{UserID: u.ID, OrderBy: "created_at"},
			query.Page{Limit: 10, AfterID: catalog.NewID(catalog.PrefixAPIKey, base)})
		requireInvalidCursor(t, err)
	}},
}
