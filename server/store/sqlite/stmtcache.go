package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// maxCachedStatements bounds the statement cache: list queries are built
// from a finite set of filter combinations, but lists of ids expand into
// as many placeholders as ids, and those texts are not worth keeping.
const maxCachedStatements = 512

// stmtCache is the reader pool with its statements prepared once: SQLite
// compiles a statement in tens of microseconds, which on the hottest reads
// (a page of the asset list, the credential lookup of every request) is a
// tenth of the query. database/sql prepares each cached statement again on
// every pooled connection it meets, once.
type stmtCache struct {
	db    *sql.DB
	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}}
}

// stmt returns the prepared statement for query, or nil when the cache is
// full.
func (c *stmtCache) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	c.mu.RLock()
	st, ok := c.stmts[query]
	full := len(c.stmts) >= maxCachedStatements
	c.mu.RUnlock()
	if ok || full {
		return st, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = st
	return st, nil
}

func (c *stmtCache) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.db.ExecContext(ctx, query, args...)
}

func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := c.stmt(ctx, query)
	if err != nil || st == nil {
		return c.db.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

func (c *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := c.stmt(ctx, query)
	if err != nil || st == nil {
		// The uncached call reports a bad statement through the Row.
		return c.db.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// Close closes the cached statements.
func (c *stmtCache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for q, st := range c.stmts {
		errs = append(errs, st.Close())
		delete(c.stmts, q)
	}
	return errors.Join(errs...)
}
