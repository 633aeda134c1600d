package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlstore"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// sqlStore is this store for storetest's tests of the maintained
// aggregates, and for the fixture of this package's plan tests.
var sqlStore = storetest.SQLStore{
	Open: func(t testing.TB) store.Store {
		db, err := Open(context.Background(), filepath.Join(t.TempDir(), "agg.db"))
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		return db
	},
	Q: func(s store.Store) sqlstore.Q { return sqlstore.NewQ(sqlConn{s.(*DB).reader}, dialect) },
	Exec: func(ctx context.Context, r store.Repos, query string, args ...any) error {
		_, err := r.(repos).q.ExecContext(ctx, query, args...)
		return err
	},
	Rows:          tableRows,
	ClusterRounds: 400, ClusterNonEmpty: 200,
}

// TestAggregatesSQL compares the maintained aggregates with fresh
// computations and both paths of counts and clusters with each other and
// the list, after random writes (storetest/sqlaggregates.go).
func TestAggregatesSQL(t *testing.T) { storetest.RunSQLAggregates(t, sqlStore) }

func tableRows(t testing.TB, s store.Store, query string) []string {
	t.Helper()
	rows, err := s.(*DB).reader.Query(query)
	require.NoError(t, err)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		out = append(out, fmt.Sprint(vals...))
	}
	require.NoError(t, rows.Err())
	return out
}

// aggFixture is a database with one user and two libraries
// (storetest.AggFixture), as the plan tests read it.
type aggFixture struct {
	*storetest.AggFixture
	db        *DB
	lib, lib2 string
}

func newAggFixture(t testing.TB) *aggFixture {
	t.Helper()
	f := storetest.NewAggFixture(t, sqlStore)
	return &aggFixture{AggFixture: f, db: f.S.(*DB), lib: f.Lib, lib2: f.Lib2}
}

// newAsset is an asset of library lib taken at wall (offset in seconds or
// nil) at lon, lat (nil: no coordinates).
func (f *aggFixture) newAsset(lib string, wall time.Time, offset *int, media catalog.MediaType, rating *float64,
	lonlat []float64) *catalog.Asset {
	return f.NewAsset(lib, wall, offset, media, rating, lonlat)
}

// seedRandom writes n random assets, then edits, moves, stacks, trashes,
// restores and deletes some of them.
func seedRandom(t *testing.T, f *aggFixture, rng *rand.Rand, n int) []*catalog.Asset {
	return storetest.SeedRandom(t, f.AggFixture, rng, n)
}

// aggregates is the shared repository (sqlstore.Aggregates) over one
// querier, which the plan tests record.
type aggregates struct{ q querier }

func (r aggregates) shared() sqlstore.Aggregates {
	return sqlstore.Aggregates{Q: sqlstore.NewQ(sqlConn{r.q}, dialect)}
}

func (r aggregates) Counts(ctx context.Context, q query.CountsQuery) ([]query.BucketCount, bool, error) {
	return r.shared().Counts(ctx, q)
}

func (r aggregates) GeoClusters(ctx context.Context, q query.ClusterQuery) ([]query.GeoCluster, error) {
	return r.shared().GeoClusters(ctx, q)
}
