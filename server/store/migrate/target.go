package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/store/postgres"
)

// target is the PostgreSQL database: one connection, for the copy's one
// transaction and the checksums after it.
type target struct {
	conn *pgx.Conn
}

// pgTable is a table of the target as its catalog describes it.
type pgTable struct {
	name    string
	columns []column // stored columns (generated ones left out), in order
	pk      []string
}

// openTarget migrates the PostgreSQL database at url to the current
// schema (as serve would) and connects to it.
func openTarget(ctx context.Context, url string) (*target, error) {
	st, err := postgres.Open(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("open target: %w", err)
	}
	if err := st.Close(); err != nil {
		return nil, fmt.Errorf("close target: %w", err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("connect to target: %w", err)
	}
	return &target{conn: conn}, nil
}

func (d *target) close() { _ = d.conn.Close(context.Background()) }

// schema reads the target's tables (but schema_migrations), their stored
// columns and primary keys, and the foreign keys between them (table →
// tables it references).
func (d *target) schema(ctx context.Context) (map[string]*pgTable, map[string][]string, error) {
	tables := map[string]*pgTable{}
	rows, err := d.conn.Query(ctx, `
		SELECT c.table_name, c.column_name, c.udt_name
		FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
		  AND c.table_name <> 'schema_migrations' AND c.is_generated = 'NEVER'
		ORDER BY c.table_name, c.ordinal_position`)
	if err != nil {
		return nil, nil, fmt.Errorf("read target columns: %w", err)
	}
	for rows.Next() {
		var tbl string
		var c column
		if err := rows.Scan(&tbl, &c.name, &c.udt); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if tables[tbl] == nil {
			tables[tbl] = &pgTable{name: tbl}
		}
		tables[tbl].columns = append(tables[tbl].columns, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read target columns: %w", err)
	}
	rows, err = d.conn.Query(ctx, `
		SELECT cl.relname, a.attname
		FROM pg_index i
		JOIN pg_class cl ON cl.oid = i.indrelid
		JOIN pg_namespace n ON n.oid = cl.relnamespace AND n.nspname = current_schema()
		CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, pos)
		JOIN pg_attribute a ON a.attrelid = cl.oid AND a.attnum = k.attnum
		WHERE i.indisprimary
		ORDER BY cl.relname, k.pos`)
	if err != nil {
		return nil, nil, fmt.Errorf("read target primary keys: %w", err)
	}
	for rows.Next() {
		var tbl, col string
		if err := rows.Scan(&tbl, &col); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if t := tables[tbl]; t != nil {
			t.pk = append(t.pk, col)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read target primary keys: %w", err)
	}
	refs := map[string][]string{}
	rows, err = d.conn.Query(ctx, `
		SELECT DISTINCT cl.relname, rf.relname
		FROM pg_constraint c
		JOIN pg_class cl ON cl.oid = c.conrelid
		JOIN pg_class rf ON rf.oid = c.confrelid
		JOIN pg_namespace n ON n.oid = c.connamespace AND n.nspname = current_schema()
		WHERE c.contype = 'f'`)
	if err != nil {
		return nil, nil, fmt.Errorf("read target foreign keys: %w", err)
	}
	for rows.Next() {
		var from, to string
		if err := rows.Scan(&from, &to); err != nil {
			rows.Close()
			return nil, nil, err
		}
		refs[from] = append(refs[from], to)
	}
	rows.Close()
	return tables, refs, rows.Err()
}

// count returns how many rows a table holds.
func (d *target) count(ctx context.Context, name string) (int64, error) {
	var n int64
	err := d.conn.QueryRow(ctx, "SELECT count(*) FROM "+quote(name)).Scan(&n)
	return n, err
}

// checksum counts and hashes t's rows in the order the source uses: the
// primary key, text in byte order ("C"), NULLs first as in SQLite.
func (d *target) checksum(ctx context.Context, t *table) (int64, string, error) {
	sel := make([]string, len(t.columns))
	for i, c := range t.columns {
		sel[i] = quote(c.name)
		if c.isJSON() {
			sel[i] += "::text" // re-encoded the same way on both sides
		}
	}
	order := make([]string, len(t.order))
	for i, c := range t.order {
		order[i] = quote(c.name)
		if c.isText() {
			order[i] += ` COLLATE "C"`
		}
		order[i] += " NULLS FIRST"
	}
	rows, err := d.conn.Query(ctx, fmt.Sprintf("SELECT %s FROM %s ORDER BY %s",
		strings.Join(sel, ", "), quote(t.name), strings.Join(order, ", ")))
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	h := sha256.New()
	var n int64
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return 0, "", err
		}
		n++
		if err := hashRow(h, t, vals); err != nil {
			return 0, "", err
		}
	}
	return n, hex.EncodeToString(h.Sum(nil)), rows.Err()
}

// copyAll copies every planned table in one transaction with triggers
// and foreign-key checks off, then moves each identity and serial sequence
// past the largest copied value.
func copyAll(ctx context.Context, s *source, d *target, p *planned) error {
	tx, err := d.conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin target transaction: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
		return fmt.Errorf("turn triggers off (the target's role must be a superuser, "+
			"or be granted SET on session_replication_role): %w", err)
	}
	for _, t := range p.tables {
		if t.action != "copied" {
			continue
		}
		if err := copyTable(ctx, s, tx, t); err != nil {
			return err
		}
	}
	for _, t := range p.tables {
		if t.action != "rebuilt" {
			continue
		}
		for _, q := range derived[t.name] {
			if _, err := tx.Exec(ctx, q); err != nil {
				return fmt.Errorf("rebuild %s: %w", t.name, err)
			}
		}
	}
	if err := resetSequences(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit target: %w", err)
	}
	// A bulk load leaves PostgreSQL without statistics, so its planner
	// guesses (at 1M assets it chose plans that took a second for a page
	// of a city's box), and without the visibility map that index-only
	// scans need; autovacuum would catch up only minutes later. VACUUM
	// cannot run inside a transaction: the copy is committed by now.
	if _, err := d.conn.Exec(ctx, "VACUUM (ANALYZE)"); err != nil {
		return fmt.Errorf("vacuum and analyze the copy: %w", err)
	}
	return nil
}

// copyTable streams one table from the source into COPY FROM.
func copyTable(ctx context.Context, s *source, tx pgx.Tx, t *table) error {
	rows, err := s.rows(ctx, t)
	if err != nil {
		return fmt.Errorf("read %s: %w", t.name, err)
	}
	defer rows.Close()
	names := make([]string, len(t.columns))
	for i, c := range t.columns {
		names[i] = c.name
	}
	vals := make([]any, len(t.columns))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	out := make([]any, len(vals))
	next := func() ([]any, error) {
		if !rows.Next() {
			return nil, rows.Err()
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		deriveColumns(t, vals)
		for i, c := range t.columns {
			v, err := toTarget(c, vals[i])
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", t.name, c.name, err)
			}
			out[i] = v
		}
		return out, nil
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, names, pgx.CopyFromFunc(next)); err != nil {
		return fmt.Errorf("copy %s: %w", t.name, err)
	}
	return nil
}

// resetSequences sets every sequence owned by a column (identity, serial)
// so that the next value follows the largest copied one.
func resetSequences(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `
		SELECT c.table_name, c.column_name, s
		FROM information_schema.columns c,
		     LATERAL pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) AS s
		WHERE c.table_schema = current_schema() AND s IS NOT NULL`)
	if err != nil {
		return fmt.Errorf("list sequences: %w", err)
	}
	type seq struct{ table, column, name string }
	var seqs []seq
	for rows.Next() {
		var q seq
		if err := rows.Scan(&q.table, &q.column, &q.name); err != nil {
			rows.Close()
			return err
		}
		seqs = append(seqs, q)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list sequences: %w", err)
	}
	for _, q := range seqs {
		if _, err := tx.Exec(ctx, fmt.Sprintf("SELECT setval($1, coalesce((SELECT max(%s) FROM %s), 0) + 1, false)",
			quote(q.column), quote(q.table)), q.name); err != nil {
			return fmt.Errorf("move sequence %s: %w", q.name, err)
		}
	}
	return nil
}
