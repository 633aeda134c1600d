package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// OAuth has no group in the conformance suite yet; these tests state its
// contract (store.OAuth) on PostgreSQL.

// oauthFixture saves a user, a client and a grant of that client.
func oauthFixture(t *testing.T, s store.Store) (*catalog.OAuthClient, *catalog.OAuthGrant) {
	t.Helper()
	u := makeUsers(t, s, 1)[0]
	c := &catalog.OAuthClient{ID: "cli_b", Name: "Frame", SecretHash: []byte("secret hash"),
		RedirectURIs: []string{"https://frame/cb"}, Scopes: []catalog.Action{catalog.ActionAll},
		CreatedBy: u.ID, CreatedAt: base}
	g := &catalog.OAuthGrant{ID: "grt_a", ClientID: c.ID, UserID: u.ID, Scopes: []catalog.Action{catalog.ActionAll},
		CreatedAt: base}
	require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error {
		if err := r.OAuth().CreateClient(t.Context(), c); err != nil {
			return err
		}
		return r.OAuth().CreateGrant(t.Context(), g)
	}))
	return c, g
}

func TestOAuthClientsRoundTripPageAndRevokeOnce(t *testing.T) {
	s := openStore(t)
	c, _ := oauthFixture(t, s)
	public := &catalog.OAuthClient{ID: "cli_a", Name: "Public", RedirectURIs: []string{"http://127.0.0.1/cb"},
		Scopes: []catalog.Action{catalog.ActionAll}, CreatedBy: c.CreatedBy, CreatedAt: base}
	tx := func(fn func(o store.OAuth) error) error {
		return s.InTx(t.Context(), func(r store.Repos) error { return fn(r.OAuth()) })
	}
	require.NoError(t, tx(func(o store.OAuth) error { return o.CreateClient(t.Context(), public) }))
	require.ErrorIs(t, tx(func(o store.OAuth) error { return o.CreateClient(t.Context(), public) }), catalog.ErrConflict)

	got, err := s.Read().OAuth().GetClient(t.Context(), "cli_a")
	require.NoError(t, err)
	require.Equal(t, public, got)
	require.True(t, got.Public())

	list, more, err := s.Read().OAuth().ListClients(t.Context(), query.Page{Limit: 1})
	require.NoError(t, err)
	require.True(t, more)
	require.Equal(t, "cli_b", list[0].ID, "newest (highest id) first")
	list, more, err = s.Read().OAuth().ListClients(t.Context(), query.Page{Limit: 1, AfterID: "cli_b"})
	require.NoError(t, err)
	require.False(t, more)
	require.Equal(t, "cli_a", list[0].ID)

	require.NoError(t, tx(func(o store.OAuth) error { return o.RevokeClient(t.Context(), "cli_b", base.Add(time.Hour)) }))
	require.NoError(t, tx(func(o store.OAuth) error { return o.RevokeClient(t.Context(), "cli_b", base.Add(2*time.Hour)) }))
	got, err = s.Read().OAuth().GetClient(t.Context(), "cli_b")
	require.NoError(t, err)
	require.Equal(t, base.Add(time.Hour), *got.RevokedAt, "revoking twice keeps the first time")
	require.ErrorIs(t, tx(func(o store.OAuth) error { return o.RevokeClient(t.Context(), "cli_x", base) }), catalog.ErrNotFound)
	_, err = s.Read().OAuth().GetClient(t.Context(), "cli_x")
	require.ErrorIs(t, err, catalog.ErrNotFound)

	g, err := s.Read().OAuth().GetGrant(t.Context(), "grt_a")
	require.NoError(t, err)
	require.Equal(t, base.Add(time.Hour), *g.ClientRevokedAt, "a grant is read with its client's revocation")
	require.False(t, g.Live())
}

func TestOAuthRecordsAreUsedOnceAndEndWithTheirGrant(t *testing.T) {
	s := openStore(t)
	_, g := oauthFixture(t, s)
	tx := func(fn func(o store.OAuth) error) error {
		return s.InTx(t.Context(), func(r store.Repos) error { return fn(r.OAuth()) })
	}
	rec := func(kind store.OAuthRecordKind, sig string) *store.OAuthRecord {
		return &store.OAuthRecord{Kind: kind, Signature: sig, GrantID: g.ID, Data: []byte(`{"r":1}`), Active: true,
			ExpiresAt: base.Add(time.Hour)}
	}
	for _, r := range []*store.OAuthRecord{rec(store.OAuthCode, "c1"), rec(store.OAuthPKCE, "c1"),
		rec(store.OAuthRefresh, "r1"), rec(store.OAuthRefresh, "r2")} {
		require.NoError(t, tx(func(o store.OAuth) error { return o.PutRecord(t.Context(), r) }))
	}
	require.ErrorIs(t, tx(func(o store.OAuth) error { return o.PutRecord(t.Context(), rec(store.OAuthCode, "c1")) }),
		catalog.ErrConflict)

	got, err := s.Read().OAuth().GetRecord(t.Context(), store.OAuthCode, "c1")
	require.NoError(t, err)
	require.Equal(t, rec(store.OAuthCode, "c1"), got)

	use := func() error {
		return tx(func(o store.OAuth) error { return o.DeactivateRecord(t.Context(), store.OAuthCode, "c1") })
	}
	require.NoError(t, use())
	require.ErrorIs(t, use(), catalog.ErrNotFound, "of two uses of a code, the second fails")
	got, err = s.Read().OAuth().GetRecord(t.Context(), store.OAuthCode, "c1")
	require.NoError(t, err)
	require.False(t, got.Active, "a used code is kept, inactive, so a replay is recognised")

	require.NoError(t, tx(func(o store.OAuth) error { return o.RevokeGrant(t.Context(), g.ID, base.Add(time.Minute)) }))
	for _, r := range []*store.OAuthRecord{rec(store.OAuthPKCE, "c1"), rec(store.OAuthRefresh, "r1"),
		rec(store.OAuthRefresh, "r2")} {
		got, err = s.Read().OAuth().GetRecord(t.Context(), r.Kind, r.Signature)
		require.NoError(t, err)
		require.False(t, got.Active, "revoking a grant deactivates all its records")
	}
	grant, err := s.Read().OAuth().GetGrant(t.Context(), g.ID)
	require.NoError(t, err)
	require.Equal(t, base.Add(time.Minute), *grant.RevokedAt)
	require.ErrorIs(t, tx(func(o store.OAuth) error { return o.RevokeGrant(t.Context(), "grt_x", base) }), catalog.ErrNotFound)

	require.NoError(t, tx(func(o store.OAuth) error { return o.DeleteRecord(t.Context(), store.OAuthPKCE, "c1") }))
	require.NoError(t, tx(func(o store.OAuth) error { return o.DeleteRecord(t.Context(), store.OAuthPKCE, "c1") }),
		"deleting a missing record is not an error")
	_, err = s.Read().OAuth().GetRecord(t.Context(), store.OAuthPKCE, "c1")
	require.ErrorIs(t, err, catalog.ErrNotFound)
}
