package sqlite

// Benchmarks of counts and geo clusters over a realistic library (the
// bodies are storetest's, shared with the PostgreSQL store).
//
//	go test ./server/store/sqlite -run '^$' -bench 'CountsByMonth|GeoClustersWorld2Deg|TrashRestore'
//
// PHOTOCTL_BENCH_ASSETS sets the library size (default 100000). Seeding a
// million assets takes a few minutes; PHOTOCTL_BENCH_DB names a file to seed
// once and reuse across runs and benchmarks:
//
//	PHOTOCTL_BENCH_ASSETS=1000000 PHOTOCTL_BENCH_DB=/tmp/photoctl-bench-1m.db \
//	  go test ./server/store/sqlite -run '^$' -bench 'CountsByMonth|GeoClustersWorld2Deg|TrashRestore' -timeout 30m

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/photoctl/photoctl/server/servertest/scale"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// openBenchLibrary opens (seeding when needed) the benchmark library.
func openBenchLibrary(b *testing.B) (*DB, storetest.BenchLibrary) {
	b.Helper()
	path := os.Getenv("PHOTOCTL_BENCH_DB")
	if path == "" {
		path = filepath.Join(b.TempDir(), "bench.db")
	}
	db, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	find := func(ctx context.Context) (lib string, n int, err error) {
		return lib, n, db.reader.QueryRowContext(ctx, `SELECT l.id, count(a.seq) FROM libraries l
			LEFT JOIN assets a ON a.library_id = l.id GROUP BY l.id`).Scan(&lib, &n)
	}
	seed := func(ctx context.Context, n int) (string, error) { return seedBenchLibrary(ctx, db, n) }
	return db, storetest.OpenBenchLibrary(b, db, scale.Size(b, "PHOTOCTL_BENCH_ASSETS", 100_000), find, seed,
		path, "remove it")
}

// seedBenchLibrary writes n assets (storetest.BenchAssets) in transactions
// of 10,000 rows through prepared statements; the triggers maintain the
// aggregates as they would for uploads.
func seedBenchLibrary(ctx context.Context, db *DB, n int) (string, error) {
	userID, libID, err := storetest.BenchOwner(ctx, db)
	if err != nil {
		return "", err
	}
	gen := storetest.NewBenchAssets()
	const batch = 10_000
	for done := 0; done < n; done += batch {
		tx, err := db.writer.BeginTx(ctx, nil)
		if err != nil {
			return "", err
		}
		insert, err := tx.PrepareContext(ctx, `INSERT INTO assets (id, library_id, contributor_id, media_type,
			mime_type, original_file_name, file_created_at, file_modified_at, capture_wall, capture_offset,
			capture_instant, checksum, original_size, file_size_bytes, latitude, longitude, rating, created_at,
			updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			tx.Rollback()
			return "", err
		}
		geo, err := tx.PrepareContext(ctx, `INSERT INTO assets_geo (seq, min_lon, max_lon, min_lat, max_lat)
			VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			tx.Rollback()
			return "", err
		}
		for i := done; i < min(n, done+batch); i++ {
			a := gen.Next(i)
			var rating, lat, lon any
			if a.Rating != nil {
				rating = *a.Rating
			}
			if a.Located {
				lat, lon = a.Latitude, a.Longitude
			}
			res, err := insert.ExecContext(ctx, a.ID, libID, userID, a.Media, a.MIME, "IMG.jpg", a.Created.UnixMicro(),
				a.Created.UnixMicro(), a.Wall, a.Offset, a.Instant, a.Checksum, 1<<20, 1<<20, lat, lon, rating,
				a.Created.UnixMicro(), a.Created.UnixMicro())
			if err != nil {
				tx.Rollback()
				return "", err
			}
			if a.Located {
				seq, err := res.LastInsertId()
				if err != nil {
					tx.Rollback()
					return "", err
				}
				if _, err := geo.ExecContext(ctx, seq, a.Longitude, a.Longitude, a.Latitude, a.Latitude); err != nil {
					tx.Rollback()
					return "", err
				}
			}
		}
		insert.Close()
		geo.Close()
		if err := tx.Commit(); err != nil {
			return "", err
		}
	}
	_, err = db.writer.ExecContext(ctx, `ANALYZE`)
	return libID, err
}

// BenchmarkAggregates runs the counts' and clusters' benchmarks
// (storetest.RunBenchAggregates): counts from asset_day_counts and by a
// scan of the timeline, clusters from geo_cells and through the R*Tree.
func BenchmarkAggregates(b *testing.B) {
	db, lib := openBenchLibrary(b)
	storetest.RunBenchAggregates(b, lib, sqlConn{db.reader})
}
