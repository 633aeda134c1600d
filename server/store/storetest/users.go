package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

var userCases = []testCase{
	{"a created user reads back field for field", func(t *testing.T, s store.Store) {
		u := newUser("Alice@Example.com", 1)
		u.FirstName, u.LastName, u.PasswordHash = "Alice", "Liddell", "$argon2id$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA"
		u.IsSuperuser, u.IsVerified, u.QuotaBytes = true, true, ptr(int64(5<<30))
		u.UpdatedAt = at(2)
		write(t, s, func(r store.Repos) error { return r.Users().Create(ctx(t), u) })

		got, err := s.Read().Users().Get(ctx(t), u.ID)
		require.NoError(t, err)
		require.Equal(t, u, got)
	}},
	{"a user without a quota reads back with a nil quota", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "bob@example.com")
		got, err := s.Read().Users().Get(ctx(t), u.ID)
		require.NoError(t, err)
		require.Nil(t, got.QuotaBytes)
		require.Equal(t, u, got)
	}},
	{"an unknown id is not found", func(t *testing.T, s store.Store) {
		makeUser(t, s, "alice@example.com")
		_, err := s.Read().Users().Get(ctx(t), catalog.NewID(catalog.PrefixUser, base))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"e-mail lookup ignores case", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "Alice@Example.com")
		for _, email := range []string{"Alice@Example.com", "alice@example.com", "ALICE@EXAMPLE.COM"} {
			got, err := s.Read().Users().GetByEmail(ctx(t), email)
			require.NoError(t, err, email)
			require.Equal(t, u.ID, got.ID, email)
			require.Equal(t, "Alice@Example.com", got.Email, "the e-mail keeps its case")
		}
	}},
	{"an unknown e-mail is not found", func(t *testing.T, s store.Store) {
		makeUser(t, s, "alice@example.com")
		_, err := s.Read().Users().GetByEmail(ctx(t), "alice@example.org")
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a second account with the same e-mail in another case conflicts", func(t *testing.T, s store.Store) {
		makeUser(t, s, "alice@example.com")
		err := writeErr(t, s, func(r store.Repos) error {
			return r.Users().Create(ctx(t), newUser("ALICE@example.COM", 1))
		})
		requireKind(t, err, catalog.ErrConflict)
	}},
	{"a second account with the same id conflicts", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		dup := newUser("bob@example.com", 1)
		dup.ID = u.ID
		err := writeErr(t, s, func(r store.Repos) error { return r.Users().Create(ctx(t), dup) })
		requireKind(t, err, catalog.ErrConflict)
	}},
	{"update changes every field and the e-mail lookup follows", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		u.Email, u.FirstName, u.LastName, u.PasswordHash = "Alice@Example.org", "A", "L", "new hash"
		u.IsActive, u.IsSuperuser, u.IsVerified, u.QuotaBytes, u.UpdatedAt = false, true, true, ptr(int64(1)), at(5)
		write(t, s, func(r store.Repos) error { return r.Users().Update(ctx(t), u) })

		got, err := s.Read().Users().Get(ctx(t), u.ID)
		require.NoError(t, err)
		require.Equal(t, u, got)
		_, err = s.Read().Users().GetByEmail(ctx(t), "alice@example.com")
		requireKind(t, err, catalog.ErrNotFound)
		got, err = s.Read().Users().GetByEmail(ctx(t), "alice@example.ORG")
		require.NoError(t, err)
		require.Equal(t, u.ID, got.ID)
	}},
	{"update to another user's e-mail in another case conflicts", func(t *testing.T, s store.Store) {
		makeUser(t, s, "alice@example.com")
		bob := makeUser(t, s, "bob@example.com")
		bob.Email = "Alice@Example.com"
		err := writeErr(t, s, func(r store.Repos) error { return r.Users().Update(ctx(t), bob) })
		requireKind(t, err, catalog.ErrConflict)
		got, err := s.Read().Users().Get(ctx(t), bob.ID)
		require.NoError(t, err)
		require.Equal(t, "bob@example.com", got.Email)
	}},
	{"update of an unknown user is not found", func(t *testing.T, s store.Store) {
		err := writeErr(t, s, func(r store.Repos) error { return r.Users().Update(ctx(t), newUser("a@b.c", 0)) })
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"preferences start empty", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		p, err := s.Read().Users().Preferences(ctx(t), u.ID)
		require.NoError(t, err)
		require.Equal(t, catalog.Preferences{}, p)
	}},
	{"preferences round-trip and can be cleared", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "alice@example.com")
		want := catalog.Preferences{ImmichLibraryID: ptr("lib_a"), DefaultLibraryID: ptr("lib_b")}
		write(t, s, func(r store.Repos) error { return r.Users().SetPreferences(ctx(t), u.ID, want) })
		got, err := s.Read().Users().Preferences(ctx(t), u.ID)
		require.NoError(t, err)
		require.Equal(t, want, got)

		write(t, s, func(r store.Repos) error {
			return r.Users().SetPreferences(ctx(t), u.ID, catalog.Preferences{})
		})
		got, err = s.Read().Users().Preferences(ctx(t), u.ID)
		require.NoError(t, err)
		require.Equal(t, catalog.Preferences{}, got)
	}},
	{"preferences of an unknown user are not found", func(t *testing.T, s store.Store) {
		id := catalog.NewID(catalog.PrefixUser, base)
		_, err := s.Read().Users().Preferences(ctx(t), id)
		requireKind(t, err, catalog.ErrNotFound)
		err = writeErr(t, s, func(r store.Repos) error {
			return r.Users().SetPreferences(ctx(t), id, catalog.Preferences{DefaultLibraryID: ptr("lib_a")})
		})
		requireKind(t, err, catalog.ErrNotFound)
	}},
}
