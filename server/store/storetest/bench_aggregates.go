package storetest

// The bodies of the SQL stores' benchmarks of counts and geo clusters over
// a realistic library (sqlite/bench_aggregates_test.go,
// postgres/bench_aggregates_test.go): each store seeds the same assets its
// own fastest way and runs these (RunBenchAggregates).

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// BenchLibrary is a seeded store and its one library.
type BenchLibrary struct {
	Store  store.Store
	ID     string
	Assets int
}

// OpenBenchLibrary returns the library of s, seeded with n assets by seed
// when s holds none. find reads the one library and its asset count
// (sql.ErrNoRows, or an error that is it, when there is no library);
// what names s and fix says how to start over, for the message when s
// holds another size.
func OpenBenchLibrary(b *testing.B, s store.Store, n int, find func(ctx context.Context) (string, int, error),
	seed func(ctx context.Context, n int) (string, error), what, fix string) BenchLibrary {
	b.Helper()
	ctx := context.Background()
	lib := BenchLibrary{Store: s}
	id, have, err := find(ctx)
	switch {
	case err == nil && have == n:
		lib.ID, lib.Assets = id, have
		return lib
	case err == nil:
		b.Fatalf("%s holds %d assets, not %d: %s or change PHOTOCTL_BENCH_ASSETS", what, have, n, fix)
	}
	start := time.Now()
	if lib.ID, err = seed(ctx, n); err != nil {
		b.Fatal(err)
	}
	lib.Assets = n
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

// BenchNow is when the benchmark library's assets are uploaded.
var BenchNow = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// BenchOwner writes the benchmark library's owner and the library, and
// returns their ids.
func BenchOwner(ctx context.Context, s store.Store) (userID, libID string, err error) {
	u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, BenchNow), Email: "bench@example.com", IsActive: true,
		CreatedAt: BenchNow, UpdatedAt: BenchNow}
	l := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, BenchNow), Name: "bench", OwnerID: u.ID,
		CreatedAt: BenchNow, UpdatedAt: BenchNow}
	return u.ID, l.ID, s.InTx(ctx, func(r store.Repos) error {
		if err := r.Users().Create(ctx, u); err != nil {
			return err
		}
		return r.Libraries().Create(ctx, l)
	})
}

// BenchAsset is one asset of the benchmark library, as its columns hold it.
type BenchAsset struct {
	ID, Media, MIME     string
	Created             time.Time
	Wall                int64 // capture_wall
	Offset              int   // capture_offset, seconds
	Instant             int64 // capture_instant
	Checksum            []byte
	Rating              *int
	Located             bool
	Longitude, Latitude float64
}

// BenchAssets generates the assets of the benchmark library in order, with
// ten years of capture times, 70% of them near one of 50 cities: the same
// assets for every store.
type BenchAssets struct {
	rng         *rand.Rand
	first, span time.Time
}

// NewBenchAssets starts the sequence.
func NewBenchAssets() *BenchAssets {
	return &BenchAssets{rng: rand.New(rand.NewPCG(42, 42)), first: time.Date(2015, 6, 1, 0, 0, 0, 0, time.UTC)}
}

// Next is asset i (called for i = 0, 1, ... in turn).
func (g *BenchAssets) Next(i int) BenchAsset {
	rng := g.rng
	a := BenchAsset{Created: BenchNow.Add(time.Duration(i) * time.Millisecond), Media: "image", MIME: "image/jpeg"}
	a.ID = catalog.NewID(catalog.PrefixAsset, a.Created)
	wall := g.first.Add(time.Duration(rng.Int64N(int64(BenchNow.Sub(g.first))))).Truncate(time.Second)
	a.Offset = 3600 * (rng.IntN(12) - 4)
	a.Wall, a.Instant = wall.UnixMicro(), wall.Add(-time.Duration(a.Offset)*time.Second).UnixMicro()
	if rng.IntN(10) == 0 {
		a.Media, a.MIME = "video", "video/mp4"
	}
	if rng.IntN(5) == 0 {
		r := rng.IntN(6)
		a.Rating = &r
	}
	if a.Located = rng.IntN(10) < 7; a.Located {
		c := benchCities[rng.IntN(len(benchCities))]
		a.Longitude, a.Latitude = c[0]+rng.NormFloat64()*0.3, max(-90, min(90, c[1]+rng.NormFloat64()*0.2))
		if a.Longitude > 180 {
			a.Longitude -= 360
		} else if a.Longitude < -180 {
			a.Longitude += 360
		}
	}
	var seed [8]byte
	binary.LittleEndian.PutUint64(seed[:], uint64(i))
	sum := sha256.Sum256(seed[:])
	a.Checksum = sum[:]
	return a
}

// RunBenchAggregates runs the counts' and clusters' benchmarks on lib:
// counts by month, the world's geo clusters, and trash and restore of the
// 100 latest uploads with coordinates, read over c (the store's pool).
func RunBenchAggregates(b *testing.B, lib BenchLibrary, c sqlstore.Conn) {
	b.Run("CountsByMonth", func(b *testing.B) { BenchCountsByMonth(b, lib) })
	b.Run("GeoClustersWorld2Deg", func(b *testing.B) { BenchGeoClustersWorld2Deg(b, lib) })
	b.Run("TrashRestore100", func(b *testing.B) {
		ids, err := latestLocated(c, lib.ID)
		if err != nil || len(ids) != 100 {
			b.Fatalf("%d latest located uploads: %v", len(ids), err)
		}
		BenchTrashRestore(b, lib, ids)
	})
}

// latestLocated reads the 100 latest uploads with coordinates of a
// library.
func latestLocated(c sqlstore.Conn, libID string) ([]string, error) {
	rows, err := c.Query(context.Background(), `SELECT id FROM assets WHERE library_id = ? AND latitude IS NOT NULL
		ORDER BY id DESC LIMIT 100`, libID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// BenchCountsByMonth counts a library's live assets per month: from
// asset_day_counts, and from the assets (a wall-clock bound inside a day
// forces the fallback).
func BenchCountsByMonth(b *testing.B, lib BenchLibrary) {
	ctx := context.Background()
	agg := lib.Store.Read().AssetAggregates()
	inDay := &catalog.TimeBound{Time: time.Date(1990, 1, 1, 0, 0, 1, 0, time.UTC)}
	for _, bc := range []struct {
		name    string
		capture catalog.CaptureRange
	}{{"aggregates", catalog.CaptureRange{}}, {"fallback", catalog.CaptureRange{After: inDay}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportMetric(float64(lib.Assets), "assets")
			for b.Loop() {
				months, _, err := agg.Counts(ctx, query.CountsQuery{Filter: query.AssetFilter{LibraryID: lib.ID,
					Capture: bc.capture}, Bucket: query.BucketMonth, Limit: 100})
				if err != nil || len(months) < 100 {
					b.Fatalf("%d months: %v", len(months), err)
				}
			}
		})
	}
}

// BenchGeoClustersWorld2Deg clusters the whole world in 2° cells: from
// geo_cells, and from the assets (a media type forces the fallback; almost
// every asset is an image).
func BenchGeoClustersWorld2Deg(b *testing.B, lib BenchLibrary) {
	ctx := context.Background()
	agg := lib.Store.Read().AssetAggregates()
	world := catalog.World
	for _, bc := range []struct {
		name  string
		media catalog.MediaType
	}{{"aggregates", ""}, {"fallback", catalog.MediaImage}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportMetric(float64(lib.Assets), "assets")
			for b.Loop() {
				cells, err := agg.GeoClusters(ctx, query.ClusterQuery{Filter: query.AssetFilter{LibraryID: lib.ID,
					MediaType: bc.media, Location: &catalog.Location{Box: &world}}, CellSize: 2, MaxCells: 1000})
				if err != nil || len(cells) < 50 {
					b.Fatalf("%d cells: %v", len(cells), err)
				}
			}
		})
	}
}

// BenchTrashRestore trashes and restores ids (the latest uploads with
// coordinates), each write moving counts and cells and, for the
// representatives among them, looking up new ones.
func BenchTrashRestore(b *testing.B, lib BenchLibrary, ids []string) {
	ctx := context.Background()
	now := time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		err := lib.Store.InTx(ctx, func(r store.Repos) error {
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
