package storetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// startSession saves a session of a new user with n refresh tokens.
func startSession(t *testing.T, s store.Store, email string, n int) (*catalog.Session, []*catalog.RefreshToken) {
	t.Helper()
	u := makeUser(t, s, email)
	se := newSession(u.ID)
	tokens := make([]*catalog.RefreshToken, n)
	for i := range tokens {
		tokens[i] = newRefreshToken(se, i)
	}
	write(t, s, func(r store.Repos) error {
		if err := r.Sessions().Create(ctx(t), se); err != nil {
			return err
		}
		for _, rt := range tokens {
			if err := r.Sessions().AddRefreshToken(ctx(t), rt); err != nil {
				return err
			}
		}
		return nil
	})
	return se, tokens
}

// tokenByHash reads a refresh token through Read().
func tokenByHash(t *testing.T, s store.Store, hash []byte) *catalog.RefreshToken {
	t.Helper()
	rt, err := s.Read().Sessions().RefreshTokenByHash(ctx(t), hash)
	require.NoError(t, err)
	return rt
}

// markRotated calls MarkRotated in its own transaction.
func markRotated(t *testing.T, s store.Store, id string, when time.Time) error {
	t.Helper()
	return writeErr(t, s, func(r store.Repos) error { return r.Sessions().MarkRotated(ctx(t), id, when) })
}

var sessionCases = []testCase{
	{"a created session reads back, alone and with its user", func(t *testing.T, s store.Store) {
		se, _ := startSession(t, s, "alice@example.com", 0)
		got, err := s.Read().Sessions().Get(ctx(t), se.ID)
		require.NoError(t, err)
		require.Equal(t, se, got)
		got, owner, err := s.Read().Sessions().GetWithUser(ctx(t), se.ID)
		require.NoError(t, err)
		require.Equal(t, se, got)
		want, err := s.Read().Users().Get(ctx(t), se.UserID)
		require.NoError(t, err)
		require.Equal(t, want, owner)
	}},
	{"an unknown session is not found", func(t *testing.T, s store.Store) {
		startSession(t, s, "alice@example.com", 1)
		_, err := s.Read().Sessions().Get(ctx(t), catalog.NewID(catalog.PrefixSession, base))
		requireKind(t, err, catalog.ErrNotFound)
		_, _, err = s.Read().Sessions().GetWithUser(ctx(t), catalog.NewID(catalog.PrefixSession, base))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a refresh token reads back by its hash", func(t *testing.T, s store.Store) {
		_, tokens := startSession(t, s, "alice@example.com", 2)
		for _, rt := range tokens {
			require.Equal(t, rt, tokenByHash(t, s, rt.Hash))
		}
	}},
	{"an unknown refresh token hash is not found", func(t *testing.T, s store.Store) {
		startSession(t, s, "alice@example.com", 1)
		_, err := s.Read().Sessions().RefreshTokenByHash(ctx(t), []byte("no such hash"))
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a duplicate refresh token hash conflicts", func(t *testing.T, s store.Store) {
		se, tokens := startSession(t, s, "alice@example.com", 1)
		dup := newRefreshToken(se, 5)
		dup.Hash = tokens[0].Hash
		err := writeErr(t, s, func(r store.Repos) error { return r.Sessions().AddRefreshToken(ctx(t), dup) })
		requireKind(t, err, catalog.ErrConflict)
	}},
	{"mark rotated sets rotated_at once and conflicts the second time", func(t *testing.T, s store.Store) {
		_, tokens := startSession(t, s, "alice@example.com", 2)
		require.NoError(t, markRotated(t, s, tokens[0].ID, at(10)))
		requireKind(t, markRotated(t, s, tokens[0].ID, at(11)), catalog.ErrConflict)
		got := tokenByHash(t, s, tokens[0].Hash)
		require.NotNil(t, got.RotatedAt)
		require.Equal(t, at(10), *got.RotatedAt, "the first rotation wins")
		require.Nil(t, tokenByHash(t, s, tokens[1].Hash).RotatedAt, "other tokens are untouched")
	}},
	{"revoke marks the session and all its refresh tokens but no other session", func(t *testing.T, s store.Store) {
		se, tokens := startSession(t, s, "alice@example.com", 3)
		other, otherTokens := startSession(t, s, "bob@example.com", 1)
		require.NoError(t, markRotated(t, s, tokens[0].ID, at(10)))
		write(t, s, func(r store.Repos) error { return r.Sessions().Revoke(ctx(t), se.ID, at(20)) })

		got, err := s.Read().Sessions().Get(ctx(t), se.ID)
		require.NoError(t, err)
		require.NotNil(t, got.RevokedAt)
		require.Equal(t, at(20), *got.RevokedAt)
		for _, rt := range tokens {
			require.NotNil(t, tokenByHash(t, s, rt.Hash).RotatedAt, "token %s stays usable", rt.ID)
		}
		require.Equal(t, at(10), *tokenByHash(t, s, tokens[0].Hash).RotatedAt, "an earlier rotation is kept")

		got, err = s.Read().Sessions().Get(ctx(t), other.ID)
		require.NoError(t, err)
		require.Nil(t, got.RevokedAt)
		require.Nil(t, tokenByHash(t, s, otherTokens[0].Hash).RotatedAt)
	}},
	{"a revoked session's refresh tokens can no longer be rotated", func(t *testing.T, s store.Store) {
		se, tokens := startSession(t, s, "alice@example.com", 1)
		write(t, s, func(r store.Repos) error { return r.Sessions().Revoke(ctx(t), se.ID, at(20)) })
		requireKind(t, markRotated(t, s, tokens[0].ID, at(21)), catalog.ErrConflict)
	}},
}
