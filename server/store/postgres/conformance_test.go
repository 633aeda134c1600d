package postgres_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
	"github.com/photoctl/photoctl/server/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestConformance runs the whole store conformance suite against
// PostgreSQL, each subtest on a fresh database.
func TestConformance(t *testing.T) {
	storetest.Run(t, openStore)
}

// migrate applies the store's migrations to the database at url.
func migrate(ctx context.Context, url string) error {
	db, err := postgres.Open(ctx, url)
	if err != nil {
		return err
	}
	return db.Close()
}

// openStore opens a fresh, migrated database that is dropped when t ends.
func openStore(t *testing.T) store.Store {
	db, err := postgres.Open(t.Context(), pgtest.NewURL(t, migrate))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}
