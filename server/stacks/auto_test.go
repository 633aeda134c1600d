package stacks_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/stacks"
	"github.com/photoctl/photoctl/server/store"
)

// world is a real SQLite store with one user, a library and a burst of
// assets, and the stack service over it.
type world struct {
	st     store.Store
	svc    *stacks.Service
	lib    string
	burst  []string
	events func() []string
}

func newWorld(t *testing.T, n int) *world {
	t.Helper()
	ctx := context.Background()
	db := servertest.NewStore(t) // SQLite, or PostgreSQL with PHOTOCTL_TEST_STORE=postgres
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	w := &world{st: db, svc: stacks.NewService(db, libraries.NewService(db, func() time.Time { return now }),
		func() time.Time { return now })}
	require.NoError(t, db.InTx(ctx, func(r store.Repos) error {
		u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, now), Email: "a@example.com", IsActive: true,
			CreatedAt: now, UpdatedAt: now}
		if err := r.Users().Create(ctx, u); err != nil {
			return err
		}
		l, err := libraries.CreateOwned(ctx, r, u.ID, "Family", now)
		if err != nil {
			return err
		}
		w.lib = l.ID
		for i := range n {
			sum := sha256.Sum256([]byte(fmt.Sprint(i)))
			wall := now.Add(time.Duration(i) * 100 * time.Millisecond)
			a := &catalog.Asset{ID: catalog.NewID(catalog.PrefixAsset, now), LibraryID: l.ID, ContributorID: u.ID,
				MediaType: catalog.MediaImage, MIMEType: "image/jpeg", OriginalFileName: "burst.jpg",
				FileCreatedAt: now, FileModifiedAt: now, Capture: catalog.CaptureTime{Wall: wall}, Checksum: sum[:],
				OriginalSize: 1, FileSizeBytes: 1, CreatedAt: now, UpdatedAt: now}
			if err := r.Assets().Create(ctx, a); err != nil {
				return err
			}
			w.burst = append(w.burst, a.ID)
		}
		return nil
	}))
	w.events = func() []string {
		evs, _, err := db.Read().Events().List(ctx, w.lib, query.Page{Limit: 200})
		require.NoError(t, err)
		var out []string
		for _, e := range evs {
			if e.Type != "library.created" {
				out = append(out, e.Type+" "+string(e.Data))
			}
		}
		return out
	}
	return w
}

func (w *world) tx(t *testing.T, fn func(r store.Repos) error) error {
	t.Helper()
	return w.st.InTx(context.Background(), fn)
}

func (w *world) asset(t *testing.T, id string) *catalog.Asset {
	t.Helper()
	a, err := w.st.Read().Assets().Get(context.Background(), id)
	require.NoError(t, err)
	return a
}

func TestAutomaticStacks(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, 5)
	b := w.burst
	var auto *catalog.Stack
	require.NoError(t, w.tx(t, func(r store.Repos) error {
		var err error
		auto, err = w.svc.CreateAuto(ctx, r, w.lib, []string{b[1], b[0], b[2]}, b[1])
		return err
	}))
	require.Equal(t, catalog.StackAuto, auto.Source)
	require.Equal(t, []string{b[0], b[1], b[2]}, auto.AssetIDs)
	require.Equal(t, b[1], auto.CoverAssetID)

	t.Run("members read auto_stack_id as the stack's id", func(t *testing.T) {
		for _, id := range auto.AssetIDs {
			require.Equal(t, &auto.ID, w.asset(t, id).AutoStackID())
		}
		require.Nil(t, w.asset(t, b[3]).AutoStackID())
	})
	t.Run("the detector extends its stack and moves the cover", func(t *testing.T) {
		var got *catalog.Stack
		require.NoError(t, w.tx(t, func(r store.Repos) error {
			var err error
			got, err = w.svc.UpdateAuto(ctx, r, auto.ID, []string{b[3], b[2]}, b[3])
			return err
		}))
		require.Equal(t, []string{b[0], b[1], b[2], b[3]}, got.AssetIDs)
		require.Equal(t, b[3], got.CoverAssetID)
		require.Equal(t, &auto.ID, w.asset(t, b[3]).AutoStackID())
	})
	t.Run("an asset of another stack is a conflict, and nothing is written", func(t *testing.T) {
		err := w.tx(t, func(r store.Repos) error {
			_, err := w.svc.CreateAuto(ctx, r, w.lib, []string{b[4], b[0]}, b[4])
			return err
		})
		require.ErrorIs(t, err, catalog.ErrConflict)
		require.Nil(t, w.asset(t, b[4]).StackID)
	})
	t.Run("bad input is a validation error", func(t *testing.T) {
		for name, call := range map[string]func(r store.Repos) error{
			"one asset": func(r store.Repos) error {
				_, err := w.svc.CreateAuto(ctx, r, w.lib, []string{b[4]}, b[4])
				return err
			},
			"a cover outside": func(r store.Repos) error {
				_, err := w.svc.CreateAuto(ctx, r, w.lib, []string{b[4], b[4]}, b[0])
				return err
			},
			"another library": func(r store.Repos) error {
				_, err := w.svc.CreateAuto(ctx, r, "lib_01hzzzzzzzzzzzzzzzzzzzzzzz", []string{b[4], b[3]}, b[4])
				return err
			},
			"an unknown cover on update": func(r store.Repos) error {
				_, err := w.svc.UpdateAuto(ctx, r, auto.ID, nil, b[4])
				return err
			},
		} {
			var ve *catalog.ValidationError
			require.ErrorAs(t, w.tx(t, call), &ve, name)
		}
	})
	t.Run("the detector leaves a user's stack alone", func(t *testing.T) {
		require.NoError(t, w.tx(t, func(r store.Repos) error {
			if err := r.Stacks().Delete(ctx, auto.ID); err != nil {
				return err
			}
			manual := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, time.Now()), LibraryID: w.lib,
				CoverAssetID: b[0], AssetIDs: []string{b[0], b[1]}, Source: catalog.StackManual}
			if err := r.Stacks().Create(ctx, manual); err != nil {
				return err
			}
			auto = manual
			return nil
		}))
		err := w.tx(t, func(r store.Repos) error {
			_, err := w.svc.UpdateAuto(ctx, r, auto.ID, []string{b[4]}, "")
			return err
		})
		require.ErrorIs(t, err, catalog.ErrConflict)
		require.Nil(t, w.asset(t, b[0]).AutoStackID(), "a manual stack sets no auto_stack_id")
	})
	t.Run("events were written with the stack's state", func(t *testing.T) {
		evs := w.events()
		require.Len(t, evs, 2)
		require.Contains(t, evs[0], "stack.created")
		require.Contains(t, evs[0], `"source":"auto"`)
		require.Contains(t, evs[1], "stack.updated")
	})
}

func TestResettle(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, 3)
	b := w.burst
	var st *catalog.Stack
	require.NoError(t, w.tx(t, func(r store.Repos) error {
		var err error
		st, err = w.svc.CreateAuto(ctx, r, w.lib, b, b[2])
		return err
	}))
	change := func(t *testing.T, fn func(r store.Repos) error, left bool) {
		t.Helper()
		require.NoError(t, w.tx(t, func(r store.Repos) error {
			if err := fn(r); err != nil {
				return err
			}
			return stacks.Resettle(ctx, r, []string{st.ID}, left, time.Now())
		}))
	}
	cover := func() string {
		got, err := w.st.Read().Stacks().Get(ctx, st.ID)
		require.NoError(t, err)
		return got.CoverAssetID
	}
	now := time.Now()
	change(t, func(r store.Repos) error { return r.Assets().SetTrashed(ctx, []string{b[2], b[0]}, &now, now) }, false)
	require.Equal(t, b[1], cover(), "the earliest live member")
	change(t, func(r store.Repos) error { return r.Assets().SetTrashed(ctx, []string{b[1]}, &now, now) }, false)
	require.Equal(t, b[1], cover(), "nothing live: the cover stays")
	change(t, func(r store.Repos) error { return r.Assets().SetTrashed(ctx, []string{b[2]}, nil, now) }, false)
	require.Equal(t, b[2], cover(), "the first restored")
	change(t, func(r store.Repos) error { return r.Assets().Delete(ctx, []string{b[2]}) }, true)
	require.Equal(t, b[0], cover(), "no live member left: the earliest")
	change(t, func(r store.Repos) error { return r.Assets().Delete(ctx, []string{b[0]}) }, true)
	_, err := w.st.Read().Stacks().Get(ctx, st.ID)
	require.ErrorIs(t, err, catalog.ErrNotFound, "one member left: dissolved")
	require.Nil(t, w.asset(t, b[1]).StackID)
	evs := w.events()
	require.Len(t, evs, 5) // created, 3 cover changes or deletions, deleted
	require.Contains(t, evs[4], "stack.deleted")
}
