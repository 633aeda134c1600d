package sqlstore

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/geogrid"
)

// Dialect is what the SQL of the two databases spells differently.
type Dialect struct {
	// Name is "sqlite" or "postgres".
	Name string
	// Translate turns a driver error into the catalog's kinds
	// (ErrNotFound for no rows, ErrConflict, ErrUnavailable, ...), keeping
	// the driver error in the chain.
	Translate func(error) error
	// Instr is the function that finds a substring: instr(haystack,
	// needle) in SQLite, strpos in PostgreSQL.
	Instr string
	// ForUpdate ends a SELECT whose rows stay locked until the transaction
	// ends: " FOR UPDATE" in PostgreSQL; "" in SQLite, which runs one write
	// transaction at a time.
	ForUpdate string
	// AdvisoryLock is a statement that takes a lock on a number (its one
	// placeholder) until the transaction ends: SELECT
	// pg_advisory_xact_lock(?) in PostgreSQL; "" in SQLite, whose single
	// writer serialises already.
	AdvisoryLock string
	// Greatest is the function of the largest of its arguments: max in
	// SQLite, greatest in PostgreSQL.
	Greatest string
	// JSONHas is the condition that col, a JSON array, holds the text bound
	// to its one placeholder: EXISTS over json_each(col) in SQLite, col @>
	// jsonb_build_array(?::text) in PostgreSQL.
	JSONHas func(col string) string
	// InStrings is the condition that col is one of vals, bound to one
	// placeholder, and the argument for it (one statement for any number
	// of values): col IN json_each(?) of vals as a JSON array in SQLite,
	// col = ANY(?::text[]) in PostgreSQL.
	InStrings func(col string, vals []string) (cond string, arg any)
	// StringRows is a FROM item of vals as rows of one column, value,
	// bound to one placeholder, and the argument for it: json_each(?) in
	// SQLite, unnest(?::text[]) AS value in PostgreSQL.
	StringRows func(vals []string) (from string, arg any)
	// NameFold says api_keys keeps the Go lower case (strings.ToLower) of
	// its name in a column, name_fold, for the case-insensitive filter:
	// true in PostgreSQL, whose lower() folds ASCII only under the "C"
	// collation; false in SQLite, which folds at query time with the
	// casefold() the store registers (db.go).
	NameFold bool
	// In is the condition that col is one of ids, with the arguments that
	// bind them: col IN (?, ?, ...) with an argument each in SQLite (NULL
	// for none); col = ANY(?::text[]) with one array argument in
	// PostgreSQL, which plans and caches one statement for any count.
	In func(col string, ids []string) (string, []any)
	// CrossJoin joins so that the left table drives: CROSS JOIN in SQLite,
	// whose planner never reorders one; JOIN in PostgreSQL, which has no
	// CROSS JOIN ... ON and chooses the order itself.
	CrossJoin string
	// Unindexed keeps a condition's column from choosing the index:
	// +col in SQLite (a unary plus hides it from the planner); col in
	// PostgreSQL, whose planner weighs the conditions by their statistics.
	Unindexed func(col string) string
	// LeftJoinFirst joins table as alias on the row whose id the one-row
	// subquery sub (correlated, selecting col) finds: a scalar subquery
	// in the ON clause in SQLite, which has no LATERAL; a LEFT JOIN
	// LATERAL in PostgreSQL, run once per outer row like SQLite's.
	LeftJoinFirst func(table, alias, sub, col string) string
	// JSONText is the text at key of a JSON object column:
	// json_extract(col, '$.key') in SQLite, col->>'key' in PostgreSQL.
	JSONText func(col, key string) string
	// JSONNumber is the number at key of a JSON object column, NULL when
	// absent: json_extract in SQLite; in PostgreSQL col->>'key' as double
	// precision when it is a JSON number, else NULL.
	JSONNumber func(col, key string) string
	// JSONAsText reads a JSON column as its text: col in SQLite, which
	// stores JSON as text; col::text in PostgreSQL (jsonb).
	JSONAsText func(col string) string
	// JSONArg is the placeholder of a JSON text argument: ? in SQLite,
	// ?::jsonb in PostgreSQL.
	JSONArg string
	// JSONMerge is object a with the keys of object b set over it:
	// json_patch(a, b) in SQLite, a || b in PostgreSQL (b's values are
	// never null, where the two would differ).
	JSONMerge func(a, b string) string
	// ScalarLookups reads a column of the row another row points to (a
	// person's featured face's asset, a face's asset's media type) through
	// a scalar subquery rather than a join: true in PostgreSQL, whose
	// planner never flattens those, so each row costs a primary-key
	// lookup however the rows were found (a join may become a merge join
	// walking a whole table); false in SQLite, whose nested loops make
	// the join those lookups.
	ScalarLookups bool
	// True and False are the boolean literals: 1 and 0 in SQLite, whose
	// partial indexes are written "WHERE x = 1" (a query must say the
	// same to use them); true and false in PostgreSQL.
	True, False string

	// Search and tasks (issue 34, part C).

	// ClaimTask claims, over c, the earliest due queued task of kinds
	// (claim.Kinds' keys, sorted) whose subject runs no task of its kind,
	// marking it running under claim's lease: PostgreSQL picks and locks
	// its candidate FOR UPDATE SKIP LOCKED in one statement, so concurrent
	// claimers never wait for one another; SQLite picks, then updates,
	// under its single writer.
	ClaimTask func(ctx context.Context, c Conn, claim query.Claim, kinds []string) (*catalog.Task, error)
	// Savepoint runs fn so that a statement failing in it (a unique
	// violation the caller handles) does not abort the transaction of c:
	// in a savepoint in PostgreSQL; nil in SQLite, where a failed
	// statement leaves the transaction usable.
	Savepoint func(ctx context.Context, c Conn, fn func(Conn) error) error
	// NextDue is the query of the earliest run_after (NULL for none) among
	// queued tasks of kinds, one index lookup per kind, with its
	// arguments: a UNION ALL of the kinds in SQLite, a LATERAL join over
	// the kinds' array in PostgreSQL.
	NextDue func(kinds []string) (string, []any)
	// TaskPages is the query of the limit newest tasks (TaskCols, newest
	// first) of libs, each library's page read from its own index range
	// under where (args, after the library's condition), with its
	// arguments: a UNION ALL of one branch per library in SQLite, a
	// LATERAL join over the libraries' array in PostgreSQL.
	TaskPages func(libs, where []string, args []any, limit int) (string, []any)
	// PHashBand is band i (0..3) of an asset a's perceptual hash, as its
	// index holds it: the generated column a.phash_b<i> in SQLite, an
	// expression over the metrics in PostgreSQL.
	PHashBand func(i int) string

	// Aggregates (issue 34, part B).

	// AssetDay is the wall-clock date of "assets a" as days since
	// 1970-01-01 (floor division), as the day-count triggers compute it:
	// spelled out in SQLite, PostgreSQL's asset_day (each as its
	// aggregates migration).
	AssetDay string
	// BucketDay is the first day of the count bucket b of day (an SQL
	// expression of days since 1970-01-01), in days since 1970-01-01:
	// query.CountBucket.Start in SQL, so that a page of counts reads its
	// buckets and one more, not every day. PostgreSQL's date_trunc; nil in
	// SQLite, which has no date arithmetic to match and reads the days of
	// the range, merging them into buckets in Go.
	BucketDay func(b query.CountBucket, day string) string
	// SumInt is the sum of an integer column as an integer: sum(col) in
	// SQLite; sum(col)::bigint in PostgreSQL, whose sum of bigint is numeric.
	SumInt func(col string) string
	// GeoX and GeoY are the position of "assets a" in geogrid units, as
	// geogrid.XUnits and YUnits compute it and the geo_cells triggers store
	// it: a CAST in SQLite, PostgreSQL's asset_geo_x and asset_geo_y.
	GeoX, GeoY string
	// GeoEast is geogrid.Grid.East over a column x of a subquery: SQLite
	// multiplies by the comparison, PostgreSQL (whose comparisons are
	// boolean) says CASE.
	GeoEast func(g geogrid.Grid) string
	// SubqueryAlias names a FROM subquery: "" in SQLite, which needs no
	// name; " name" in PostgreSQL, which requires one.
	SubqueryAlias func(name string) string
	// AssetRows selects the assets List selects for a filter, for the
	// aggregates' fallback. Per dialect because the spatial index differs:
	// SQLite's R*Tree (assets_geo) drives a located filter (left to itself,
	// the planner walks the library's timeline and probes the R*Tree for
	// each row); PostgreSQL offers its GiST index to the planner among the
	// list's conditions.
	AssetRows func(f query.AssetFilter) Selection
	// GeoFrame selects the assets of f (its location aside) that lie in
	// any of strips, the frame of a viewport around the cells geo_cells
	// answers for: through SQLite's R*Tree, or PostgreSQL's GiST index on
	// point(longitude, latitude) (whose operators compare with a
	// tolerance, so there each strip only narrows the exact box test).
	GeoFrame func(f query.AssetFilter, strips []GeoStrip) Selection

	// Assets (issue 34, part A).

	// InBytes is In for byte strings (checksums): col IN (?, ?, ...) with
	// an argument each in SQLite; col = ANY(?::bytea[]) with one array
	// argument in PostgreSQL.
	InBytes func(col string, vals [][]byte) (string, []any)
	// GeoTable says asset writes keep a spatial table, assets_geo (seq,
	// min_lon, max_lon, min_lat, max_lat), equal to the assets'
	// coordinates: SQLite's R*Tree, a table of its own; false in
	// PostgreSQL, whose GiST index on the row's point follows the row.
	GeoTable bool
	// AssetGeo plans the location filter of an asset list of f (which has
	// one) over the Conn, driven when an album's, a person's or a stack's
	// rows drive the list. Each dialect keeps its own (GeoPlan says why).
	AssetGeo func(ctx context.Context, c Conn, f query.AssetFilter, driven bool) (GeoPlan, error)
	// MergeStates says an asset list of both states (StateAll) that the
	// timeline index serves is a merge of a page of each (listBothStates):
	// the index leads with the state, so one query sorts the library's
	// whole timeline for each page. True in PostgreSQL; false in SQLite,
	// which still runs the one query (a known problem its plan test,
	// sqlite/assets_stacks_plan_test.go, pins until it merges too).
	MergeStates bool

	// Search (issue 34, the last of it).

	// Text is the full-text index content search runs on (search.go).
	Text TextIndex
	// SearchKey is the column a search's criteria and hits key their
	// assets by, joined to the same column of "assets a": seq in SQLite,
	// whose FTS5 rowids are the assets' seq; id in PostgreSQL.
	SearchKey string
	// RoundScore rounds a hit's score (an SQL expression) so that a
	// cursor's score, computed again by another plan that may add in
	// another order, compares equal: to 1e-9 in PostgreSQL; nil in SQLite,
	// whose one plan adds in one order.
	RoundScore func(expr string) string
	// NarrowPage says a search's page is chosen on the hits' keys and the
	// filter's columns before its rows are read whole (Ranked.Page), so
	// that the hits that do not make the page are never read whole: true
	// in SQLite; false in PostgreSQL, which reads the page in one step.
	NarrowPage bool
	// FloatArg is the placeholder of a double precision argument: ? in
	// SQLite; ?::float8 in PostgreSQL, which infers no type for a
	// parameter compared with an expression.
	FloatArg string
	// Location is the conditions over "assets a" of a location, in the
	// dialect's own way: through the spatial index, or, when dense (the
	// location holds many of the rows read), on the coordinate columns.
	// The counts, the clusters and the search test it (FilterConditions).
	Location func(l *catalog.Location, dense bool) ([]string, []any)

	// OrphanLease is the condition over "tasks" that a running task's
	// runner (its lease_owner before "#") no longer holds its presence
	// (store.TaskPresence): PostgreSQL's session advisory lock, looked up
	// in pg_locks; "" in SQLite, which has no presence.
	OrphanLease string
}

// Postgres reports whether d is PostgreSQL's dialect.
func (d *Dialect) Postgres() bool { return d.Name == "postgres" }
