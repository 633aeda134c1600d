package postgres

// Benchmarks of counts and geo clusters over a realistic library, the
// PostgreSQL side of sqlite/bench_aggregates_test.go (same seed, so the
// same assets; the bodies are storetest's):
//
//	PHOTOCTL_TEST_DATABASE_URL=postgres://... go test ./server/store/postgres -run '^$' \
//	  -bench 'CountsByMonth|GeoClustersWorld2Deg|TrashRestore'
//
// PHOTOCTL_BENCH_ASSETS sets the library size (default 20000). Seeding a
// million assets takes minutes; PHOTOCTL_BENCH_DATABASE_URL names a
// database (created beforehand, empty or seeded by an earlier run with the
// same size) to seed once and reuse across runs and benchmarks:
//
//	PHOTOCTL_BENCH_ASSETS=1000000 PHOTOCTL_BENCH_DATABASE_URL=postgres://.../bench1m \
//	  go test ./server/store/postgres -run '^$' -bench 'CountsByMonth|GeoClustersWorld2Deg|TrashRestore' -timeout 60m

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/servertest/scale"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// openBenchLibrary opens (seeding when needed) the benchmark library.
func openBenchLibrary(b *testing.B) (*DB, storetest.BenchLibrary) {
	b.Helper()
	var db *DB
	if url := os.Getenv("PHOTOCTL_BENCH_DATABASE_URL"); url != "" {
		var err error
		if db, err = Open(context.Background(), url); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
	} else {
		db = openMigrated(b)
	}
	find := func(ctx context.Context) (lib string, n int, err error) {
		return lib, n, db.pool.QueryRow(ctx, `SELECT l.id, (SELECT count(*) FROM assets a WHERE a.library_id = l.id)
			FROM libraries l`).Scan(&lib, &n)
	}
	seed := func(ctx context.Context, n int) (string, error) { return seedBenchLibrary(ctx, db, n) }
	return db, storetest.OpenBenchLibrary(b, db, scale.Size(b, "PHOTOCTL_BENCH_ASSETS", 20_000), find, seed,
		"the bench database", "empty it")
}

// benchColumns are the columns seedBenchLibrary copies.
var benchColumns = []string{"id", "library_id", "contributor_id", "media_type", "mime_type", "original_file_name",
	"file_created_at", "file_modified_at", "capture_wall", "capture_offset", "capture_instant", "checksum",
	"original_size", "file_size_bytes", "latitude", "longitude", "rating", "created_at", "updated_at"}

// seedBenchLibrary writes n assets (storetest.BenchAssets, the SQLite
// benchmark's) by COPY in batches of 20,000 rows, each one statement whose
// triggers maintain the aggregates as they would for uploads.
func seedBenchLibrary(ctx context.Context, db *DB, n int) (string, error) {
	userID, libID, err := storetest.BenchOwner(ctx, db)
	if err != nil {
		return "", err
	}
	gen := storetest.NewBenchAssets()
	const batch = 20_000
	for done := 0; done < n; done += batch {
		var rows [][]any
		for i := done; i < min(n, done+batch); i++ {
			a := gen.Next(i)
			var rating, lat, lon any
			if a.Rating != nil {
				rating = int32(*a.Rating)
			}
			if a.Located {
				lat, lon = a.Latitude, a.Longitude
			}
			rows = append(rows, []any{a.ID, libID, userID, a.Media, a.MIME, "IMG.jpg", a.Created.UnixMicro(),
				a.Created.UnixMicro(), a.Wall, int32(a.Offset), a.Instant, a.Checksum, int64(1 << 20), int64(1 << 20),
				lat, lon, rating, a.Created.UnixMicro(), a.Created.UnixMicro()})
		}
		if _, err := db.pool.CopyFrom(ctx, pgx.Identifier{"assets"}, benchColumns, pgx.CopyFromRows(rows)); err != nil {
			return "", err
		}
	}
	for _, table := range []string{"assets", "asset_day_counts", "geo_cells"} {
		if _, err := db.pool.Exec(ctx, "VACUUM ANALYZE "+table); err != nil {
			return "", err
		}
	}
	return libID, nil
}

// BenchmarkAggregates runs the counts' and clusters' benchmarks
// (storetest.RunBenchAggregates): counts from asset_day_counts and from the
// assets, clusters from geo_cells and through the GiST index.
func BenchmarkAggregates(b *testing.B) {
	db, lib := openBenchLibrary(b)
	storetest.RunBenchAggregates(b, lib, conn{db.pool})
}
