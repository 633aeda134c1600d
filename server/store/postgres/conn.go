package postgres

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// querier is what both the pool and a transaction offer.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// conn runs the repositories' SQL, written with ? placeholders like the
// SQLite store's so that queries read the same in both dialects, on q.
type conn struct{ q querier }

func (c conn) exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return c.q.Exec(ctx, rebind(sql), args...)
}

func (c conn) query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return c.q.Query(ctx, rebind(sql), args...)
}

func (c conn) queryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return c.q.QueryRow(ctx, rebind(sql), args...)
}

// rebind numbers the ? placeholders of sql ($1, $2, ...), leaving string
// literals and quoted identifiers alone. Repositories never use the jsonb
// operators spelled with ? (they use @> instead).
func rebind(sql string) string {
	if !strings.Contains(sql, "?") {
		return sql
	}
	var b strings.Builder
	b.Grow(len(sql) + 16)
	n := 0
	var quote byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// repos are this package's repositories over q and, embedded, the ones
// written once for both dialects.
type repos struct {
	q conn
	sqlstore.Repos
}

// dialect is PostgreSQL's for the repositories written once (sqlstore).
var dialect = &sqlstore.Dialect{Name: "postgres", Translate: translate, Instr: "strpos", In: anyArray,
	ScalarLookups: true, True: "true", False: "false"}

// anyArray is col = ANY(?::text[]) with vals as the one array.
func anyArray(col string, vals []string) (string, []any) {
	return col + " = ANY(?::text[])", []any{vals}
}

// newRepos returns the repositories over c: this package's and, promoted
// through the embedded sqlstore.Repos, the shared ones.
func newRepos(c conn) repos { return repos{q: c, Repos: sqlstore.Repos{Q: sqlstore.NewQ(c, dialect)}} }

// Exec, Query and QueryRow make conn a sqlstore.Conn.
func (c conn) Exec(ctx context.Context, sql string, args ...any) (sqlstore.Result, error) {
	return c.exec(ctx, sql, args...)
}

func (c conn) Query(ctx context.Context, sql string, args ...any) (sqlstore.Rows, error) {
	rows, err := c.query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (c conn) QueryRow(ctx context.Context, sql string, args ...any) sqlstore.Row {
	return c.queryRow(ctx, sql, args...)
}
