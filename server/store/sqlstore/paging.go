package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
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
	// late finds the page's keys first, in a subquery over from that reads
	// only what it tests (an index holding those columns serves it without
	// reading rows), then reads the page's rows alone: by lateKey (idCol
	// when empty; SQLite's rowid) from lateFrom (from when empty).
	late              bool
	lateKey, lateFrom string
	// With late, a non-empty branches splits that subquery into one page
	// per value, each with branchCond (one placeholder) bound to it, merged
	// in order: an index that leads with branchCond's expression then
	// serves each branch in page order, up to a page of entries apiece.
	branches   []any
	branchCond string
}

// keyCol is the column the late subquery returns.
func (q *listQuery) keyCol() string {
	if q.lateKey != "" {
		return q.lateKey
	}
	return q.idCol
}

// rowsFrom is where the page's rows are read from.
func (q *listQuery) rowsFrom() string {
	if q.late && q.lateFrom != "" {
		return q.lateFrom
	}
	return q.from
}

// page runs lq for p: it resolves the cursor row within the same scope (a
// cursor from another library or user is a 422, not an empty page), fetches
// one extra row to learn has_more, and scans each row with scan.
func page[T any](ctx context.Context, q Q, lq listQuery, p query.Page, scan func(scanner) (T, error)) ([]T, bool, error) {
	where := append([]string(nil), lq.where...)
	args := append([]any(nil), lq.args...)
	sortExpr := lq.sort
	if sortExpr == "" {
		sortExpr = lq.idCol
	}
	op, dir := ">", "ASC"
	if lq.desc {
		op, dir = "<", "DESC"
	}
	if p.AfterID != "" {
		cond := append(append([]string(nil), where...), lq.idCol+" = ?")
		var cursor any
		// The id's own index finds the cursor row.
		err := q.queryRow(ctx, "SELECT "+sortExpr+" FROM "+lq.rowsFrom()+" WHERE "+strings.Join(cond, " AND "),
			append(append([]any(nil), args...), p.AfterID)...).Scan(&cursor)
		if isNoRows(err) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this list", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve cursor: %w", q.translate(err))
		}
		switch {
		case lq.sort == "":
			where, args = append(where, lq.idCol+" "+op+" ?"), append(args, p.AfterID)
		case lq.sortUnique:
			where, args = append(where, sortExpr+" "+op+" ?"), append(args, cursor)
		default:
			where = append(where, fmt.Sprintf("(%s, %s) %s (?, ?)", sortExpr, lq.idCol, op))
			args = append(args, cursor, p.AfterID)
		}
	}
	var orderBy string
	switch {
	case lq.sort == "":
		// A repeated ORDER BY term would keep SQLite from using the index.
		orderBy = fmt.Sprintf(" ORDER BY %s %s", lq.idCol, dir)
	case lq.sortUnique:
		orderBy = fmt.Sprintf(" ORDER BY %s %s", sortExpr, dir)
	default:
		orderBy = fmt.Sprintf(" ORDER BY %s %s, %s %s", sortExpr, dir, lq.idCol, dir)
	}
	cols := lq.cols
	if lq.late {
		cols = lq.keyCol()
	}
	sqlText := "SELECT " + cols + " FROM " + lq.from
	if len(where) > 0 {
		sqlText += " WHERE " + strings.Join(where, " AND ")
	}
	sqlText += orderBy + " LIMIT ?"
	if lq.late && len(lq.branches) > 0 {
		sqlText, args = branchPages(lq, where, args, orderBy, dir, p.Limit+1)
	} else {
		args = append(args, p.Limit+1)
	}
	if lq.late {
		sqlText = "SELECT " + lq.cols + " FROM " + lq.rowsFrom() + " WHERE " + lq.keyCol() + " IN (" + sqlText + ")" + orderBy
	}
	return collectPage(ctx, q, sqlText, args, p.Limit, scan)
}

// branchPages is the keys subquery of a late lq split into lq.branches:
// each branch is a page of its own under where (args) and lq.branchCond,
// and the merge of them the page. PostgreSQL runs each branch as a short
// index scan in order and stops it after a page.
func branchPages(lq listQuery, where []string, args []any, orderBy, dir string, limit int) (string, []any) {
	sortExpr := lq.sort
	if sortExpr == "" {
		sortExpr = lq.idCol
	}
	cond := strings.Join(append(append([]string(nil), where...), lq.branchCond), " AND ")
	parts := make([]string, len(lq.branches))
	var out []any
	for i, v := range lq.branches {
		parts[i] = "(SELECT " + lq.keyCol() + " AS id, " + sortExpr + " AS sort FROM " + lq.from + " WHERE " + cond +
			orderBy + " LIMIT ?)"
		out = append(append(append(out, args...), v), limit)
	}
	return "SELECT id FROM (" + strings.Join(parts, " UNION ALL ") + ") b ORDER BY sort " + dir + ", id " + dir +
		" LIMIT ?", append(out, limit)
}

// collectPage runs a page's query, which asks for limit+1 rows, and
// returns at most limit of them, with has_more when the extra one came.
func collectPage[T any](ctx context.Context, q Q, sqlText string, args []any, limit int,
	scan func(scanner) (T, error)) ([]T, bool, error) {
	rows, err := q.query(ctx, sqlText, args...)
	if err != nil {
		return nil, false, fmt.Errorf("list: %w", q.translate(err))
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
		return nil, false, fmt.Errorf("list: %w", q.translate(err))
	}
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}
