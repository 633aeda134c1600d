package postgres

import "context"

// scanner is what pgx.Row and pgx.Rows offer.
type scanner interface{ Scan(dest ...any) error }

// queryStrings returns the first column of every row (the plan fixtures' ids).
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
