package postgres

import (
	"context"
	"errors"
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
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// assetRecorder is a querier that keeps every statement it runs (as sent, with
// its arguments), so a test can ask PostgreSQL for the plans of the SQL the
// repositories really build.
type assetRecorder struct {
	q     querier
	stmts []assetStmt
}

type assetStmt struct {
	sql  string
	args []any
}

func (r *assetRecorder) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.stmts = append(r.stmts, assetStmt{sql, args})
	return r.q.Exec(ctx, sql, args...)
}

func (r *assetRecorder) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.stmts = append(r.stmts, assetStmt{sql, args})
	return r.q.Query(ctx, sql, args...)
}

func (r *assetRecorder) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	r.stmts = append(r.stmts, assetStmt{sql, args})
	return r.q.QueryRow(ctx, sql, args...)
}

// assetPlanDB opens a fresh migrated database holding one library of n
// assets: captured one every 10 minutes from 2020 on, a tenth of them
// trashed, placed on a grid over the whole world, a few in one small spot.
// The statistics are fresh (ANALYZE), so the planner chooses as it would
// for a real library.
func assetPlanDB(t *testing.T, n int) *DB {
	t.Helper()
	db, err := Open(t.Context(), pgtest.NewURL(t, func(ctx context.Context, url string) error {
		d, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return d.Close()
	}))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	_, err = db.pool.Exec(t.Context(), `
		INSERT INTO users (id, email, email_key, created_at, updated_at) VALUES ('user_a', 'a@x', 'a@x', 0, 0);
		INSERT INTO libraries (id, name, name_key, owner_id, created_at, updated_at)
			VALUES ('lib_a', 'A', 'a', 'user_a', 0, 0), ('lib_b', 'B', 'b', 'user_a', 0, 0);`)
	require.NoError(t, err)
	_, err = db.pool.Exec(t.Context(), `
		INSERT INTO assets (id, library_id, contributor_id, media_type, mime_type, original_file_name,
			file_created_at, file_modified_at, capture_wall, capture_instant, checksum, original_size,
			file_size_bytes, latitude, longitude, rating, live, trashed_at, created_at, updated_at)
		SELECT 'asset_' || lpad(i::text, 10, '0'), CASE WHEN i % 50 = 0 THEN 'lib_b' ELSE 'lib_a' END, 'user_a',
			'image', 'image/jpeg', 'f.jpg', 0, 0,
			1577836800000000 + i::bigint * 600000000, 1577836800000000 + i::bigint * 600000000,
			sha256(i::text::bytea), 1, 1,
			CASE WHEN i % 7 = 0 THEN NULL WHEN i % 997 = 0 THEN 48.85 + (i % 10) * 0.001 WHEN i % 10 = 3 THEN 48.5
				ELSE -80 + (i * 37 % 160) END,
			CASE WHEN i % 7 = 0 THEN NULL WHEN i % 997 = 0 THEN 2.35 WHEN i % 10 = 3 THEN 2.5
				ELSE -179 + (i * 53 % 358) END,
			i % 6, CASE WHEN i % 10 = 0 THEN 0 ELSE 1 END, CASE WHEN i % 10 = 0 THEN i ELSE NULL END, 0, 0
		FROM generate_series(1, $1::int) i`, n)
	require.NoError(t, err)
	_, err = db.pool.Exec(t.Context(), `ANALYZE assets`)
	require.NoError(t, err)
	return db
}

// explainAsset returns the plan of one assetStmt statement.
func explainAsset(t *testing.T, db *DB, st assetStmt) string {
	t.Helper()
	return strings.Join(planOf(t, db.pool, st.sql, st.args), "\n")
}

var assetSortStep = regexp.MustCompile(`(?m)^\s*(->\s*)?Sort\b`)

// TestAssetListPlans runs the asset list's hot paths through the real
// repository on a library of 6,000 assets (the spatial index plan taking on
// up to 500 matches instead of 5,000, in proportion) and requires each statement it
// issues to read an index: no sequential scan of assets, and pages of the
// timeline in index order (no sort), a small spot through the spatial index.
func TestAssetListPlans(t *testing.T) {
	defer func(n int) { geoIndexMatches = n }(geoIndexMatches)
	geoIndexMatches = 500
	start := time.Now()
	db := assetPlanDB(t, 6000)
	t.Logf("seeded in %v", time.Since(start))
	day := func(y int, m time.Month, d int) *catalog.TimeBound {
		return &catalog.TimeBound{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
	}
	cases := []struct {
		name     string
		f        query.AssetFilter
		cursor   bool   // also page on from the first page's last row
		index    string // the index the list statement must use
		sortOK   bool
		indexAny []string // or any of these
	}{
		{name: "first page of the timeline", f: query.AssetFilter{LibraryID: "lib_a"}, cursor: true, index: "assets_timeline"},
		{name: "oldest first", f: query.AssetFilter{LibraryID: "lib_a", Asc: true}, cursor: true, index: "assets_timeline"},
		{name: "the trash", f: query.AssetFilter{LibraryID: "lib_a", State: query.StateTrashed}, cursor: true, index: "assets_timeline"},
		{name: "live and trashed together", f: query.AssetFilter{LibraryID: "lib_a", State: query.StateAll}, cursor: true,
			index: "assets_timeline"},
		{name: "live and trashed in a month, oldest first", f: query.AssetFilter{LibraryID: "lib_a", State: query.StateAll,
			Asc: true, Capture: catalog.CaptureRange{After: day(2020, 1, 10), Before: day(2020, 2, 10)}}, cursor: true,
			index: "assets_timeline"},
		{name: "a month window", f: query.AssetFilter{LibraryID: "lib_a",
			Capture: catalog.CaptureRange{After: day(2020, 1, 10), Before: day(2020, 2, 10)}}, cursor: true, index: "assets_timeline"},
		{name: "a month window with offsets", f: query.AssetFilter{LibraryID: "lib_a", Capture: catalog.CaptureRange{
			After:  &catalog.TimeBound{Time: day(2020, 1, 10).Time, HasOffset: true},
			Before: &catalog.TimeBound{Time: day(2020, 2, 10).Time, HasOffset: true}, Absolute: true}}, cursor: true,
			index: "assets_timeline"},
		{name: "images rated 3 and up", f: query.AssetFilter{LibraryID: "lib_a", MediaType: catalog.MediaImage,
			MinRating: ptrTo(3)}, cursor: true, index: "assets_timeline"},
		{name: "a small spot", f: query.AssetFilter{LibraryID: "lib_a",
			Location: &catalog.Location{Box: &catalog.BBox{MinLon: 2.3, MinLat: 48.8, MaxLon: 2.4, MaxLat: 48.9}}},
			cursor: true, index: "assets_geo", sortOK: true},
		{name: "a small circle", f: query.AssetFilter{LibraryID: "lib_a",
			Location: &catalog.Location{Circle: &catalog.Circle{Lon: 2.35, Lat: 48.85, RadiusM: 2000}}},
			index: "assets_geo", sortOK: true},
		{name: "a box over the antimeridian", f: query.AssetFilter{LibraryID: "lib_a",
			Location: &catalog.Location{Box: &catalog.BBox{MinLon: 179.5, MinLat: -10, MaxLon: -179.5, MaxLat: 10}}},
			indexAny: []string{"assets_geo", "assets_timeline"}, sortOK: true},
		{name: "the whole world", f: query.AssetFilter{LibraryID: "lib_a", Location: &catalog.Location{Box: ptrTo(catalog.World)}},
			cursor: true, index: "assets_timeline"},
		{name: "a dense spot", f: query.AssetFilter{LibraryID: "lib_a",
			Location: &catalog.Location{Box: &catalog.BBox{MinLon: 2, MinLat: 48, MaxLon: 3, MaxLat: 49}}},
			cursor: true, index: "assets_geo_timeline", sortOK: true},
		// The expanded view (stacks=expand) lists every stack member: the
		// same walks, without the stack_cover test; geo_cells counts covers
		// only, so a dense box reads every cell it spans, empty or not.
		{name: "every stack member", f: query.AssetFilter{LibraryID: "lib_a", WithStacked: true}, cursor: true,
			index: "assets_timeline"},
		{name: "every stack member, live and trashed, oldest first", f: query.AssetFilter{LibraryID: "lib_a",
			WithStacked: true, State: query.StateAll, Asc: true}, cursor: true, index: "assets_timeline"},
		{name: "every stack member, images rated 3 and up in a month", f: query.AssetFilter{LibraryID: "lib_a",
			WithStacked: true, MediaType: catalog.MediaImage, MinRating: ptrTo(3),
			Capture: catalog.CaptureRange{After: day(2020, 1, 10), Before: day(2020, 2, 10)}}, cursor: true,
			index: "assets_timeline"},
		{name: "every stack member in a dense spot", f: query.AssetFilter{LibraryID: "lib_a", WithStacked: true,
			Location: &catalog.Location{Box: &catalog.BBox{MinLon: 2, MinLat: 48, MaxLon: 3, MaxLat: 49}}},
			cursor: true, index: "assets_geo_timeline", sortOK: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &assetRecorder{q: db.pool}
			r := assets{conn{rec}}
			items, _, err := r.List(t.Context(), c.f, query.Page{Limit: 50})
			require.NoError(t, err)
			if c.cursor {
				require.NotEmpty(t, items)
				_, _, err = r.List(t.Context(), c.f, query.Page{Limit: 50, AfterID: items[len(items)-1].ID})
				require.NoError(t, err)
			}
			require.NotEmpty(t, rec.stmts)
			for _, st := range rec.stmts {
				plan := explainAsset(t, db, st)
				require.NotContains(t, plan, "Seq Scan", "%s\n%s", st.sql, plan)
				if strings.HasPrefix(st.sql, "SELECT coalesce(sum(count), 0) FROM (SELECT count FROM geo_cells") {
					require.Contains(t, plan, "geo_cells_pkey", "the 1° cells are read by key\n%s", plan)
					continue
				}
				if !strings.Contains(st.sql, "ORDER BY") {
					continue // the cursor's own row, found by id
				}
				if c.index != "" {
					require.Contains(t, plan, " "+c.index+" ", plan)
				} else {
					found := false
					for _, ix := range c.indexAny {
						found = found || strings.Contains(plan, " "+ix+" ")
					}
					require.True(t, found, plan)
				}
				if !c.sortOK {
					require.NotRegexp(t, assetSortStep, plan, "a page must come in index order\n%s", plan)
				}
			}
		})
	}
}

// TestAssetLookupPlans requires the other asset and version statements to
// read an index (sequential scans priced out: the tables are empty).
func TestAssetLookupPlans(t *testing.T) {
	db := assetPlanDB(t, 0)
	rec := &assetRecorder{q: db.pool}
	r := newRepos(conn{rec})
	sum := []byte("sum")
	calls := map[string]func(ctx context.Context) error{
		"get": func(ctx context.Context) error { _, err := r.Assets().Get(ctx, "asset_x"); return err },
		"get many": func(ctx context.Context) error {
			_, err := r.Assets().GetMany(ctx, []string{"asset_x", "asset_y"})
			return err
		},
		"by checksum": func(ctx context.Context) error { _, err := r.Assets().FindByChecksum(ctx, "lib_a", sum); return err },
		"ids by checksum": func(ctx context.Context) error {
			_, err := r.Assets().IDsByChecksum(ctx, "lib_a", [][]byte{sum})
			return err
		},
		"by sha1": func(ctx context.Context) error {
			_, err := r.Assets().FindBySHA1(ctx, "lib_a", [][]byte{sum})
			return err
		},
		"seq":       func(ctx context.Context) error { _, err := r.Assets().Seq(ctx, "asset_x"); return err },
		"id by seq": func(ctx context.Context) error { _, err := r.Assets().IDBySeq(ctx, 1); return err },
		"trashed before": func(ctx context.Context) error {
			_, err := r.Assets().TrashedBefore(ctx, time.Unix(1, 0), 10)
			return err
		},
		"versions": func(ctx context.Context) error {
			_, _, err := r.AssetVersions().List(ctx, "asset_x", query.Page{Limit: 10})
			return err
		},
		"previous version": func(ctx context.Context) error {
			_, err := r.AssetVersions().Previous(ctx, "asset_x", "ver_x")
			return err
		},
		"a person's assets": func(ctx context.Context) error {
			_, _, err := r.Assets().List(ctx, query.AssetFilter{LibraryID: "lib_a", PersonIDs: []string{"person_x"}},
				query.Page{Limit: 10})
			return err
		},
		"two people's assets": func(ctx context.Context) error {
			_, _, err := r.Assets().List(ctx, query.AssetFilter{LibraryID: "lib_a",
				PersonIDs: []string{"person_x", "person_y"}}, query.Page{Limit: 10})
			return err
		},
		"an album's assets in a month": func(ctx context.Context) error {
			_, _, err := r.Assets().List(ctx, query.AssetFilter{LibraryID: "lib_a", AlbumID: "album_x",
				Capture: catalog.CaptureRange{After: &catalog.TimeBound{Time: time.Unix(0, 0)}}}, query.Page{Limit: 10})
			return err
		},
		"a stack's members": func(ctx context.Context) error {
			_, _, err := r.Assets().List(ctx, query.AssetFilter{LibraryID: "lib_a", StackID: "stk_x"}, query.Page{Limit: 10})
			return err
		},
	}
	for name, call := range calls {
		rec.stmts = nil
		err := call(t.Context())
		if !errors.Is(err, catalog.ErrNotFound) {
			require.NoError(t, err, name)
		}
		require.NotEmpty(t, rec.stmts, name)
		for _, st := range rec.stmts {
			text := explainIndexed(t, db, st.sql, st.args)
			require.NotContains(t, text, "Seq Scan", fmt.Sprintf("%s: %s\n%s", name, st.sql, text))
		}
	}
}

// Every location plan lists the same assets in the same order: the spatial
// index (every location counted as few matches), and the cells of
// assets_geo_timeline or the timeline walk (every location counted as
// many), page by page.
func TestAssetListLocationPlansAgree(t *testing.T) {
	defer func(n int) { geoIndexMatches = n }(geoIndexMatches)
	db := assetPlanDB(t, 6000)
	r := assets{conn{db.pool}}
	walk := func(f query.AssetFilter) []string { return storetest.ListedAssetIDs(t, r, f, 37) }
	boxes := map[string]catalog.BBox{
		"a dense spot":          {MinLon: 2, MinLat: 48, MaxLon: 3, MaxLat: 49},
		"a region":              {MinLon: 0, MinLat: 0, MaxLon: 40, MaxLat: 40},
		"over the antimeridian": {MinLon: 170, MinLat: -30, MaxLon: -170, MaxLat: 30},
		"the whole world":       catalog.World,
		"an empty ocean":        {MinLon: -30, MinLat: -85, MaxLon: -29.5, MaxLat: -84.5},
	}
	for name, box := range boxes {
		for _, f := range []query.AssetFilter{
			{LibraryID: "lib_a", Location: &catalog.Location{Box: &box}},
			{LibraryID: "lib_a", Location: &catalog.Location{Box: &box}, Asc: true, State: query.StateTrashed},
			{LibraryID: "lib_a", Location: &catalog.Location{Box: &box}, MinRating: ptrTo(2)},
			{LibraryID: "lib_a", Location: &catalog.Location{Box: &box}, WithStacked: true}, // every cell the box spans
			{LibraryID: "lib_a", Location: &catalog.Location{Box: &box}, WithStacked: true, Asc: true, MinRating: ptrTo(2)},
		} {
			geoIndexMatches = 1 << 30
			index := walk(f)
			geoIndexMatches = 0
			require.Equal(t, index, walk(f), "%s: %+v", name, f)
		}
	}
}
