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
// query of the store (reads and writes) and explains each: none may scan a
// table, the named index must drive, and a sort is allowed only where the
// rows sorted are one asset's links or albums, or a handful of ids.
func TestAlbumAndStackQueriesUseIndexes(t *testing.T) {
	f := newAlbumFixture(t)
	ctx := t.Context()
	lib := f.lib
	page := store.Page{Limit: 20}
	after := func(id string) store.Page { return store.Page{Limit: 20, AfterID: id} }
	cases := []struct {
		name       string
		run        func(r store.Repos) error
		index      string // must appear in the plan of the main statement
		tempSortOK bool
	}{
		{"an album's assets, first page", func(r store.Repos) error {
			_, _, err := r.Assets().List(ctx, store.AssetFilter{LibraryID: lib, AlbumID: f.album}, page)
			return err
		}, "album_assets_timeline", false},
		{"an album's assets after a cursor, oldest first", func(r store.Repos) error {
			_, _, err := r.Assets().List(ctx, store.AssetFilter{LibraryID: lib, AlbumID: f.album, Asc: true},
				after(f.cursorAssetID))
			return err
		}, "album_assets_timeline", false},
		{"an album's trashed assets", func(r store.Repos) error {
			_, _, err := r.Assets().List(ctx, store.AssetFilter{LibraryID: lib, AlbumID: f.album,
				State: store.StateTrashed, MediaType: catalog.MediaImage}, page)
			return err
		}, "album_assets_timeline", false},
		{"an album's links, first page", func(r store.Repos) error {
			_, _, err := r.Albums().ListLinks(ctx, store.AlbumAssetFilter{LibraryID: lib, AlbumID: f.album}, page)
			return err
		}, "album_assets_album", false},
		{"an album's links after a cursor", func(r store.Repos) error {
			_, _, err := r.Albums().ListLinks(ctx, store.AlbumAssetFilter{LibraryID: lib, AlbumID: f.album}, after(f.links[45]))
			return err
		}, "album_assets_album", false},
		{"an asset's links", func(r store.Repos) error {
			_, _, err := r.Albums().ListLinks(ctx, store.AlbumAssetFilter{LibraryID: lib, AssetID: f.assets[25].ID}, page)
			return err
		}, "album_assets_asset", false},
		{"a library's links after a cursor", func(r store.Repos) error {
			_, _, err := r.Albums().ListLinks(ctx, store.AlbumAssetFilter{LibraryID: lib}, after(f.links[3]))
			return err
		}, "album_assets_library", false},
		{"links by id", func(r store.Repos) error {
			_, _, err := r.Albums().ListLinks(ctx, store.AlbumAssetFilter{LibraryID: lib, IDs: f.links[:5]}, page)
			return err
		}, "sqlite_autoindex_album_assets_1", true},
		{"a library's albums after a cursor", func(r store.Repos) error {
			_, _, err := r.Albums().List(ctx, store.AlbumFilter{LibraryID: lib}, after(f.album))
			return err
		}, "albums_library", false},
		{"an asset's albums", func(r store.Repos) error {
			_, _, err := r.Albums().List(ctx, store.AlbumFilter{LibraryID: lib, AssetID: f.assets[25].ID}, page)
			return err
		}, "album_assets_asset", true},
		{"an album by name", func(r store.Repos) error {
			_, err := r.Albums().FindByName(ctx, lib, "one")
			return err
		}, "albums_library_name", false},
		{"link, unlink and delete", func(r store.Repos) error {
			links, err := r.Albums().Links(ctx, f.album, []string{f.assets[25].ID, f.assets[26].ID})
			if err != nil {
				return err
			}
			if _, err := r.Albums().LinksOfAssets(ctx, []string{f.assets[25].ID}); err != nil {
				return err
			}
			if err := r.Albums().RemoveLinks(ctx, []string{links[0].ID}); err != nil {
				return err
			}
			return r.Albums().Delete(ctx, f.other)
		}, "album_assets_pair", true},
		{"a library's stacks", func(r store.Repos) error {
			_, _, err := r.Stacks().List(ctx, store.StackFilter{LibraryID: lib}, after(f.stack))
			return err
		}, "stacks_library", true},
		{"a stack's writes", func(r store.Repos) error {
			st, err := r.Stacks().Get(ctx, f.stack)
			if err != nil {
				return err
			}
			st.AssetIDs = append(st.AssetIDs[1:], f.assets[2].ID)
			st.CoverAssetID = st.AssetIDs[0]
			if err := r.Stacks().Update(ctx, st); err != nil {
				return err
			}
			return r.Stacks().Delete(ctx, st.ID)
		}, "assets_stack", true},
		{"an asset with its stack", func(r store.Repos) error {
			_, err := r.Assets().Get(ctx, f.assets[0].ID)
			return err
		}, "assets_stack", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tx, err := f.db.writer.BeginTx(ctx, nil)
			require.NoError(t, err)
			defer tx.Rollback() // every case sees the same fixture
			rec := &planRecorder{querier: tx}
			require.NoError(t, c.run(newRepos(rec)))
			var all []string
			for i, q := range rec.stmts {
				plan := explainIn(t, tx, q, rec.args[i])
				t.Logf("%s\nplan:\n  %s", strings.Join(strings.Fields(q), " "), strings.Join(plan, "\n  "))
				for _, row := range plan {
					require.False(t, fullScan(row), "full scan: %s\nin: %s", row, q)
					if !c.tempSortOK {
						require.NotContains(t, row, "TEMP B-TREE", "a sort in: %s", q)
					}
				}
				all = append(all, plan...)
			}
			require.Contains(t, strings.Join(all, "\n"), c.index)
		})
	}
}

// explainIn is explain over any connection or transaction.
func explainIn(t *testing.T, q querier, query string, args []any) []string {
	t.Helper()
	rows, err := q.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+query, args...)
	require.NoError(t, err)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notUsed int
		var detail string
		require.NoError(t, rows.Scan(&id, &parent, &notUsed, &detail))
		plan = append(plan, detail)
	}
	require.NoError(t, rows.Err())
	return plan
}
