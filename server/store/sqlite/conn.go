package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// dialect is SQLite's for the repositories written once (sqlstore).
var dialect = &sqlstore.Dialect{
	Name: "sqlite", Translate: translate, Instr: "instr", Greatest: "max",
	JSONHas: func(col string) string { return "EXISTS (SELECT 1 FROM json_each(" + col + ") WHERE value = ?)" },
	InStrings: func(col string, vals []string) (string, any) {
		return col + " IN (SELECT value FROM json_each(?))", jsonStrings(vals)
	},
	StringRows: func(vals []string) (string, any) { return "json_each(?)", jsonStrings(vals) },
	In:         inIDs,
	CrossJoin:  "CROSS JOIN",
	Unindexed:  func(col string) string { return "+" + col },
	LeftJoinFirst: func(table, alias, sub, _ string) string {
		return "LEFT JOIN " + table + " " + alias + " ON " + alias + ".id = (" + sub + ")"
	},
	JSONText:   func(col, key string) string { return "json_extract(" + col + ", '$." + key + "')" },
	JSONNumber: func(col, key string) string { return "json_extract(" + col + ", '$." + key + "')" },
	JSONAsText: func(col string) string { return col },
	JSONArg:    "?",
	JSONMerge:  func(a, b string) string { return "json_patch(" + a + ", " + b + ")" },
	True:       "1", False: "0",
	// Search and tasks (issue 34, part C).
	ClaimTask: claimTask,
	NextDue:   func(kinds []string) (string, []any) { return nextDueSQL(len(kinds)), anySlice(kinds) },
	TaskPages: taskPages,
	PHashBand: func(i int) string { return "a.phash_b" + strconv.Itoa(i) },
	// Aggregates (issue 34, part B).
	// The day and grid expressions as migration 0003 spells them.
	AssetDay: "(a.capture_wall - ((a.capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000",
	SumInt:   func(col string) string { return "sum(" + col + ")" },
	GeoX:     "CAST((a.longitude + 180) * 10000000 + 0.5 AS INTEGER)", GeoY: "CAST((a.latitude + 90) * 10000000 + 0.5 AS INTEGER)",
	GeoEast: func(g geogrid.Grid) string {
		return fmt.Sprintf("(x - %d + (x < %d) * %d)", g.Origin, g.Origin, geogrid.FullTurn)
	},
	SubqueryAlias: func(string) string { return "" },
	AssetRows:     selectAssets, GeoFrame: geoFrame,

	// Assets (issue 34, part A).
	InBytes: func(col string, vals [][]byte) (string, []any) {
		return col + " IN (" + placeholders(len(vals)) + ")", anySlice(vals)
	},
	GeoTable: true, AssetGeo: planLocation,

	// Search (issue 34, the last of it).
	Text: fts{}, SearchKey: "seq", NarrowPage: true, FloatArg: floatArg, Location: locationConditions,
}

// floatArg is the dialect's FloatArg.
const floatArg = "?"

// inIDs is the dialect's In: a placeholder an id (NULL for none).
func inIDs(col string, ids []string) (string, []any) {
	return col + " IN (" + placeholders(len(ids)) + ")", anySlice(ids)
}

// jsonStrings encodes vals as a JSON array for json_each (never null).
func jsonStrings(vals []string) string {
	if vals == nil {
		vals = []string{}
	}
	b, _ := json.Marshal(vals)
	return string(b)
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

// placeholders is n comma-separated ? marks, for IN (...): NULL when n is
// 0, so that IN (NULL) matches nothing and is still valid SQL.
func placeholders(n int) string {
	if n == 0 {
		return "NULL"
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// anySlice is xs as arguments.
func anySlice[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
