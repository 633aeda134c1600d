package sqlite

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// TestBurstQueriesUseIndexes explains every statement the burst detector's
// store issues over a library of many assets: a shot's neighbours are one
// range of assets_capture_instant, never a walk of the library.
func TestBurstQueriesUseIndexes(t *testing.T) {
	ctx := context.Background()
	f := newAggFixture(t)
	start := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	var ids []string
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		for i := range 500 {
			a := f.newAsset(f.lib, start.Add(time.Duration(i)*300*time.Millisecond), nil, catalog.MediaImage, nil, nil)
			if err := r.Assets().Create(ctx, a); err != nil {
				return err
			}
			ids = append(ids, a.ID)
		}
		return nil
	}))
	cases := []struct {
		name  string
		run   func(r store.Repos) error
		index string
	}{
		{"a shot's neighbours", func(r store.Repos) error {
			_, err := r.Bursts().Near(ctx, f.lib, start.Add(9*time.Second), start.Add(11*time.Second), 400)
			return err
		}, "assets_capture_instant"},
		{"shots by id", func(r store.Repos) error {
			_, err := r.Bursts().Shots(ctx, ids[:3])
			return err
		}, "sqlite_autoindex_assets"},
		{"exclusions", func(r store.Repos) error {
			return r.Bursts().Exclude(ctx, ids[:2], start)
		}, "sqlite_autoindex_assets"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tx, err := f.db.writer.BeginTx(ctx, nil)
			require.NoError(t, err)
			defer tx.Rollback()
			rec := &planRecorder{querier: tx}
			require.NoError(t, c.run(newRepos(rec)))
			var all []string
			for i, q := range rec.stmts {
				plan := explain(t, tx, q, rec.args[i])
				t.Logf("%s\nplan:\n  %s", strings.Join(strings.Fields(q), " "), strings.Join(plan, "\n  "))
				for _, row := range plan {
					require.False(t, fullScan(row), "full scan: %s\nin: %s", row, q)
					require.NotContains(t, row, "TEMP B-TREE", "a sort in: %s", q)
				}
				all = append(all, plan...)
			}
			require.Contains(t, strings.Join(all, "\n"), c.index)
		})
	}
}

// TestBurstShotsReadTheRow checks what Shots and Near read from a row: the
// file layer's camera, the metrics' hash and quality, the instant with its
// offset, the stack and the exclusion.
func TestBurstShotsReadTheRow(t *testing.T) {
	ctx := context.Background()
	f := newAggFixture(t)
	wall := time.Date(2024, 5, 1, 10, 0, 0, 500_000_000, time.UTC)
	off := 7200
	a := f.newAsset(f.lib, wall, &off, catalog.MediaImage, nil, nil)
	mk, model := "FUJIFILM", "X-T5"
	a.FileMeta.Make, a.FileMeta.Model = &mk, &model
	a.DeviceID = "phone"
	a.Metrics = map[string]any{"phash": "00ff00ff00ff00ff", "quality": 0.625}
	b := f.newAsset(f.lib, wall.Add(-2*time.Hour), nil, catalog.MediaImage, nil, nil) // the same instant, no offset
	other := f.newAsset(f.lib2, wall.Add(-2*time.Hour), nil, catalog.MediaImage, nil, nil)
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		for _, x := range []*catalog.Asset{a, b, other} {
			if err := r.Assets().Create(ctx, x); err != nil {
				return err
			}
		}
		st := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, wall), LibraryID: f.lib, CoverAssetID: a.ID,
			AssetIDs: []string{a.ID, b.ID}, Source: catalog.StackAuto, CreatedAt: wall, UpdatedAt: wall}
		if err := r.Stacks().Create(ctx, st); err != nil {
			return err
		}
		if err := r.Bursts().Exclude(ctx, []string{b.ID, "asset_missing"}, wall); err != nil {
			return err
		}
		return r.Bursts().Exclude(ctx, []string{b.ID}, wall) // twice is once
	}))
	near, err := f.db.Read().Bursts().Near(ctx, f.lib, wall.Add(-2*time.Hour), wall.Add(-2*time.Hour), 10)
	require.NoError(t, err)
	require.Len(t, near, 2, "the other library's shot is not near")
	got := map[string]store.BurstShot{near[0].ID: near[0], near[1].ID: near[1]}
	stackID := got[a.ID].StackID
	require.NotEmpty(t, stackID)
	q := 0.625
	require.Equal(t, store.BurstShot{ID: a.ID, LibraryID: f.lib, DeviceID: "phone", Make: mk, Model: model,
		Instant: wall.Add(-2 * time.Hour), PHash: "00ff00ff00ff00ff", Quality: &q, StackID: stackID,
		StackSource: catalog.StackAuto, Live: true}, got[a.ID])
	require.Equal(t, store.BurstShot{ID: b.ID, LibraryID: f.lib, Instant: wall.Add(-2 * time.Hour),
		StackID: stackID, StackSource: catalog.StackAuto, Live: true, Excluded: true}, got[b.ID])

	shots, err := f.db.Read().Bursts().Shots(ctx, []string{b.ID, "asset_missing"})
	require.NoError(t, err)
	require.Equal(t, []store.BurstShot{got[b.ID]}, shots)

	now := time.Now()
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		return r.Assets().SetTrashed(ctx, []string{a.ID}, &now, now)
	}))
	near, err = f.db.Read().Bursts().Near(ctx, f.lib, wall.Add(-3*time.Hour), wall, 10)
	require.NoError(t, err)
	require.Len(t, near, 1, "trashed shots are not near")
	require.Equal(t, b.ID, near[0].ID)
}
