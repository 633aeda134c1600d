package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// aggRecorder is a querier that keeps every statement it runs, so a test
// can ask PostgreSQL for the plans of the SQL the repository really builds.
type aggRecorder struct {
	q     querier
	stmts []aggStmt
}

type aggStmt struct {
	sql  string
	args []any
}

func (r *aggRecorder) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.stmts = append(r.stmts, aggStmt{sql, args})
	return r.q.Exec(ctx, sql, args...)
}

func (r *aggRecorder) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.stmts = append(r.stmts, aggStmt{sql, args})
	return r.q.Query(ctx, sql, args...)
}

func (r *aggRecorder) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	r.stmts = append(r.stmts, aggStmt{sql, args})
	return r.q.QueryRow(ctx, sql, args...)
}

// aggPlanDB is a fresh database holding library lib_a of n assets captured
// one every 3 hours from 2020 on, nine in ten located all over the world,
// a tenth trashed, with fresh statistics. The rows go in through one
// statement, so the triggers of 0003_aggregates build the aggregates as they would
// for uploads.
func aggPlanDB(t testing.TB, n int) *DB {
	t.Helper()
	db := openMigrated(t)
	ctx := context.Background()
	_, err := db.pool.Exec(ctx, `
		INSERT INTO users (id, email, email_key, created_at, updated_at) VALUES ('user_a', 'a@x', 'a@x', 0, 0);
		INSERT INTO libraries (id, name, name_key, owner_id, created_at, updated_at)
			VALUES ('lib_a', 'A', 'a', 'user_a', 0, 0)`)
	require.NoError(t, err)
	seedAggAssets(t, db, "lib_a", "user_a", 0, n)
	_, err = db.pool.Exec(ctx, `ANALYZE assets; ANALYZE asset_day_counts; ANALYZE geo_cells`)
	require.NoError(t, err)
	return db
}

// seedAggAssets inserts assets first..first+n-1 of a library in one
// statement.
func seedAggAssets(t testing.TB, db *DB, lib, user string, first, n int) {
	t.Helper()
	_, err := db.pool.Exec(context.Background(), `
		INSERT INTO assets (id, library_id, contributor_id, media_type, mime_type, original_file_name,
			file_created_at, file_modified_at, capture_wall, capture_instant, checksum, original_size,
			file_size_bytes, latitude, longitude, rating, live, trashed_at, created_at, updated_at)
		SELECT 'asset_' || lpad(i::text, 10, '0'), $1, $2, CASE WHEN i % 10 = 3 THEN 'video' ELSE 'image' END,
			'image/jpeg', 'f.jpg', 0, 0,
			1577836800000000 + i::bigint * 10800000000, 1577836800000000 + i::bigint * 10800000000,
			sha256(i::text::bytea), 1, 1,
			CASE WHEN i % 10 = 0 THEN NULL ELSE -85 + (i * 0.6180339887 * 170) % 170 END,
			CASE WHEN i % 10 = 0 THEN NULL ELSE -180 + (i * 0.7548776662 * 360) % 360 END,
			CASE WHEN i % 5 = 0 THEN i % 6 END, CASE WHEN i % 10 = 7 THEN 0 ELSE 1 END,
			CASE WHEN i % 10 = 7 THEN 1 END, 0, 0
		FROM generate_series($3::int, $3::int + $4::int - 1) i`, lib, user, first, n)
	require.NoError(t, err)
}

// explainAgg returns the plan of one statement with sequential scans
// priced out: an index must be able to serve it.
func explainAgg(t *testing.T, db *DB, st aggStmt) string {
	t.Helper()
	return explainIndexed(t, db, st.sql, st.args)
}

// TestAggregateQueriesUseIndexes runs counts and clusters through the
// repository on a library of 20,000 assets and requires every statement to
// read an index: the maintained tables by their keys, the frame of a
// viewport through the spatial index, the fallback along the timeline.
func TestAggregateQueriesUseIndexes(t *testing.T) {
	db := aggPlanDB(t, 20_000)
	world := catalog.World
	inDay := &catalog.TimeBound{Time: time.Date(2020, 3, 1, 12, 0, 0, 0, time.UTC)}
	cases := []struct {
		name  string
		run   func(ctx context.Context, agg aggregates) error
		index []string // indexes the plans must name
	}{
		{"counts by month from asset_day_counts", func(ctx context.Context, agg aggregates) error {
			_, _, err := agg.Counts(ctx, query.CountsQuery{Filter: query.AssetFilter{LibraryID: "lib_a"},
				Bucket: query.BucketMonth, Limit: 100})
			return err
		}, []string{"asset_day_counts_pkey"}},
		{"counts of a month with a bound inside a day, along the timeline", func(ctx context.Context, agg aggregates) error {
			_, _, err := agg.Counts(ctx, query.CountsQuery{Filter: query.AssetFilter{LibraryID: "lib_a",
				Capture: catalog.CaptureRange{After: inDay, Before: &catalog.TimeBound{Time: inDay.Time.AddDate(0, 1, 0)}}},
				Bucket: query.BucketDay, Limit: 100})
			return err
		}, []string{"assets_timeline"}},
		{"world clusters at 10°: interior from geo_cells, frame through the spatial index", func(ctx context.Context, agg aggregates) error {
			_, err := agg.GeoClusters(ctx, query.ClusterQuery{Filter: query.AssetFilter{LibraryID: "lib_a",
				Location: &catalog.Location{Box: &world}}, CellSize: 10, MaxCells: 1000})
			return err
		}, []string{"geo_cells_pkey", "assets_geo"}},
		{"clusters of a small viewport from its assets", func(ctx context.Context, agg aggregates) error {
			box := catalog.BBox{MinLon: 2, MinLat: 48, MaxLon: 2.5, MaxLat: 48.5}
			_, err := agg.GeoClusters(ctx, query.ClusterQuery{Filter: query.AssetFilter{LibraryID: "lib_a",
				Location: &catalog.Location{Box: &box}}, CellSize: 0.1, MaxCells: 1000})
			return err
		}, []string{"assets_geo"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &aggRecorder{q: db.pool}
			require.NoError(t, c.run(t.Context(), aggregates{conn{rec}}))
			require.NotEmpty(t, rec.stmts)
			var plans []string
			for _, st := range rec.stmts {
				plan := explainAgg(t, db, st)
				require.NotContains(t, plan, "Seq Scan", "%s\n%s", st.sql, plan)
				plans = append(plans, plan)
			}
			all := strings.Join(plans, "\n")
			for _, ix := range c.index {
				require.Contains(t, all, ix, all)
			}
		})
	}
	// A cell losing its representative finds the next one through
	// assets_fine_cell (the statement of asset_aggregates_apply).
	plan := explainAgg(t, db, aggStmt{sql: `SELECT max(a.id) FROM assets a
		WHERE a.library_id = $1 AND a.live = 1 AND a.stack_cover = 1 AND a.latitude IS NOT NULL
		AND a.longitude IS NOT NULL AND asset_geo_x(a.longitude) / 100000 = $2 AND asset_geo_y(a.latitude) / 100000 = $3`,
		args: []any{"lib_a", int64(18235), int64(13885)}})
	require.Contains(t, plan, "assets_fine_cell", plan)
}
