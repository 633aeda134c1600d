package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.up.sql
var migrationFiles embed.FS

// migrationLock is the key of the advisory lock held while migrating
// (the bytes of "photoctl" read as a number).
const migrationLock int64 = 0x70686f746f63746c

// migrate applies, in order, every embedded migration that
// schema_migrations does not record, each in its own transaction, holding
// a session advisory lock so that processes opening one new database at once (serve beside a
// worker) apply each migration exactly once; the others wait, then find
// nothing left to do.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	names, err := fs.Glob(migrationFiles, "migrations/*.up.sql")
	if err != nil {
		return fmt.Errorf("list migrations: %w", err)
	}
	sort.Strings(names)
	c, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", translate(err))
	}
	defer c.Release()
	if _, err := c.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return fmt.Errorf("lock migrations: %w", translate(err))
	}
	defer c.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := c.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", translate(err))
	}
	if err := renumber(ctx, c); err != nil {
		return err
	}
	applied, err := appliedVersions(ctx, c)
	if err != nil {
		return err
	}
	for _, name := range names {
		version, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(name, "migrations/"), "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: bad version: %w", name, err)
		}
		if applied[version] {
			continue
		}
		body, err := migrationFiles.ReadFile(name)
		if err != nil {
			return fmt.Errorf("read migration %s: %w", name, err)
		}
		tx, err := c.Begin(ctx)
		if err != nil {
			return fmt.Errorf("begin migration %s: %w", name, translate(err))
		}
		if _, err := tx.Exec(ctx, string(body)); err != nil {
			tx.Rollback(ctx)
			return fmt.Errorf("apply migration %s: %w", name, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version) VALUES ($1)", version); err != nil {
			tx.Rollback(ctx)
			return fmt.Errorf("record migration %s: %w", name, err)
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("commit migration %s: %w", name, translate(err))
		}
	}
	return nil
}

// appliedVersions is the set of versions schema_migrations records.
func appliedVersions(ctx context.Context, c *pgxpool.Conn) (map[int]bool, error) {
	rows, err := c.Query(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("read schema version: %w", translate(err))
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return nil, fmt.Errorf("read schema version: %w", translate(err))
	}
	applied := make(map[int]bool, len(versions))
	for _, v := range versions {
		applied[v] = true
	}
	return applied, nil
}
