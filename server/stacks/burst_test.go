package stacks_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/stacks"
	"github.com/photoctl/photoctl/server/store"
)

// owner is the principal of the world's library owner.
func (w *world) owner(t *testing.T) *catalog.Principal {
	t.Helper()
	ctx := context.Background()
	l, err := w.st.Read().Libraries().Get(ctx, w.lib)
	require.NoError(t, err)
	u, err := w.st.Read().Users().Get(ctx, l.OwnerID)
	require.NoError(t, err)
	return &catalog.Principal{User: u, Kind: catalog.CredSession}
}

// excluded reads which of the world's burst assets burst detection must
// leave alone.
func (w *world) excluded(t *testing.T) []string {
	t.Helper()
	shots, err := w.st.Read().Bursts().Shots(context.Background(), w.burst)
	require.NoError(t, err)
	out := []string{}
	for _, id := range w.burst {
		for _, s := range shots {
			if s.ID == id && s.Excluded {
				out = append(out, id)
			}
		}
	}
	return out
}

func (w *world) createAuto(t *testing.T, ids []string, cover string) *catalog.Stack {
	t.Helper()
	var st *catalog.Stack
	require.NoError(t, w.tx(t, func(r store.Repos) error {
		var err error
		st, err = w.svc.CreateAuto(context.Background(), r, w.lib, ids, cover)
		return err
	}))
	return st
}

func TestMergeAutomaticStacks(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, 6)
	b := w.burst
	first := w.createAuto(t, []string{b[0], b[1]}, b[0])
	second := w.createAuto(t, []string{b[3], b[4]}, b[4])

	t.Run("a user's stack is not folded, and nothing is written", func(t *testing.T) {
		manual, err := w.svc.Create(ctx, w.owner(t), stacks.CreateInput{LibraryID: w.lib, AssetIDs: []string{b[5], b[2]}})
		require.NoError(t, err)
		err = w.tx(t, func(r store.Repos) error {
			_, err := w.svc.MergeAuto(ctx, r, first.ID, []string{second.ID, manual.ID}, nil, "")
			return err
		})
		require.ErrorIs(t, err, catalog.ErrConflict)
		require.Equal(t, &second.ID, w.asset(t, b[3]).AutoStackID())
		require.NoError(t, w.svc.Delete(ctx, w.owner(t), manual.ID))
		require.Empty(t, w.excluded(t), "unstacking a user's stack records nothing")
	})
	t.Run("a bridging shot folds the second stack into the first", func(t *testing.T) {
		var got *catalog.Stack
		require.NoError(t, w.tx(t, func(r store.Repos) error {
			var err error
			got, err = w.svc.MergeAuto(ctx, r, first.ID, []string{second.ID}, []string{b[2]}, b[4])
			return err
		}))
		require.Equal(t, []string{b[0], b[1], b[2], b[3], b[4]}, got.AssetIDs)
		require.Equal(t, b[4], got.CoverAssetID)
		require.Equal(t, catalog.StackAuto, got.Source)
		for _, id := range got.AssetIDs {
			require.Equal(t, &first.ID, w.asset(t, id).AutoStackID())
		}
		_, err := w.st.Read().Stacks().Get(ctx, second.ID)
		require.ErrorIs(t, err, catalog.ErrNotFound)
		evs := w.events()
		require.Contains(t, evs[len(evs)-2], "stack.deleted")
		require.Contains(t, evs[len(evs)-1], "stack.updated")
	})
}

func TestUsersTakingShotsOutOfAutomaticStacks(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, 5)
	b := w.burst
	auto := w.createAuto(t, []string{b[0], b[1], b[2]}, b[0])

	_, err := w.svc.Update(ctx, w.owner(t), auto.ID, stacks.Change{Remove: []string{b[1], b[4]}})
	require.NoError(t, err)
	require.Equal(t, []string{b[1]}, w.excluded(t), "the member removed; not the stranger")

	_, err = w.svc.Update(ctx, w.owner(t), auto.ID, stacks.Change{Add: []string{b[3]}})
	require.NoError(t, err)
	require.NoError(t, w.svc.Delete(ctx, w.owner(t), auto.ID))
	require.Equal(t, []string{b[0], b[1], b[2], b[3]}, w.excluded(t), "unstacked: every member")
}
