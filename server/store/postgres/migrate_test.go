package postgres_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

// TestMigrationsAreNumberedAsSQLites: each PostgreSQL migration has the
// number of a SQLite migration (of the same subject, migrate_renumber.go),
// so a change made in both dialects carries one number.
func TestMigrationsAreNumberedAsSQLites(t *testing.T) {
	numbers := func(dir string) map[string]string {
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		out := map[string]string{}
		for _, e := range entries {
			m := regexp.MustCompile(`^(\d{4})_(.*)\.up\.sql$`).FindStringSubmatch(e.Name())
			require.NotNil(t, m, "%s/%s is not NNNN_name.up.sql", dir, e.Name())
			out[m[1]] = m[2]
		}
		return out
	}
	sqlite := numbers(filepath.Join("..", "sqlite", "migrations"))
	for n, name := range numbers("migrations") {
		require.Contains(t, sqlite, n, "PostgreSQL's %s_%s has no SQLite migration %s", n, name, n)
		if n > "0018" { // from the first one written in both dialects on
			require.Equal(t, sqlite[n], name, "migration %s is named differently in the two dialects", n)
		}
	}
}

// TestOpenRenumbersTheMigrationsOfEarlierBuilds: a database migrated by
// the builds that numbered PostgreSQL's migrations 1 to 13 opens, nothing
// of theirs is applied again (only what came after them), and
// schema_migrations then holds today's numbers.
func TestOpenRenumbersTheMigrationsOfEarlierBuilds(t *testing.T) {
	url := pgtest.EmptyURL(t)
	db, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	today := versions(t, db)
	for _, old := range [][]int{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}} {
		_, err = db.Pool().Exec(t.Context(), "DELETE FROM schema_migrations")
		require.NoError(t, err)
		_, err = db.Pool().Exec(t.Context(), "INSERT INTO schema_migrations (version) SELECT unnest($1::integer[])", old)
		require.NoError(t, err)
		// What those builds had not yet is applied again: today's 0019 and
		// on (and 0018, before old 13).
		_, err = db.Pool().Exec(t.Context(), "DROP TABLE asset_phashes")
		require.NoError(t, err)
		_, err = db.Pool().Exec(t.Context(), "ALTER TABLE asset_text DROP COLUMN ocr_terms CASCADE")
		require.NoError(t, err)
		if len(old) == 12 { // before 0013_tags: today's 0018 is applied
			_, err = db.Pool().Exec(t.Context(), "DROP TABLE tag_assets, tags")
			require.NoError(t, err)
		}
		again, err := postgres.Open(t.Context(), url)
		require.NoError(t, err, "old migrations %v", old)
		require.Equal(t, today, versions(t, again))
		again.Close()
	}
	db.Close()
}

// TestOpenRefusesASchemaTodaysFilesCannotComplete: old migrations 7 and 12
// are one file now; a database holding 7 without 12 is refused with what
// to do, and left as it was.
func TestOpenRefusesASchemaTodaysFilesCannotComplete(t *testing.T) {
	url := pgtest.EmptyURL(t)
	db, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	defer db.Close()
	old := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	_, err = db.Pool().Exec(t.Context(), "DELETE FROM schema_migrations")
	require.NoError(t, err)
	_, err = db.Pool().Exec(t.Context(), "INSERT INTO schema_migrations (version) SELECT unnest($1::integer[])", old)
	require.NoError(t, err)
	_, err = postgres.Open(t.Context(), url)
	require.ErrorContains(t, err, "open it once with a build of 2026-11-23 to 2026-11-28")
	var n int
	require.NoError(t, db.Pool().QueryRow(t.Context(), "SELECT count(*) FROM schema_migrations").Scan(&n))
	require.Equal(t, len(old), n)
}

func versions(t *testing.T, db *postgres.DB) []int {
	rows, err := db.Pool().Query(t.Context(), "SELECT version FROM schema_migrations ORDER BY version")
	require.NoError(t, err)
	vs, err := pgx.CollectRows(rows, pgx.RowTo[int])
	require.NoError(t, err)
	return vs
}
