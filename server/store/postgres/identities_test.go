package postgres_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// Identities has no group in the conformance suite yet; these tests state
// its contract (store.Identities) on PostgreSQL.

func TestIdentitiesLinkOneSubjectPerIssuerAndAccount(t *testing.T) {
	s := openStore(t)
	us := makeUsers(t, s, 2)
	link := func(issuer, subject, userID string) error {
		return s.InTx(t.Context(), func(r store.Repos) error {
			return r.Identities().Create(t.Context(), &catalog.Identity{Issuer: issuer, Subject: subject,
				UserID: userID, Email: "a@example.com", CreatedAt: base})
		})
	}
	require.NoError(t, link("https://idp", "sub-a", us[0].ID))
	require.NoError(t, link("https://other-idp", "sub-a", us[0].ID))
	require.ErrorIs(t, link("https://idp", "sub-a", us[1].ID), catalog.ErrConflict, "a subject links once")
	require.ErrorIs(t, link("https://idp", "sub-b", us[0].ID), catalog.ErrConflict, "one subject per account and issuer")

	got, err := s.Read().Identities().Get(t.Context(), "https://idp", "sub-a")
	require.NoError(t, err)
	require.Equal(t, &catalog.Identity{Issuer: "https://idp", Subject: "sub-a", UserID: us[0].ID,
		Email: "a@example.com", CreatedAt: base}, got)
	got, err = s.Read().Identities().ForUser(t.Context(), "https://other-idp", us[0].ID)
	require.NoError(t, err)
	require.Equal(t, "sub-a", got.Subject)
	_, err = s.Read().Identities().Get(t.Context(), "https://idp", "sub-b")
	require.ErrorIs(t, err, catalog.ErrNotFound)
	_, err = s.Read().Identities().ForUser(t.Context(), "https://idp", us[1].ID)
	require.ErrorIs(t, err, catalog.ErrNotFound)
}

func TestIdentityStatesAreTakenOnceAndSweptWhenExpired(t *testing.T) {
	s := openStore(t)
	state := func(hash string, expires time.Time) *catalog.OIDCState {
		return &catalog.OIDCState{StateHash: []byte(hash), Verifier: "v-" + hash, Nonce: "n-" + hash,
			RedirectURI: "https://app/cb", CreatedAt: base, ExpiresAt: expires}
	}
	add := func(st *catalog.OIDCState, now time.Time) {
		require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error { return r.Identities().AddState(t.Context(), st, now) }))
	}
	take := func(hash string) (*catalog.OIDCState, error) {
		var st *catalog.OIDCState
		err := s.InTx(t.Context(), func(r store.Repos) error {
			var err error
			st, err = r.Identities().TakeState(t.Context(), []byte(hash))
			return err
		})
		return st, err
	}
	add(state("old", base.Add(time.Minute)), base)
	add(state("kept", base.Add(time.Hour)), base)
	// Adding at base+10m sweeps "old" (expired) but keeps "kept".
	add(state("new", base.Add(20*time.Minute)), base.Add(10*time.Minute))

	_, err := take("old")
	require.ErrorIs(t, err, catalog.ErrNotFound)
	got, err := take("kept")
	require.NoError(t, err)
	require.Equal(t, state("kept", base.Add(time.Hour)), got)
	_, err = take("kept")
	require.ErrorIs(t, err, catalog.ErrNotFound, "a state is used once")
	_, err = take("new")
	require.NoError(t, err)
}
