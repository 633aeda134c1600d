package sqlite

import (
	"context"
	"database/sql"

	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// dialect is SQLite's for the repositories written once (sqlstore).
var dialect = &sqlstore.Dialect{Name: "sqlite", Translate: translate, Instr: "instr", In: inList,
	NoIndex: "+", True: "1", False: "0"}

// inList is col IN (?, ?, ...) over vals.
func inList(col string, vals []string) (string, []any) {
	return col + " IN (" + placeholders(len(vals)) + ")", anySlice(vals)
}

// newRepos returns the repositories over q: this package's and, promoted
// through the embedded sqlstore.Repos, the shared ones.
func newRepos(q querier) repos {
	return repos{q: q, Repos: sqlstore.Repos{Q: sqlstore.NewQ(sqlConn{q}, dialect)}}
}

// sqlConn is a database/sql querier as a sqlstore.Conn.
type sqlConn struct{ q querier }

func (c sqlConn) Exec(ctx context.Context, query string, args ...any) (sqlstore.Result, error) {
	res, err := c.q.ExecContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlResult{res}, nil
}

func (c sqlConn) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := c.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (c sqlConn) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return c.q.QueryRowContext(ctx, query, args...)
}

// sqlResult is a sql.Result whose row count go-sqlite3 always knows.
type sqlResult struct{ sql.Result }

func (r sqlResult) RowsAffected() int64 {
	n, _ := r.Result.RowsAffected()
	return n
}

// sqlRows is *sql.Rows closed as pgx closes its rows: the error, if any,
// is Err's.
type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { _ = r.Rows.Close() }
