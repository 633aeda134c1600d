package storetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

func newOAuthClient(createdBy string, m int) *catalog.OAuthClient {
	return &catalog.OAuthClient{ID: catalog.NewID(catalog.PrefixOAuthClient, at(m)), Name: "app", SecretHash: []byte("hash"),
		RedirectURIs: []string{"https://app.example.com/cb"}, Scopes: []catalog.Action{catalog.ActionAssetRead},
		CreatedBy: createdBy, CreatedAt: at(m)}
}

func makeGrant(t *testing.T, s store.Store) (*catalog.OAuthClient, *catalog.OAuthGrant) {
	t.Helper()
	u := makeUser(t, s, "grantor@example.com")
	c := newOAuthClient(u.ID, 1)
	g := &catalog.OAuthGrant{ID: catalog.NewID(catalog.PrefixOAuthGrant, at(2)), ClientID: c.ID, UserID: u.ID,
		Scopes: []catalog.Action{catalog.ActionAssetRead}, CreatedAt: at(2)}
	write(t, s, func(r store.Repos) error {
		if err := r.OAuth().CreateClient(ctx(t), c); err != nil {
			return err
		}
		return r.OAuth().CreateGrant(ctx(t), g)
	})
	return c, g
}

var oauthCases = []testCase{
	{"clients round-trip, list newest first and keep their first revocation", func(t *testing.T, s store.Store) {
		u := makeUser(t, s, "admin@example.com")
		a, b := newOAuthClient(u.ID, 1), newOAuthClient(u.ID, 2)
		b.SecretHash = nil // public
		write(t, s, func(r store.Repos) error {
			if err := r.OAuth().CreateClient(ctx(t), a); err != nil {
				return err
			}
			return r.OAuth().CreateClient(ctx(t), b)
		})
		got, err := s.Read().OAuth().GetClient(ctx(t), b.ID)
		require.NoError(t, err)
		require.True(t, got.Public())
		require.Equal(t, b.RedirectURIs, got.RedirectURIs)

		page, more, err := s.Read().OAuth().ListClients(ctx(t), query.Page{Limit: 1})
		require.NoError(t, err)
		require.True(t, more)
		require.Equal(t, b.ID, page[0].ID)
		page, more, err = s.Read().OAuth().ListClients(ctx(t), query.Page{Limit: 1, AfterID: b.ID})
		require.NoError(t, err)
		require.False(t, more)
		require.Equal(t, a.ID, page[0].ID)

		write(t, s, func(r store.Repos) error { return r.OAuth().RevokeClient(ctx(t), a.ID, at(5)) })
		write(t, s, func(r store.Repos) error { return r.OAuth().RevokeClient(ctx(t), a.ID, at(9)) })
		got, err = s.Read().OAuth().GetClient(ctx(t), a.ID)
		require.NoError(t, err)
		require.Equal(t, at(5), *got.RevokedAt)

		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.OAuth().RevokeClient(ctx(t), "oauthclient_x", at(5)) }),
			catalog.ErrNotFound)
		_, err = s.Read().OAuth().GetClient(ctx(t), "oauthclient_x")
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a grant reads its client's revocation and revoking it deactivates its records", func(t *testing.T, s store.Store) {
		c, g := makeGrant(t, s)
		rec := &store.OAuthRecord{Kind: store.OAuthRefresh, Signature: "sig-1", GrantID: g.ID, Data: []byte(`{}`),
			Active: true, ExpiresAt: at(60)}
		write(t, s, func(r store.Repos) error { return r.OAuth().PutRecord(ctx(t), rec) })

		got, err := s.Read().OAuth().GetGrant(ctx(t), g.ID)
		require.NoError(t, err)
		require.True(t, got.Live())
		write(t, s, func(r store.Repos) error { return r.OAuth().RevokeClient(ctx(t), c.ID, at(3)) })
		got, err = s.Read().OAuth().GetGrant(ctx(t), g.ID)
		require.NoError(t, err)
		require.False(t, got.Live())
		require.Nil(t, got.RevokedAt)

		write(t, s, func(r store.Repos) error { return r.OAuth().RevokeGrant(ctx(t), g.ID, at(4)) })
		got, err = s.Read().OAuth().GetGrant(ctx(t), g.ID)
		require.NoError(t, err)
		require.Equal(t, at(4), *got.RevokedAt)
		r, err := s.Read().OAuth().GetRecord(ctx(t), store.OAuthRefresh, "sig-1")
		require.NoError(t, err)
		require.False(t, r.Active)

		_, err = s.Read().OAuth().GetGrant(ctx(t), "oauthgrant_x")
		requireKind(t, err, catalog.ErrNotFound)
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.OAuth().RevokeGrant(ctx(t), "oauthgrant_x", at(5)) }),
			catalog.ErrNotFound)
	}},
	{"a record is stored once and deactivated once", func(t *testing.T, s store.Store) {
		_, g := makeGrant(t, s)
		rec := &store.OAuthRecord{Kind: store.OAuthCode, Signature: "code-1", GrantID: g.ID, Data: []byte(`{"a":1}`),
			Active: true, ExpiresAt: at(10)}
		write(t, s, func(r store.Repos) error { return r.OAuth().PutRecord(ctx(t), rec) })
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.OAuth().PutRecord(ctx(t), rec) }), catalog.ErrConflict)
		other := *rec
		other.Kind = store.OAuthPKCE // the same signature under another kind is another record
		write(t, s, func(r store.Repos) error { return r.OAuth().PutRecord(ctx(t), &other) })

		got, err := s.Read().OAuth().GetRecord(ctx(t), store.OAuthCode, "code-1")
		require.NoError(t, err)
		require.Equal(t, rec, got)

		write(t, s, func(r store.Repos) error { return r.OAuth().DeactivateRecord(ctx(t), store.OAuthCode, "code-1") })
		requireKind(t, writeErr(t, s, func(r store.Repos) error { return r.OAuth().DeactivateRecord(ctx(t), store.OAuthCode, "code-1") }),
			catalog.ErrNotFound)
		got, err = s.Read().OAuth().GetRecord(ctx(t), store.OAuthCode, "code-1")
		require.NoError(t, err)
		require.False(t, got.Active)

		write(t, s, func(r store.Repos) error { return r.OAuth().DeleteRecord(ctx(t), store.OAuthPKCE, "code-1") })
		write(t, s, func(r store.Repos) error { return r.OAuth().DeleteRecord(ctx(t), store.OAuthPKCE, "code-1") })
		_, err = s.Read().OAuth().GetRecord(ctx(t), store.OAuthPKCE, "code-1")
		requireKind(t, err, catalog.ErrNotFound)
	}},
}
