package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// listQuery describes one keyset-paged list. Rows are ordered by the
// composite key (sort, id), so a page boundary is exact even when rows with
// equal sort values or new rows appear between pages.
type listQuery struct {
	cols  string // select list
	from  string // FROM clause with joins
	where []string
	args  []any
	sort  string // SQL expression of the sort value; "" means the id alone
	idCol string // the id column, qualified if joins need it
	desc  bool
	// sortUnique says no two rows share a sort value (a sequence): the
	// order and the page boundary then use the sort value alone, so an
	// index on it serves the page without a sort step.
	sortUnique bool
	// late finds the page's ids first, in a subquery that reads only what
	// it tests (an index holding those columns serves it without reading
	// rows), then reads the rows of the page alone.
	late bool
	// With late, a non-empty branches splits that subquery into one page
	// per value, each with branchCond (one placeholder) bound to it, merged
	// in order: an index that leads with branchCond's expression then
	// serves each branch in page order, up to a page of entries apiece.
	branches   []any
	branchCond string
}

// branchPages is the ids subquery of a late q split into q.branches: each
// branch is a page of its own under where (args) and q.branchCond, and the
// merge of them the page. PostgreSQL runs each branch as a short index
// scan in order and stops it after a page.
func branchPages(q listQuery, where []string, args []any, orderBy, dir string, limit int) (string, []any) {
	sortExpr := q.sort
	if sortExpr == "" {
		sortExpr = q.idCol
	}
	cond := strings.Join(append(append([]string(nil), where...), q.branchCond), " AND ")
	parts := make([]string, len(q.branches))
	var out []any
	for i, v := range q.branches {
		parts[i] = "(SELECT " + q.idCol + " AS id, " + sortExpr + " AS sort FROM " + q.from + " WHERE " + cond +
			orderBy + " LIMIT ?)"
		out = append(append(append(out, args...), v), limit)
	}
	return "SELECT id FROM (" + strings.Join(parts, " UNION ALL ") + ") b ORDER BY sort " + dir + ", id " + dir +
		" LIMIT ?", append(out, limit)
}

// scanner is what pgx.Row and pgx.Rows offer.
type scanner interface{ Scan(dest ...any) error }

// page runs q for p: it resolves the cursor row within the same scope (a
// cursor from another library or user is a 422, not an empty page), fetches
// one extra row to learn has_more, and scans each row with scan.
func page[T any](ctx context.Context, db conn, q listQuery, p store.Page, scan func(scanner) (T, error)) ([]T, bool, error) {
	where := append([]string(nil), q.where...)
	args := append([]any(nil), q.args...)
	sortExpr := q.sort
	if sortExpr == "" {
		sortExpr = q.idCol
	}
	op, dir := ">", "ASC"
	if q.desc {
		op, dir = "<", "DESC"
	}
	if p.AfterID != "" {
		cond := append(append([]string(nil), where...), q.idCol+" = ?")
		var cursor any
		err := db.queryRow(ctx, "SELECT "+sortExpr+" FROM "+q.from+" WHERE "+strings.Join(cond, " AND "),
			append(append([]any(nil), args...), p.AfterID)...).Scan(&cursor)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this list", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve cursor: %w", translate(err))
		}
		switch {
		case q.sort == "":
			where, args = append(where, q.idCol+" "+op+" ?"), append(args, p.AfterID)
		case q.sortUnique:
			where, args = append(where, sortExpr+" "+op+" ?"), append(args, cursor)
		default:
			where = append(where, fmt.Sprintf("(%s, %s) %s (?, ?)", sortExpr, q.idCol, op))
			args = append(args, cursor, p.AfterID)
		}
	}
	var orderBy string
	switch {
	case q.sort == "":
		orderBy = fmt.Sprintf(" ORDER BY %s %s", q.idCol, dir)
	case q.sortUnique:
		orderBy = fmt.Sprintf(" ORDER BY %s %s", sortExpr, dir)
	default:
		orderBy = fmt.Sprintf(" ORDER BY %s %s, %s %s", sortExpr, dir, q.idCol, dir)
	}
	cols := q.cols
	if q.late {
		cols = q.idCol
	}
	sqlText := "SELECT " + cols + " FROM " + q.from
	if len(where) > 0 {
		sqlText += " WHERE " + strings.Join(where, " AND ")
	}
	sqlText += orderBy + " LIMIT ?"
	args = append(args, p.Limit+1)
	if q.late && len(q.branches) > 0 {
		sqlText, args = branchPages(q, where, args[:len(args)-1], orderBy, dir, p.Limit+1)
	}
	if q.late {
		sqlText = "SELECT " + q.cols + " FROM " + q.from + " WHERE " + q.idCol + " IN (" + sqlText + ")" + orderBy
	}
	return collectPage(ctx, db, sqlText, args, p.Limit, scan)
}

// collectPage runs a page's query, which asks for limit+1 rows, and
// returns at most limit of them, with has_more when the extra one came.
func collectPage[T any](ctx context.Context, db conn, sqlText string, args []any, limit int,
	scan func(scanner) (T, error)) ([]T, bool, error) {
	rows, err := db.query(ctx, sqlText, args...)
	if err != nil {
		return nil, false, fmt.Errorf("list: %w", translate(err))
	}
	defer rows.Close()
	out := make([]T, 0, limit+1) // the extra row tells has_more
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, false, fmt.Errorf("scan: %w", err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("list: %w", translate(err))
	}
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}

// queryStrings returns the first column of every row.
func queryStrings(ctx context.Context, db conn, sql string, args ...any) ([]string, error) {
	return queryAll(ctx, db, func(row scanner) (v string, err error) { return v, row.Scan(&v) }, sql, args...)
}

// queryAll runs a query and collects every row as scan reads it (nil when
// there is none, as in the SQLite store).
func queryAll[T any](ctx context.Context, db conn, scan func(scanner) (T, error), sql string, args ...any) ([]T, error) {
	rows, err := db.query(ctx, sql, args...)
	if err != nil {
		return nil, translate(err)
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
	return out, translate(rows.Err())
}
