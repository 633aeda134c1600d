package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
	"github.com/photoctl/photoctl/server/store/sqlstore"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// openMigrated opens a fresh, migrated database dropped when t ends.
func openMigrated(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), pgtest.NewURL(t, func(ctx context.Context, url string) error {
		d, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return d.Close()
	}))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// sqlStore is this store for storetest's tests of the maintained
// aggregates, so both stores face the same random writes.
var sqlStore = storetest.SQLStore{
	Open: func(t testing.TB) store.Store { return openMigrated(t) },
	Q:    func(s store.Store) sqlstore.Q { return sqlstore.NewQ(conn{s.(*DB).pool}, dialect) },
	Exec: func(ctx context.Context, r store.Repos, query string, args ...any) error {
		_, err := r.(repos).q.exec(ctx, query, args...)
		return err
	},
	Rows:          tableRows,
	ClusterRounds: 250, ClusterNonEmpty: 120,
}

func tableRows(t testing.TB, s store.Store, query string) []string {
	t.Helper()
	rows, err := s.(*DB).pool.Query(context.Background(), query)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		require.NoError(t, err)
		out = append(out, fmt.Sprint(vals...))
	}
	require.NoError(t, rows.Err())
	return out
}

// aggregates is the shared repository (sqlstore.Aggregates) over one
// conn, which the plan tests record.
type aggregates struct{ q conn }

func (r aggregates) shared() sqlstore.Aggregates {
	return sqlstore.Aggregates{Q: sqlstore.NewQ(r.q, dialect)}
}

func (r aggregates) Counts(ctx context.Context, q query.CountsQuery) ([]query.BucketCount, bool, error) {
	return r.shared().Counts(ctx, q)
}

func (r aggregates) GeoClusters(ctx context.Context, q query.ClusterQuery) ([]query.GeoCluster, error) {
	return r.shared().GeoClusters(ctx, q)
}
