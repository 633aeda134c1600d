package migrate

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/store/sqlite"
)

// sqliteDriver is the database/sql driver the sqlite store registers (its
// Open registers it): go-sqlite3 with photoctl's SQL functions. Only
// server/store/sqlite imports go-sqlite3; this package reads through it.
const sqliteDriver = "photoctl_sqlite3"

// source is the SQLite database, read in one read transaction so that
// every table is copied from the same snapshot (WAL keeps it while a
// server writes beside us).
type source struct {
	db *sql.DB
	tx *sql.Tx
}

// sqliteTable is a table of the source: its columns in order, whether it
// is a virtual table (or one of a virtual table's shadow tables).
type sqliteTable struct {
	name    string
	columns []string
	virtual bool
}

// openSource migrates the SQLite database at path to the current schema
// (as serve would) and opens a read snapshot of it.
func openSource(ctx context.Context, path string) (*source, error) {
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open source: %w", err)
	}
	if err := st.Close(); err != nil {
		return nil, fmt.Errorf("close source: %w", err)
	}
	dsn := "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path) +
		"?mode=ro&_busy_timeout=10000&_query_only=on"
	db, err := sql.Open(sqliteDriver, dsn)
	if err != nil {
		return nil, fmt.Errorf("open source: %w", err)
	}
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("begin source snapshot: %w", err)
	}
	return &source{db: db, tx: tx}, nil
}

func (s *source) close() {
	_ = s.tx.Rollback()
	_ = s.db.Close()
}

// tables lists the source's tables by name. Virtual tables (the R*Tree,
// FTS5) and their shadow tables are marked: they are indexes PostgreSQL
// builds its own way.
func (s *source) tables(ctx context.Context) (map[string]*sqliteTable, error) {
	rows, err := s.tx.QueryContext(ctx, `SELECT name, coalesce(sql, '') FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return nil, fmt.Errorf("list source tables: %w", err)
	}
	out := map[string]*sqliteTable{}
	var virtual []string
	for rows.Next() {
		var name, ddl string
		if err := rows.Scan(&name, &ddl); err != nil {
			rows.Close()
			return nil, err
		}
		t := &sqliteTable{name: name, virtual: strings.HasPrefix(strings.ToUpper(ddl), "CREATE VIRTUAL TABLE")}
		if t.virtual {
			virtual = append(virtual, name)
		}
		out[name] = t
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for name, t := range out {
		for _, v := range virtual {
			if strings.HasPrefix(name, v+"_") {
				t.virtual = true // a shadow table: assets_geo_node, search_text_data, ...
			}
		}
		if t.columns, err = s.columns(ctx, name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// columns returns a table's stored columns (PRAGMA table_info leaves out
// generated columns, which the target computes itself or does not have).
func (s *source) columns(ctx context.Context, table string) ([]string, error) {
	rows, err := s.tx.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, fmt.Errorf("columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

// rows reads the table's copied columns in the order checksums use.
func (s *source) rows(ctx context.Context, t *table) (*sql.Rows, error) {
	order := make([]string, len(t.order))
	for i, c := range t.order {
		order[i] = quote(c.source())
		if c.isText() {
			order[i] += " COLLATE BINARY" // byte order, as PostgreSQL's "C"
		}
	}
	sel := make([]string, len(t.columns))
	for i, c := range t.columns {
		sel[i] = quote(c.source())
	}
	q := fmt.Sprintf("SELECT %s FROM %s ORDER BY %s", strings.Join(sel, ", "), quote(t.name), strings.Join(order, ", "))
	return s.tx.QueryContext(ctx, q)
}

// scan reads every row of t in order, handing each to fn.
func (s *source) scan(ctx context.Context, t *table, fn func([]any) error) error {
	rows, err := s.rows(ctx, t)
	if err != nil {
		return fmt.Errorf("read %s: %w", t.name, err)
	}
	defer rows.Close()
	vals := make([]any, len(t.columns))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("read %s: %w", t.name, err)
		}
		deriveColumns(t, vals)
		if err := fn(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// checksum counts and hashes t's rows.
func (s *source) checksum(ctx context.Context, t *table) (int64, string, error) {
	h := sha256.New()
	var n int64
	err := s.scan(ctx, t, func(vals []any) error {
		n++
		return hashRow(h, t, vals)
	})
	return n, hex.EncodeToString(h.Sum(nil)), err
}

// count returns how many rows t holds.
func (s *source) count(ctx context.Context, name string) (int64, error) {
	var n int64
	err := s.tx.QueryRowContext(ctx, "SELECT count(*) FROM "+quote(name)).Scan(&n)
	return n, err
}

// deriveColumns computes, in place, the values of t's derived columns.
func deriveColumns(t *table, vals []any) {
	for i, c := range t.columns {
		if c.derive == nil || vals[i] == nil {
			continue
		}
		switch v := vals[i].(type) {
		case string:
			vals[i] = c.derive(v)
		case []byte:
			vals[i] = c.derive(string(v))
		}
	}
}

// quote quotes an identifier for either dialect.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
