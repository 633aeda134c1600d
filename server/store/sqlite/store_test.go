package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlite"
	"github.com/photoctl/photoctl/server/store/storetest"
)

// TestConformance runs the store conformance suite against SQLite, each
// subtest on a fresh database file.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "test.db"))
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, db.Close()) })
		return db
	})
}
