package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The migrations are numbered as SQLite's: a PostgreSQL migration takes
// the number of the SQLite migration of the same subject, and where
// PostgreSQL does several SQLite steps in one, the other numbers are
// absent (0004 asset versions are in 0002_assets, and so on). A new
// migration takes the next number in both dialects.
//
// Builds of 2026-11-23 to 2026-11-28 numbered PostgreSQL's 1 to 13 in an
// order of their own. oldParts maps each migration of today to the old
// ones it holds (2 and 5 are one file now, as are 7 and 12). Old version 4
// (the OAuth server, 16 now) is recorded by every database of those
// builds that reached it and by none of today's, which never record 4.
var oldParts = map[int][]int{
	1: {1}, 2: {2, 5}, 3: {6}, 5: {7, 12}, 6: {8}, 8: {9}, 10: {11},
	13: {10}, 15: {3}, 16: {4}, 18: {13},
}

// renumber rewrites schema_migrations of a database migrated by those
// builds in today's numbers, in one transaction (under the caller's
// migration lock). A database those builds left part way through a file
// of today (they migrated everything at every start, so only one last
// opened by a build of the first hours of 2026-11-23 can be) is refused
// with what to do: today's files cannot complete it.
func renumber(ctx context.Context, c *pgxpool.Conn) error {
	var old bool
	if err := c.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 4)").Scan(&old); err != nil {
		return fmt.Errorf("read schema version: %w", translate(err))
	}
	if !old {
		return nil
	}
	applied, err := appliedVersions(ctx, c)
	if err != nil {
		return err
	}
	var now []int
	for version, parts := range oldParts {
		n := 0
		for _, p := range parts {
			if applied[p] {
				n++
			}
		}
		switch n {
		case len(parts):
			now = append(now, version)
		case 0:
		default:
			return fmt.Errorf("this database holds part of old migrations %v, as an early build of photoctl "+
				"left it: open it once with a build of 2026-11-23 to 2026-11-28, which completes them, then with this one", parts)
		}
	}
	tx, err := c.Begin(ctx)
	if err != nil {
		return fmt.Errorf("renumber migrations: %w", translate(err))
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "DELETE FROM schema_migrations"); err != nil {
		return fmt.Errorf("renumber migrations: %w", translate(err))
	}
	if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version) SELECT unnest($1::integer[])", now); err != nil {
		return fmt.Errorf("renumber migrations: %w", translate(err))
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("renumber migrations: %w", translate(err))
	}
	return nil
}
