package postgres

// Benchmarks of counts and geo clusters over a realistic library, the
// PostgreSQL side of sqlite/bench_aggregates_test.go (same seed, so the
// same assets):
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
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest/scale"
	"github.com/photoctl/photoctl/server/store"
)

// benchLibrary is the seeded database and its one library.
type benchLibrary struct {
	db     *DB
	lib    string
	assets int
}

func benchAssets(b *testing.B) int {
	return scale.Size(b, "PHOTOCTL_BENCH_ASSETS", 20_000)
}

// openBenchLibrary opens (seeding when needed) the benchmark library.
func openBenchLibrary(b *testing.B) benchLibrary {
	b.Helper()
	ctx := context.Background()
	n := benchAssets(b)
	var db *DB
	if url := os.Getenv("PHOTOCTL_BENCH_DATABASE_URL"); url != "" {
		var err error
		if db, err = Open(ctx, url); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
	} else {
		db = openMigrated(b)
	}
	lib := benchLibrary{db: db}
	err := db.pool.QueryRow(ctx, `SELECT l.id, (SELECT count(*) FROM assets a WHERE a.library_id = l.id)
		FROM libraries l`).Scan(&lib.lib, &lib.assets)
	switch {
	case err == nil && lib.assets == n:
		return lib
	case err == nil:
		b.Fatalf("the bench database holds %d assets, not %d: empty it or change PHOTOCTL_BENCH_ASSETS", lib.assets, n)
	}
	start := time.Now()
	if lib.lib, err = seedBenchLibrary(ctx, db, n); err != nil {
		b.Fatal(err)
	}
	lib.assets = n
	b.Logf("seeded %d assets in %v", n, time.Since(start).Round(time.Millisecond))
	return lib
}

// benchCities are centres of photo clusters.
var benchCities = [][2]float64{
	{2.35, 48.86}, {-0.13, 51.51}, {13.40, 52.52}, {12.50, 41.90}, {-3.70, 40.42}, {4.90, 52.37}, {16.37, 48.21},
	{14.42, 50.09}, {19.04, 47.50}, {21.01, 52.23}, {24.94, 60.17}, {18.07, 59.33}, {10.75, 59.91}, {12.57, 55.68},
	{-9.14, 38.72}, {23.73, 37.98}, {28.98, 41.01}, {37.62, 55.76}, {-74.01, 40.71}, {-118.24, 34.05}, {-87.63, 41.88},
	{-122.42, 37.77}, {-79.38, 43.65}, {-73.57, 45.50}, {-99.13, 19.43}, {-43.17, -22.91}, {-46.63, -23.55},
	{-58.38, -34.60}, {-70.67, -33.45}, {-77.04, -12.05}, {139.69, 35.69}, {135.50, 34.69}, {126.98, 37.57},
	{116.40, 39.90}, {121.47, 31.23}, {114.17, 22.32}, {103.82, 1.35}, {100.50, 13.75}, {106.85, -6.21},
	{151.21, -33.87}, {144.96, -37.81}, {174.76, -36.85}, {178.44, -18.14}, {-171.77, -13.83}, {77.21, 28.61},
	{72.88, 19.08}, {55.27, 25.20}, {31.24, 30.04}, {18.42, -33.92}, {36.82, -1.29},
}

// benchColumns are the columns seedBenchLibrary copies.
var benchColumns = []string{"id", "library_id", "contributor_id", "media_type", "mime_type", "original_file_name",
	"file_created_at", "file_modified_at", "capture_wall", "capture_offset", "capture_instant", "checksum",
	"original_size", "file_size_bytes", "latitude", "longitude", "rating", "created_at", "updated_at"}

// seedBenchLibrary writes n assets with ten years of capture times, 70% of
// them near one of 50 cities (the SQLite benchmark's generator and seed),
// by COPY in batches of 20,000 rows, each one statement whose triggers
// maintain the aggregates as they would for uploads.
func seedBenchLibrary(ctx context.Context, db *DB, n int) (string, error) {
	now := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, now), Email: "bench@example.com", IsActive: true,
		CreatedAt: now, UpdatedAt: now}
	l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, now), Name: "bench", OwnerID: u.ID,
		CreatedAt: now, UpdatedAt: now}
	err := db.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, u); err != nil {
			return err
		}
		return r.Libraries().Create(ctx, l)
	})
	if err != nil {
		return "", err
	}
	rng := rand.New(rand.NewPCG(42, 42))
	first := time.Date(2015, 6, 1, 0, 0, 0, 0, time.UTC)
	span := now.Sub(first)
	const batch = 20_000
	for done := 0; done < n; done += batch {
		var rows [][]any
		for i := done; i < min(n, done+batch); i++ {
			created := now.Add(time.Duration(i) * time.Millisecond)
			wall := first.Add(time.Duration(rng.Int64N(int64(span)))).Truncate(time.Second)
			offset := 3600 * (rng.IntN(12) - 4)
			media, mime := "image", "image/jpeg"
			if rng.IntN(10) == 0 {
				media, mime = "video", "video/mp4"
			}
			var rating any
			if rng.IntN(5) == 0 {
				rating = int32(rng.IntN(6))
			}
			var lat, lon any
			if rng.IntN(10) < 7 {
				c := benchCities[rng.IntN(len(benchCities))]
				lo, la := c[0]+rng.NormFloat64()*0.3, max(-90, min(90, c[1]+rng.NormFloat64()*0.2))
				if lo > 180 {
					lo -= 360
				} else if lo < -180 {
					lo += 360
				}
				lat, lon = la, lo
			}
			var seed [8]byte
			binary.LittleEndian.PutUint64(seed[:], uint64(i))
			sum := sha256.Sum256(seed[:])
			rows = append(rows, []any{catalog.NewID(catalog.PrefixAsset, created), l.ID, u.ID, media, mime, "IMG.jpg",
				micros(created), micros(created), wall.UnixMicro(), int32(offset),
				wall.Add(-time.Duration(offset) * time.Second).UnixMicro(), sum[:], int64(1 << 20), int64(1 << 20),
				lat, lon, rating, micros(created), micros(created)})
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
	return l.ID, nil
}

// BenchmarkCountsByMonth counts a library's live assets per month: from
// asset_day_counts, and from the assets (a wall-clock bound inside a day
// forces the fallback).
func BenchmarkCountsByMonth(b *testing.B) {
	lib := openBenchLibrary(b)
	ctx := context.Background()
	agg := lib.db.Read().AssetAggregates()
	inDay := &catalog.TimeBound{Time: time.Date(1990, 1, 1, 0, 0, 1, 0, time.UTC)}
	for _, bc := range []struct {
		name    string
		capture catalog.CaptureRange
	}{{"aggregates", catalog.CaptureRange{}}, {"fallback", catalog.CaptureRange{After: inDay}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportMetric(float64(lib.assets), "assets")
			for b.Loop() {
				months, _, err := agg.Counts(ctx, store.CountsQuery{Filter: store.AssetFilter{LibraryID: lib.lib,
					Capture: bc.capture}, Bucket: store.BucketMonth, Limit: 100})
				if err != nil || len(months) < 100 {
					b.Fatalf("%d months: %v", len(months), err)
				}
			}
		})
	}
}

// BenchmarkGeoClustersWorld2Deg clusters the whole world in 2° cells: from
// geo_cells, and from the assets (a media type forces the fallback; almost
// every asset is an image).
func BenchmarkGeoClustersWorld2Deg(b *testing.B) {
	lib := openBenchLibrary(b)
	ctx := context.Background()
	agg := lib.db.Read().AssetAggregates()
	world := catalog.World
	for _, bc := range []struct {
		name  string
		media catalog.MediaType
	}{{"aggregates", ""}, {"fallback", catalog.MediaImage}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportMetric(float64(lib.assets), "assets")
			for b.Loop() {
				cells, err := agg.GeoClusters(ctx, store.ClusterQuery{Filter: store.AssetFilter{LibraryID: lib.lib,
					MediaType: bc.media, Location: &catalog.Location{Box: &world}}, CellSize: 2, MaxCells: 1000})
				if err != nil || len(cells) < 50 {
					b.Fatalf("%d cells: %v", len(cells), err)
				}
			}
		})
	}
}

// BenchmarkTrashRestore100 trashes and restores the 100 latest uploads
// with coordinates, each write moving counts and cells and, for the
// representatives among them, looking up new ones.
func BenchmarkTrashRestore100(b *testing.B) {
	lib := openBenchLibrary(b)
	ctx := context.Background()
	rows, err := lib.db.pool.Query(ctx, `SELECT id FROM assets WHERE library_id = $1 AND latitude IS NOT NULL
		ORDER BY id DESC LIMIT 100`, lib.lib)
	if err != nil {
		b.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		err := lib.db.InTx(ctx, func(r store.Repos) error {
			if err := r.Assets().SetTrashed(ctx, ids, &now, now); err != nil {
				return err
			}
			return r.Assets().SetTrashed(ctx, ids, nil, now)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
