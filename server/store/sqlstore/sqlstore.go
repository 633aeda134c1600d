// Package sqlstore is the store's repositories written once, in SQL both
// dialects run: server/store/sqlite (mattn/go-sqlite3 through
// database/sql) and server/store/postgres (pgx's own interface, which
// keeps its binary protocol and statement cache). Each dialect hands its
// pool or transaction over as a Conn that takes ? placeholders, and a
// Dialect value says what differs in the SQL itself: error translation,
// and the few functions and clauses the two spell differently. What
// truly differs (migrations, full-text search, geo plans, task claiming,
// SQLite's backup helpers) stays in the dialect packages.
//
// A repository here is a value over a Q: a Conn and its Dialect.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

// Result is what a statement changed.
type Result interface{ RowsAffected() int64 }

// Rows is the result of a query, read with Next and Scan, closed after.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Row is a query's single row; its Scan reports sql.ErrNoRows (or an error
// that is it) when there was none.
type Row interface{ Scan(dest ...any) error }

// Conn runs SQL written with ? placeholders on one dialect's pool or
// transaction. NULL scans into a pointer (*int64, *string) in both.
type Conn interface {
	Exec(ctx context.Context, query string, args ...any) (Result, error)
	Query(ctx context.Context, query string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, query string, args ...any) Row
}

// Q is a Conn with its Dialect: what every repository here holds.
type Q struct {
	c Conn
	d *Dialect
}

// NewQ pairs a dialect's Conn with the dialect.
func NewQ(c Conn, d *Dialect) Q { return Q{c: c, d: d} }

// Dialect is q's dialect (the shared tests build SQL of it: storetest).
func (q Q) Dialect() *Dialect { return q.d }

func (q Q) exec(ctx context.Context, query string, args ...any) (Result, error) {
	return q.c.Exec(ctx, query, args...)
}

func (q Q) query(ctx context.Context, query string, args ...any) (Rows, error) {
	return q.c.Query(ctx, query, args...)
}

func (q Q) queryRow(ctx context.Context, query string, args ...any) Row {
	return q.c.QueryRow(ctx, query, args...)
}

// translate is the dialect's translation of a driver error.
func (q Q) translate(err error) error {
	if err == nil {
		return nil
	}
	return q.d.Translate(err)
}

// one wraps a single-row error with what was looked up.
func (q Q) one(what, id string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s %s: %w", what, id, q.translate(err))
}

// affected turns an UPDATE or DELETE that matched no row into ErrNotFound.
func (q Q) affected(what, id string, res Result, err error) error {
	if err != nil {
		return q.one(what, id, err)
	}
	if res.RowsAffected() == 0 {
		return fmt.Errorf("%s %s: %w", what, id, catalog.ErrNotFound)
	}
	return nil
}

// inserted turns an INSERT ... ON CONFLICT DO NOTHING that inserted no row
// into ErrConflict. Creates use that form rather than letting the unique
// index raise an error: an error aborts a PostgreSQL transaction, while
// callers may catch a conflict and carry on in the same transaction.
func (q Q) inserted(what, id string, res Result, err error) error {
	if err != nil {
		return q.one(what, id, err)
	}
	if res.RowsAffected() == 0 {
		return fmt.Errorf("%s %s: %w", what, id, catalog.ErrConflict)
	}
	return nil
}

// changed reports whether an UPDATE matched a row.
func (q Q) changed(res Result, err error) (bool, error) {
	if err != nil {
		return false, q.translate(err)
	}
	return res.RowsAffected() > 0, nil
}

// isNoRows reports whether err is a Row's "no rows".
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// scanner is what a Row and Rows offer.
type scanner interface{ Scan(dest ...any) error }

// queryAll runs query and scans every row with scan.
func queryAll[T any](ctx context.Context, q Q, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, q.translate(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, q.translate(rows.Err())
}

// queryStrings runs query and returns its single text column.
func queryStrings(ctx context.Context, q Q, query string, args ...any) ([]string, error) {
	return queryAll(ctx, q, func(r scanner) (string, error) {
		var s string
		return s, r.Scan(&s)
	}, query, args...)
}

// micros converts a time to the stored form: microseconds since the Unix
// epoch, UTC, in a BIGINT (both dialects).
func micros(t time.Time) int64 { return t.UnixMicro() }

// fromMicros converts the stored form to a UTC time.
func fromMicros(v int64) time.Time { return time.UnixMicro(v).UTC() }

// nullMicros converts an optional time to a nullable column value.
func nullMicros(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	v := t.UnixMicro()
	return &v
}

// fromNullMicros converts a nullable column to an optional time.
func fromNullMicros(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := fromMicros(*v)
	return &t
}

// Args joins argument lists and single arguments into one list.
func Args(parts ...any) []any {
	var out []any
	for _, p := range parts {
		if list, ok := p.([]any); ok {
			out = append(out, list...)
		} else {
			out = append(out, p)
		}
	}
	return out
}
