package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

const testIssuer = "https://idp.example.com"

var identityCases = []testCase{
	{"a link is found by subject and by user", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "linked@example.com")
		id := &catalog.Identity{Issuer: testIssuer, Subject: "sub-1", UserID: u.ID, Email: u.Email, CreatedAt: at(1)}
		write(t, s, func(r store.Repos) error { return r.Identities().Create(ctx(t), id) })

		got, err := s.Read().Identities().Get(ctx(t), testIssuer, "sub-1")
		require.NoError(t, err)
		require.Equal(t, id, got)
		got, err = s.Read().Identities().ForUser(ctx(t), testIssuer, u.ID)
		require.NoError(t, err)
		require.Equal(t, id, got)

		_, err = s.Read().Identities().Get(ctx(t), "https://other.example.com", "sub-1")
		requireKind(t, err, catalog.ErrNotFound)
		_, err = s.Read().Identities().ForUser(ctx(t), "https://other.example.com", u.ID)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a subject links once and an account has one subject per issuer", func(t *testing.T, s store.Store) {
		u, v := makeUser(t, s, "one@example.com"), makeUser(t, s, "two@example.com")
		write(t, s, func(r store.Repos) error {
			return r.Identities().Create(ctx(t), &catalog.Identity{Issuer: testIssuer, Subject: "sub-1", UserID: u.ID, CreatedAt: at(1)})
		})
		err := writeErr(t, s, func(r store.Repos) error {
			return r.Identities().Create(ctx(t), &catalog.Identity{Issuer: testIssuer, Subject: "sub-1", UserID: v.ID, CreatedAt: at(2)})
		})
		requireKind(t, err, catalog.ErrConflict)
		err = writeErr(t, s, func(r store.Repos) error {
			return r.Identities().Create(ctx(t), &catalog.Identity{Issuer: testIssuer, Subject: "sub-2", UserID: u.ID, CreatedAt: at(2)})
		})
		requireKind(t, err, catalog.ErrConflict)
		write(t, s, func(r store.Repos) error { // another issuer may link the same account
			return r.Identities().Create(ctx(t), &catalog.Identity{Issuer: "https://other.example.com", Subject: "sub-1",
				UserID: u.ID, CreatedAt: at(3)})
		})
	}},
	{"a state is taken once and expired ones are swept", func(t *testing.T, s store.Store) {
		old := &catalog.OIDCState{StateHash: []byte("old"), Verifier: "v0", Nonce: "n0", RedirectURI: "http://127.0.0.1:1/cb",
			CreatedAt: at(0), ExpiresAt: at(10)}
		fresh := &catalog.OIDCState{StateHash: []byte("fresh"), Verifier: "v1", Nonce: "n1", RedirectURI: "http://127.0.0.1:1/cb",
			CreatedAt: at(20), ExpiresAt: at(30)}
		write(t, s, func(r store.Repos) error { return r.Identities().AddState(ctx(t), old, at(0)) })
		write(t, s, func(r store.Repos) error { return r.Identities().AddState(ctx(t), fresh, at(20)) })

		var got *catalog.OIDCState
		write(t, s, func(r store.Repos) error {
			var err error
			got, err = r.Identities().TakeState(ctx(t), []byte("fresh"))
			return err
		})
		require.Equal(t, fresh, got)
		for _, hash := range []string{"fresh", "old"} {
			err := writeErr(t, s, func(r store.Repos) error {
				_, err := r.Identities().TakeState(ctx(t), []byte(hash))
				return err
			})
			requireKind(t, err, catalog.ErrNotFound)
		}
	}},
}
