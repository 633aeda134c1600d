package postgres

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// TestAggregatesSQL compares the maintained aggregates with fresh
// computations and both paths of counts and clusters with each other and
// the list, after random writes (storetest/sqlaggregates.go).
func TestAggregatesSQL(t *testing.T) { storetest.RunSQLAggregates(t, sqlStore) }

// dayMicros is one day of capture_wall.
const dayMicros = 86_400_000_000

// TestAggregatePositionsRoundAsInGo: asset_geo_x and asset_geo_y round as
// geogrid.XUnits and YUnits do, also at the edges and on halves of a unit.
func TestAggregatePositionsRoundAsInGo(t *testing.T) {
	db := openMigrated(t)
	rng := rand.New(rand.NewPCG(9, 10))
	values := []float64{-180, 180, -90, 90, 0, 2.35, -0.00000005, 0.00000005, 179.99999995, -179.99999995, 1e-300}
	for range 2000 {
		values = append(values, rng.Float64()*360-180, float64(rng.IntN(3600000000))/1e7-180+0.5e-7)
	}
	for _, v := range values {
		var x, y, d int64
		require.NoError(t, db.pool.QueryRow(context.Background(), `SELECT asset_geo_x($1), asset_geo_y($2), asset_day($3)`,
			v, v/2, int64(v*1e12)).Scan(&x, &y, &d))
		require.Equal(t, geogrid.XUnits(v), x, "x of %v", v)
		require.Equal(t, geogrid.YUnits(v/2), y, "y of %v", v/2)
		require.Equal(t, geogrid.FloorDiv(int64(v*1e12), dayMicros), d, "day of %d", int64(v*1e12))
	}
}

// TestAggregatesUnderConcurrentWrites: writers adding to the same day and
// the same cells at once contend for the same aggregate rows; PostgreSQL
// aborts the losers as serialization failures, InTx runs them again (and
// when it gives up, the busy error tells the client to try again, as a
// writer here does), and no write is lost or counted twice.
func TestAggregatesUnderConcurrentWrites(t *testing.T) {
	f := storetest.NewAggFixture(t, sqlStore)
	ctx := context.Background()
	wall := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	const writers, each = 6, 8
	assetsOf := make([][]*catalog.Asset, writers)
	for w := range assetsOf {
		for i := range each {
			assetsOf[w] = append(assetsOf[w], f.NewAsset(f.Lib, wall.Add(time.Duration(i)*time.Minute), nil,
				catalog.MediaImage, nil, []float64{2.35 + float64(w)*1e-4, 48.85 + float64(i)*1e-4}))
		}
	}
	errs := make(chan error, writers)
	start := make(chan struct{})
	for w := range writers {
		go func() {
			<-start
			for _, a := range assetsOf[w] {
				err := f.S.InTx(ctx, func(r store.Repos) error { return r.Assets().Create(ctx, a) })
				for tries := 0; errors.Is(err, catalog.ErrUnavailable) && tries < 20; tries++ {
					err = f.S.InTx(ctx, func(r store.Repos) error { return r.Assets().Create(ctx, a) })
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	close(start)
	for range writers {
		require.NoError(t, <-errs)
	}
	got, _, err := f.S.Read().AssetAggregates().Counts(ctx, query.CountsQuery{Filter: query.AssetFilter{LibraryID: f.Lib},
		Bucket: query.BucketDay, Limit: 10})
	require.NoError(t, err)
	require.Equal(t, []query.BucketCount{{Start: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), Count: writers * each}}, got)
	world := catalog.World
	cells, err := f.S.Read().AssetAggregates().GeoClusters(ctx, query.ClusterQuery{Filter: query.AssetFilter{
		LibraryID: f.Lib, Location: &catalog.Location{Box: &world}}, CellSize: 1, MaxCells: 10})
	require.NoError(t, err)
	require.Len(t, cells, 1)
	require.EqualValues(t, writers*each, cells[0].Count)
	require.Equal(t, f.N, writers*each)
	var maxID string
	for _, as := range assetsOf {
		for _, a := range as {
			maxID = max(maxID, a.ID)
		}
	}
	require.Equal(t, maxID, cells[0].RepresentativeID)
}
