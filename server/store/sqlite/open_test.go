package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store/sqlite"
)

// TestOpenUsesThePathAsGiven: a data folder may hold characters that mean
// something in a SQLite URI ('#', '?', '%'); the database must still be the
// file at the given path, not one at a truncated or decoded path.
func TestOpenUsesThePathAsGiven(t *testing.T) {
	for _, folder := range []string{"photos #2", "why?", "100%41 done", "plain folder"} {
		t.Run(folder, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), folder, "photoctl.db")
			db, err := sqlite.Open(t.Context(), path)
			require.NoError(t, err)
			require.NoError(t, db.Close())
			_, err = os.Stat(path)
			require.NoError(t, err, "the database file is not at the given path")
		})
	}
}

// TestOpenMigratesOnceFromManyProcessesAtOnce opens one new database from
// several stores at the same moment, as serve and workers starting together
// do: every open succeeds and the schema is applied once. The stores also
// close while others open, so a connection meets the exclusive lock of a
// closing one (SQLITE_BUSY at once, not covered by the busy timeout) about
// once in fifty runs without patientDriver (-count=300 showed it).
func TestOpenMigratesOnceFromManyProcessesAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "race.db")
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := sqlite.Open(context.Background(), path)
			if err == nil {
				err = db.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}
