package storetest

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// stackWritesKeepAggregates makes random stacks over random assets and
// changes them the way the stack service does (create, add, remove, new
// cover, unstack; trash, restore and delete members, then write the stack
// again), and requires the maintained counts and cells (whose triggers
// follow stack_cover, which only the stacks repository writes) to equal a
// fresh computation, and stack_cover to be exactly "unstacked, the cover,
// or trashed".
func stackWritesKeepAggregates(t *testing.T, h SQLStore) {
	f := NewAggFixture(t, h)
	rng := rand.New(rand.NewPCG(5, 8))
	all := SeedRandom(t, f, rng, 400)
	ctx := context.Background()
	now := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	// SeedRandom flips stack_cover on unstacked assets; start from the rule.
	require.NoError(t, f.S.InTx(ctx, func(r store.Repos) error {
		return h.Exec(ctx, r, `UPDATE assets SET stack_cover = 1 WHERE stack_cover = 0`)
	}))
	var err error
	var stackIDs []string
	unstacked := func(r store.Repos, lib string, n int) []string {
		var out []string
		for _, i := range rng.Perm(len(all)) {
			a, err := r.Assets().Get(ctx, all[i].ID)
			if err != nil || a.LibraryID != lib || a.StackID != nil {
				continue
			}
			if out = append(out, a.ID); len(out) == n {
				break
			}
		}
		return out
	}
	for round := range 300 {
		// One writer: InTx never runs a round twice (no serialization
		// failure without a concurrent transaction).
		require.NoError(t, f.S.InTx(ctx, func(r store.Repos) error {
			lib := []string{f.Lib, f.Lib2}[rng.IntN(2)]
			var st *catalog.Stack
			if len(stackIDs) > 0 {
				if st, err = r.Stacks().Get(ctx, stackIDs[rng.IntN(len(stackIDs))]); err != nil {
					return err
				}
			}
			switch op := rng.IntN(6); {
			case op == 0 || st == nil:
				ids := unstacked(r, lib, 2+rng.IntN(4))
				if len(ids) < 2 {
					return nil
				}
				st = &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, now), LibraryID: lib,
					CoverAssetID: ids[rng.IntN(len(ids))], AssetIDs: ids, Source: catalog.StackManual,
					CreatedAt: now, UpdatedAt: now}
				stackIDs = append(stackIDs, st.ID)
				return r.Stacks().Create(ctx, st)
			case op == 1: // add, remove, new cover
				st.AssetIDs = append(st.AssetIDs, unstacked(r, st.LibraryID, rng.IntN(3))...)
				if len(st.AssetIDs) > 2 {
					st.AssetIDs = slices.Delete(st.AssetIDs, 0, 1)
				}
				st.CoverAssetID = st.AssetIDs[rng.IntN(len(st.AssetIDs))]
				return r.Stacks().Update(ctx, st)
			case op == 2: // trash or restore members, then write the stack again
				var at *time.Time
				if rng.IntN(2) == 0 {
					at = &now
				}
				if err := r.Assets().SetTrashed(ctx, st.AssetIDs[:1+rng.IntN(len(st.AssetIDs))], at, now); err != nil {
					return err
				}
				return r.Stacks().Update(ctx, st)
			case op == 3: // delete a member
				gone := st.AssetIDs[rng.IntN(len(st.AssetIDs))]
				if err := r.Assets().Delete(ctx, []string{gone}); err != nil {
					return err
				}
				st.AssetIDs = slices.DeleteFunc(st.AssetIDs, func(id string) bool { return id == gone })
				if len(st.AssetIDs) < catalog.MinStackAssets {
					stackIDs = slices.DeleteFunc(stackIDs, func(id string) bool { return id == st.ID })
					return r.Stacks().Delete(ctx, st.ID)
				}
				if st.CoverAssetID == gone {
					st.CoverAssetID = st.AssetIDs[0]
				}
				return r.Stacks().Update(ctx, st)
			case op == 4 && round%5 == 0: // unstack
				stackIDs = slices.DeleteFunc(stackIDs, func(id string) bool { return id == st.ID })
				return r.Stacks().Delete(ctx, st.ID)
			}
			return nil
		}), "round %d", round)
	}
	require.NotEmpty(t, stackIDs)
	require.Empty(t, h.Rows(t, f.S, `SELECT id FROM assets a WHERE stack_cover IS DISTINCT FROM CASE
		WHEN stack_id IS NULL THEN 1 ELSE CAST((live = 0 OR id = (SELECT cover_asset_id FROM stacks WHERE id = a.stack_id)) AS integer) END`))
	require.Empty(t, h.Rows(t, f.S, `SELECT id FROM stacks s WHERE
		(SELECT count(*) FROM assets WHERE stack_id = s.id) < 2
		OR NOT EXISTS (SELECT 1 FROM assets WHERE id = s.cover_asset_id AND stack_id = s.id)`))
	// The comparisons of FollowWrites.
	for _, c := range freshAggregates(h.Q(f.S).Dialect()) {
		require.ElementsMatch(t, h.Rows(t, f.S, c.fresh), h.Rows(t, f.S, c.maintained))
	}
}
