package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/photoctl/photoctl/server/store/geogrid"
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
var dialect = &sqlstore.Dialect{
	Name: "postgres", Translate: translate, Instr: "strpos", ForUpdate: " FOR UPDATE",
	AdvisoryLock: "SELECT pg_advisory_xact_lock(?)", Greatest: "greatest",
	JSONHas: func(col string) string { return col + " @> jsonb_build_array(?::text)" },
	InStrings: func(col string, vals []string) (string, any) {
		return col + " = ANY(?::text[])", nonNil(vals)
	},
	StringRows: func(vals []string) (string, any) { return "unnest(?::text[]) AS value", nonNil(vals) },
	NameFold:   true,
	In:         inIDs,
	CrossJoin:  "JOIN",
	Unindexed:  func(col string) string { return col },
	LeftJoinFirst: func(table, alias, sub, col string) string {
		return "LEFT JOIN LATERAL (" + sub + ") " + alias + "x ON true LEFT JOIN " + table + " " + alias +
			" ON " + alias + ".id = " + alias + "x." + col
	},
	JSONText: func(col, key string) string { return col + "->>'" + key + "'" },
	JSONNumber: func(col, key string) string {
		return "CASE WHEN jsonb_typeof(" + col + "->'" + key + "') = 'number' THEN (" + col + "->>'" + key +
			"')::double precision END"
	},
	JSONAsText:    func(col string) string { return col + "::text" },
	JSONArg:       "?::jsonb",
	JSONMerge:     func(a, b string) string { return a + " || " + b },
	ScalarLookups: true, True: "true", False: "false",
	// Search and tasks (issue 34, part C).
	ClaimTask: claimTask, Savepoint: taskSavepoint,
	NextDue:   func(kinds []string) (string, []any) { return nextDueSQL, []any{kinds} },
	TaskPages: taskPages, PHashBand: phashBand,
	// Aggregates (issue 34, part B).
	// The functions of migration 0003_aggregates.
	AssetDay: "asset_day(a.capture_wall)", BucketDay: bucketDay, SumInt: func(col string) string { return "sum(" + col + ")::bigint" },
	GeoX: "asset_geo_x(a.longitude)", GeoY: "asset_geo_y(a.latitude)",
	GeoEast: func(g geogrid.Grid) string {
		return fmt.Sprintf("(x - %d + CASE WHEN x < %d THEN %d ELSE 0 END)", g.Origin, g.Origin, geogrid.FullTurn)
	},
	SubqueryAlias: func(name string) string { return " " + name },
	AssetRows:     selectAssets, GeoFrame: geoFrame,

	// Assets (issue 34, part A).
	InBytes: func(col string, vals [][]byte) (string, []any) {
		return col + " = ANY(?::bytea[])", []any{vals}
	},
	AssetGeo: planLocation, MergeStates: true,

	// Search (issue 34, the last of it).
	Text: tsearch{}, SearchKey: "id", RoundScore: roundScore, FloatArg: floatArg, Location: locationConditions,

	// Tasks of runners gone (presence.go).
	OrphanLease: orphanLease,
}

// floatArg is the dialect's FloatArg.
const floatArg = "?::float8"

// inIDs is the dialect's In: one array argument for any number of ids.
func inIDs(col string, ids []string) (string, []any) {
	if ids == nil {
		ids = []string{} // a NULL array would make NOT (col = ANY(...)) match nothing
	}
	return col + " = ANY(?::text[])", []any{ids}
}

// nonNil returns ids, or an empty slice for nil (a NULL array would match
// nothing in an unexpected way).
func nonNil(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
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
