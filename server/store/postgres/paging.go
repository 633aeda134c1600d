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
		if q.sort == "" {
			where, args = append(where, q.idCol+" "+op+" ?"), append(args, p.AfterID)
		} else {
			where = append(where, fmt.Sprintf("(%s, %s) %s (?, ?)", sortExpr, q.idCol, op))
			args = append(args, cursor, p.AfterID)
		}
	}
	orderBy := fmt.Sprintf(" ORDER BY %s %s, %s %s", sortExpr, dir, q.idCol, dir)
	if q.sort == "" {
		orderBy = fmt.Sprintf(" ORDER BY %s %s", q.idCol, dir)
	}
	sqlText := "SELECT " + q.cols + " FROM " + q.from
	if len(where) > 0 {
		sqlText += " WHERE " + strings.Join(where, " AND ")
	}
	sqlText += orderBy + " LIMIT ?"
	args = append(args, p.Limit+1)
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
