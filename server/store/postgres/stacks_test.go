package postgres

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

// TestStackWritesKeepAggregates makes random stacks over random assets and
// changes them the way the stack service does (create, add, remove, new
// cover, unstack; trash, restore and delete members, then write the stack
// again), and requires the maintained counts and cells (migration 0006's
// triggers follow stack_cover, which only stacks.go writes) to equal a
// fresh computation, and stack_cover to be exactly "unstacked, the cover,
// or trashed". A port of the SQLite store's test of the same name.
func TestStackWritesKeepAggregates(t *testing.T) {
	f := newAggFixture(t)
	rng := rand.New(rand.NewPCG(5, 8))
	all := seedRandom(t, f, rng, 400)
	ctx := context.Background()
	now := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	// seedRandom flips stack_cover on unstacked assets; start from the rule.
	_, err := f.db.pool.Exec(ctx, `UPDATE assets SET stack_cover = 1 WHERE stack_cover = 0`)
	require.NoError(t, err)

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
		require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
			lib := []string{f.lib, f.lib2}[rng.IntN(2)]
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
	require.Empty(t, tableRows(t, f.db, `SELECT id FROM assets a WHERE stack_cover IS DISTINCT FROM CASE
		WHEN stack_id IS NULL THEN 1 ELSE (live = 0 OR id = (SELECT cover_asset_id FROM stacks WHERE id = a.stack_id))::integer END`))
	require.Empty(t, tableRows(t, f.db, `SELECT id FROM stacks s WHERE
		(SELECT count(*) FROM assets WHERE stack_id = s.id) < 2
		OR NOT EXISTS (SELECT 1 FROM assets WHERE id = s.cover_asset_id AND stack_id = s.id)`))
	// The comparisons of TestAggregatesFollowWrites.
	for _, c := range []struct{ maintained, fresh string }{
		{`SELECT library_id, live, day, media_type, rating, count FROM asset_day_counts`,
			`SELECT library_id, live, ` + sqlDay + `, media_type, coalesce(rating, -1), count(*)
			FROM assets a WHERE stack_cover = 1 GROUP BY 1, 2, 3, 4, 5`},
		{`SELECT library_id, live, units, cx, cy, count, sum_x, sum_y, rep_id FROM geo_cells`,
			`SELECT library_id, live, units, x / units, y / units, count(*), sum(x)::bigint, sum(y)::bigint, max(id)
			FROM (SELECT a.library_id, a.live, a.id, l.units, ` + sqlX + ` AS x, ` + sqlY + ` AS y
			FROM assets a, geo_levels l WHERE a.stack_cover = 1 AND a.latitude IS NOT NULL) p
			GROUP BY 1, 2, 3, 4, 5`},
	} {
		require.ElementsMatch(t, tableRows(t, f.db, c.fresh), tableRows(t, f.db, c.maintained))
	}
}
