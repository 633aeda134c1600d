package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// planRecorder records every statement run through it, reads and writes.
type planRecorder struct {
	querier
	stmts []string
	args  [][]any
}

func (r *planRecorder) note(q string, args []any) {
	r.stmts, r.args = append(r.stmts, q), append(r.args, args)
}

func (r *planRecorder) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	r.note(q, args)
	return r.querier.QueryContext(ctx, q, args...)
}

func (r *planRecorder) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	r.note(q, args)
	return r.querier.QueryRowContext(ctx, q, args...)
}

func (r *planRecorder) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	r.note(q, args)
	return r.querier.ExecContext(ctx, q, args...)
}

// albumFixture is an aggregate fixture with random assets, two albums and a
// stack.
type albumFixture struct {
	*aggFixture
	assets        []*catalog.Asset
	album, other  string
	links         []string
	stack         string
	cursorAssetID string
}

func newAlbumFixture(t *testing.T) *albumFixture {
	t.Helper()
	f := &albumFixture{aggFixture: newAggFixture(t)}
	ctx := context.Background()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, f.db.InTx(ctx, func(r store.Repos) error {
		for i := range 60 {
			a := f.newAsset(f.lib, now.Add(-time.Duration(i)*time.Hour), nil, catalog.MediaImage, nil, nil)
			if err := r.Assets().Create(ctx, a); err != nil {
				return err
			}
			f.assets = append(f.assets, a)
		}
		for i, name := range []string{"one", "two"} {
			al := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, now), LibraryID: f.lib, Name: name,
				CreatedAt: now, UpdatedAt: now}
			if err := r.Albums().Create(ctx, al); err != nil {
				return err
			}
			for _, a := range f.assets[i*20 : i*20+30] {
				l := &catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, now), AlbumID: al.ID,
					AssetID: a.ID, LibraryID: f.lib, CreatedAt: now, UpdatedAt: now}
				if err := r.Albums().AddLink(ctx, l); err != nil {
					return err
				}
				f.links = append(f.links, l.ID)
			}
			f.other, f.album = f.album, al.ID
		}
		st := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, now), LibraryID: f.lib,
			CoverAssetID: f.assets[0].ID, AssetIDs: []string{f.assets[0].ID, f.assets[1].ID},
			Source: catalog.StackAuto, CreatedAt: now, UpdatedAt: now}
		f.stack = st.ID
		return r.Stacks().Create(ctx, st)
	}))
	f.cursorAssetID = f.assets[25].ID
	return f
}

// TestAlbumAndStackQueriesUseIndexes runs every album, link and stack
// query of the store (storetest.AlbumPlanCases, reads and writes) and
// explains each: none may scan a table, the named index must drive, and a
// sort is allowed only where the rows sorted are one asset's albums, or a
// handful of ids (an asset's links come in order from their index).
func TestAlbumAndStackQueriesUseIndexes(t *testing.T) {
	f := newAlbumFixture(t)
	ctx := t.Context()
	cases := append(storetest.AlbumPlanCases(ctx, storetest.AlbumPlanFixture{Lib: f.lib, Album: f.album, Other: f.other,
		AlbumName: "one", CursorAsset: f.cursorAssetID, Member: f.assets[25].ID,
		Pair: []string{f.assets[25].ID, f.assets[26].ID}, LinkIDs: f.links[:5], AlbumLink: f.links[45],
		LibraryLink: f.links[3], AlbumCursor: f.album, Stack: f.stack, StackAddition: f.assets[2].ID,
		LinkKey: "sqlite_autoindex_album_assets_1"}),
		storetest.PlanCase{Name: "an asset with its stack", Run: func(r store.Repos) error {
			_, err := r.Assets().Get(ctx, f.assets[0].ID)
			return err
		}, Index: "assets_stack"})
	for _, c := range cases {
		if c.Name == "an asset's links" {
			c.SortOK = false
		}
		t.Run(c.Name, func(t *testing.T) {
			tx, err := f.db.writer.BeginTx(ctx, nil)
			require.NoError(t, err)
			defer tx.Rollback() // every case sees the same fixture
			rec := &planRecorder{querier: tx}
			require.NoError(t, c.Run(newRepos(rec)))
			var all []string
			for i, q := range rec.stmts {
				plan := explain(t, tx, q, rec.args[i])
				t.Logf("%s\nplan:\n  %s", strings.Join(strings.Fields(q), " "), strings.Join(plan, "\n  "))
				for _, row := range plan {
					require.False(t, fullScan(row), "full scan: %s\nin: %s", row, q)
					if !c.SortOK {
						require.NotContains(t, row, "TEMP B-TREE", "a sort in: %s", q)
					}
				}
				all = append(all, plan...)
			}
			require.Contains(t, strings.Join(all, "\n"), c.Index)
		})
	}
}
