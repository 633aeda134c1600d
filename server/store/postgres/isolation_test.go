package postgres_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// makeUsers saves n users.
func makeUsers(t *testing.T, s store.Store, n int) []*catalog.User {
	t.Helper()
	out := make([]*catalog.User, n)
	require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error {
		for i := range out {
			at := base.Add(time.Duration(i) * time.Minute)
			out[i] = &catalog.User{ID: catalog.NewID(catalog.PrefixUser, at), Email: fmt.Sprintf("u%d@example.com", i),
				IsActive: true, CreatedAt: at, UpdatedAt: at}
			if err := r.Users().Create(t.Context(), out[i]); err != nil {
				return err
			}
		}
		return nil
	}))
	return out
}

// TestCheckThenWriteHoldsUnderConcurrency: services check a count and
// write in one transaction (an invitation admits at most max_joiners
// accounts). Concurrent redeemers of a one-joiner invitation must not both
// get in: writers run one at a time, and the later ones see the
// invitation full.
func TestCheckThenWriteHoldsUnderConcurrency(t *testing.T) {
	s := openStore(t)
	us := makeUsers(t, s, 5)
	owner := us[0]
	lib := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, base), Name: "Family", OwnerID: owner.ID,
		CreatedAt: base, UpdatedAt: base}
	inv := &catalog.Invitation{ID: catalog.NewID(catalog.PrefixInvitation, base), LibraryID: lib.ID,
		CreatedBy: owner.Summary(), TokenHash: []byte("token"), Role: catalog.RoleViewer,
		ExpiresAt: base.Add(time.Hour), MaxJoiners: 1, CreatedAt: base, UpdatedAt: base}
	require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error {
		if err := r.Libraries().Create(t.Context(), lib); err != nil {
			return err
		}
		return r.Invitations().Create(t.Context(), inv)
	}))
	errFull := errors.New("invitation full")
	var wg sync.WaitGroup
	results := make([]error, len(us)-1)
	// The redeemers start together; InTx runs them one at a time (the
	// writer lock), so each checks what the ones before it wrote.
	start := barrier(len(results))
	for i, u := range us[1:] {
		wg.Go(func() {
			start()
			results[i] = s.InTx(t.Context(), func(r store.Repos) error {
				got, err := r.Invitations().Get(t.Context(), inv.ID)
				if err != nil {
					return err
				}
				if got.JoinerCount >= got.MaxJoiners {
					return errFull
				}
				return r.Invitations().Redeem(t.Context(), inv.ID, u.ID, base)
			})
		})
	}
	wg.Wait()
	admitted := 0
	for _, err := range results {
		if err == nil {
			admitted++
			continue
		}
		require.ErrorIs(t, err, errFull)
	}
	require.Equal(t, 1, admitted)
	got, err := s.Read().Invitations().Get(t.Context(), inv.ID)
	require.NoError(t, err)
	require.Equal(t, 1, got.JoinerCount)
}

// barrier returns a function that blocks until n goroutines have called it.
func barrier(n int) func() {
	var wg sync.WaitGroup
	wg.Add(n)
	return func() {
		wg.Done()
		wg.Wait()
	}
}
