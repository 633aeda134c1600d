package postgres

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// planRecorder records every statement run through it (as sent: with $n
// placeholders), reads and writes.
type planRecorder struct {
	q     querier
	stmts []string
	args  [][]any
}

func (r *planRecorder) note(sql string, args []any) {
	r.stmts, r.args = append(r.stmts, sql), append(r.args, args)
}

func (r *planRecorder) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.note(sql, args)
	return r.q.Exec(ctx, sql, args...)
}

func (r *planRecorder) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.note(sql, args)
	return r.q.Query(ctx, sql, args...)
}

func (r *planRecorder) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	r.note(sql, args)
	return r.q.QueryRow(ctx, sql, args...)
}

// albumFixture is a library of many assets in many small albums and
// stacks and one larger album, among many libraries of albums. PostgreSQL
// plans by statistics: a fixture whose library or album held most of the
// rows would rightly be read by a scan in id order with a filter.
type albumFixture struct {
	db     *DB
	lib    string
	assets []string
	albums []string // the small albums, oldest first
	album  string   // the larger album
	links  []string
	stack  string
}

// newAlbumFixture seeds the assets with SQL (so the fixture needs nothing
// of the assets repository but its table) and the albums, links and
// stacks through the repositories under test, then analyzes the tables.
func newAlbumFixture(t *testing.T) *albumFixture {
	t.Helper()
	ctx := t.Context()
	db, err := Open(ctx, pgtest.NewURL(t, func(ctx context.Context, url string) error {
		db, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return db.Close()
	}))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	f := &albumFixture{db: db}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	user := catalog.NewID(catalog.PrefixUser, now)
	f.lib = catalog.NewID(catalog.PrefixLibrary, now)
	others := make([]string, 100)
	for i := range others {
		others[i] = catalog.NewID(catalog.PrefixLibrary, now)
	}
	const n = 3000
	require.NoError(t, db.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, &catalog.User{ID: user, Email: "a@example.com", IsActive: true,
			CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
		for i, id := range append([]string{f.lib}, others...) {
			if err := r.Libraries().Create(ctx, &catalog.Library{ID: id, Name: fmt.Sprint("library ", i),
				OwnerID: user, CreatedAt: now, UpdatedAt: now}); err != nil {
				return err
			}
		}
		q := r.(repos).q
		if _, err := q.exec(ctx, `INSERT INTO assets (id, library_id, contributor_id, media_type, mime_type,
			original_file_name, file_created_at, file_modified_at, capture_wall, capture_instant, checksum,
			original_size, file_size_bytes, created_at, updated_at)
			SELECT 'asset_' || lpad(i::text, 8, '0'), ?, ?, 'image', 'image/jpeg', 'a.jpg', 0, 0,
				?::bigint - i * 3600000000, ?::bigint - i * 3600000000, sha256(i::text::bytea), 1, 1, 0, 0
			FROM generate_series(1, ?::integer) i`, f.lib, user, now.UnixMicro(), now.UnixMicro(), n); err != nil {
			return err
		}
		for i := range n {
			f.assets = append(f.assets, fmt.Sprintf("asset_%08d", i+1))
		}
		at := now
		for i := range 300 {
			at = at.Add(time.Second)
			id, err := f.addAlbum(ctx, r, f.lib, fmt.Sprint("album ", i), at, f.assets[i*10:i*10+10])
			if err != nil {
				return err
			}
			f.albums = append(f.albums, id)
		}
		at = at.Add(time.Second)
		if f.album, err = f.addAlbum(ctx, r, f.lib, "larger", at, f.assets[1000:1200]); err != nil {
			return err
		}
		// The other libraries' albums are older and newer than this
		// library's (ids album_0... and album_z...): a walk of the album
		// ids filtered by library would meet many of them.
		if _, err := q.exec(ctx, `INSERT INTO albums (id, library_id, name, name_key, created_at, updated_at)
			SELECT 'album_' || CASE WHEN i % 2 = 0 THEN '0' ELSE 'z' END || lpad(i::text, 8, '0'), (?::text[])[1 + i % 100], 'x' || i, 'x' || i, 0, 0
			FROM generate_series(1, 50000) i`, others); err != nil {
			return err
		}
		for i := 0; i+1 < 400; i += 2 {
			st := &catalog.Stack{ID: catalog.NewID(catalog.PrefixStack, now), LibraryID: f.lib,
				CoverAssetID: f.assets[i], AssetIDs: []string{f.assets[i], f.assets[i+1]},
				Source: catalog.StackAuto, CreatedAt: now, UpdatedAt: now}
			if err := r.Stacks().Create(ctx, st); err != nil {
				return err
			}
			f.stack = st.ID
		}
		return nil
	}))
	_, err = db.pool.Exec(ctx, "ANALYZE")
	require.NoError(t, err)
	return f
}

// addAlbum creates an album of these members.
func (f *albumFixture) addAlbum(ctx context.Context, r store.Repos, lib, name string, at time.Time, members []string) (string, error) {
	al := &catalog.Album{ID: catalog.NewID(catalog.PrefixAlbum, at), LibraryID: lib, Name: name,
		CreatedAt: at, UpdatedAt: at}
	if err := r.Albums().Create(ctx, al); err != nil {
		return "", err
	}
	for _, a := range members {
		l := &catalog.AlbumAsset{ID: catalog.NewID(catalog.PrefixAlbumAsset, at), AlbumID: al.ID, AssetID: a,
			LibraryID: lib, CreatedAt: at, UpdatedAt: at}
		if err := r.Albums().AddLink(ctx, l); err != nil {
			return "", err
		}
		f.links = append(f.links, l.ID)
	}
	return al.ID, nil
}

// TestAlbumAndStackQueriesUseIndexes runs every album, link, stack and
// burst query of the store (storetest.AlbumPlanCases and this store's
// own, reads and writes) and explains each: none may scan a table, the
// named index must drive, and a sort is allowed only where the rows
// sorted are one asset's links or albums, one album's or stack's few rows,
// or a handful of ids.
func TestAlbumAndStackQueriesUseIndexes(t *testing.T) {
	f := newAlbumFixture(t)
	ctx := t.Context()
	lib := f.lib
	cases := append(storetest.AlbumPlanCases(ctx, storetest.AlbumPlanFixture{Lib: lib, Album: f.album, Other: f.albums[1],
		AlbumName: "album 9", CursorAsset: f.assets[1100], Member: f.assets[1025], Pair: f.assets[1025:1027],
		LinkIDs: f.links[:5], AlbumLink: f.links[3000+100], LibraryLink: f.links[300], AlbumCursor: f.albums[200],
		Stack: f.stack, StackAddition: f.assets[1000], LinkKey: "album_assets_pkey"}),
		storetest.PlanCase{Name: "a library's albums, first page", Run: func(r store.Repos) error {
			_, _, err := r.Albums().List(ctx, query.AlbumFilter{LibraryID: lib}, query.Page{Limit: 20})
			return err
		}, Index: "albums_library"},
		storetest.PlanCase{Name: "an album by id, with its dates and cover", Run: func(r store.Repos) error {
			_, err := r.Albums().Get(ctx, f.album)
			return err
		}, Index: "album_assets_timeline"},
		storetest.PlanCase{Name: "a new link", Run: func(r store.Repos) error {
			return r.Albums().AddLink(ctx, &catalog.AlbumAsset{ID: "aa_new", AlbumID: f.album,
				AssetID: f.assets[2999], LibraryID: lib, CreatedAt: time.Unix(0, 0), UpdatedAt: time.Unix(0, 0)})
		}, Index: "assets_pkey"},
		storetest.PlanCase{Name: "a shot's neighbours", Run: func(r store.Repos) error {
			now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			_, err := r.Bursts().Near(ctx, lib, now.Add(-48*time.Hour), now.Add(-40*time.Hour), 400)
			return err
		}, Index: "assets_capture_instant"},
		storetest.PlanCase{Name: "shots by id, exclusions", Run: func(r store.Repos) error {
			if _, err := r.Bursts().Shots(ctx, f.assets[:3]); err != nil {
				return err
			}
			return r.Bursts().Exclude(ctx, f.assets[:2], time.Unix(0, 0))
		}, Index: "assets_pkey"})
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			tx, err := f.db.pool.Begin(ctx)
			require.NoError(t, err)
			defer tx.Rollback(context.WithoutCancel(ctx)) // every case sees the same fixture
			_, err = tx.Exec(ctx, "SET LOCAL enable_seqscan = off")
			require.NoError(t, err)
			rec := &planRecorder{q: tx}
			require.NoError(t, c.Run(newRepos(conn{rec})))
			var all []string
			for i, sql := range rec.stmts {
				plan := planOf(t, tx, sql, rec.args[i])
				text := strings.Join(plan, "\n")
				t.Logf("%s\nplan:\n%s", strings.Join(strings.Fields(sql), " "), text)
				require.NotContains(t, text, "Seq Scan", "a table scan in: %s", sql)
				if !c.SortOK {
					require.NotRegexp(t, sortNode, text, "a sort in: %s", sql)
				}
				all = append(all, plan...)
			}
			require.Contains(t, strings.Join(all, "\n"), c.Index)
		})
	}
}

// sortNode matches a plan's full sort step. An incremental sort, which
// orders the ties of an index's order among themselves (a shot's
// neighbours by upload order within one capture instant), is allowed.
var sortNode = regexp.MustCompile(`(?m)^\s*(->\s*)?Sort\s+\(`)
