// Package migrate moves a library's database from SQLite to PostgreSQL
// (`photoctl admin migrate --from sqlite://... --to postgres://...`).
//
// Both schemas are brought up to date first (each store's own
// migrations), then every table PostgreSQL has is copied from the SQLite
// table of the same name, column by column name, in foreign-key order,
// inside one target transaction with triggers off (session_replication_role
// = replica): the trigger-maintained aggregates (day counts, geo cells,
// storage usage, name index) are copied as SQLite kept them rather than
// counted twice. Identity and serial columns are moved past the copied
// rows. After the commit each table's rows are counted and hashed on both
// sides (sha256 over the rows in primary-key order, values normalised by
// the target column's type) and the two must agree.
//
// The target must be empty: no table may hold a row the source does not
// hold identically (rows the migrations seed, such as geo_levels, are
// equal on both sides and left as they are).
package migrate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// ErrMismatch is returned (wrapped) when the verification finds a table
// whose count or checksum differs between the two databases.
var ErrMismatch = errors.New("source and target differ")

// ErrTargetNotEmpty is returned (wrapped) when the target holds rows.
var ErrTargetNotEmpty = errors.New("target database is not empty")

// Table is what happened to one table.
type Table struct {
	Name string
	// Action is "copied", "seeded" (equal rows put there by the target's
	// migrations), "rebuilt" (an index PostgreSQL builds from the copied
	// rows; only TargetRows is set), or "skipped" with Note saying why.
	Action string
	Note   string
	// Rows and Sum are the count and checksum of each side; Sum is empty
	// for a table not verified.
	SourceRows, TargetRows int64
	SourceSum, TargetSum   string
}

// Verified reports whether both sides were counted and agree.
func (t Table) Verified() bool {
	return t.SourceSum != "" && t.SourceRows == t.TargetRows && t.SourceSum == t.TargetSum
}

// Report lists every table in copy order.
type Report struct {
	Tables []Table
}

// Mismatches returns the tables that were compared and differ.
func (r *Report) Mismatches() []string {
	var bad []string
	for _, t := range r.Tables {
		if t.SourceSum != "" && !t.Verified() {
			bad = append(bad, t.Name)
		}
	}
	return bad
}

// Copy moves the database at from (sqlite://PATH, PATH a database file or
// a data directory holding photoctl.db) into the empty database at to
// (postgres://...), and verifies it. The report is returned with
// ErrMismatch as well, so the caller can print what differs.
func Copy(ctx context.Context, from, to string) (*Report, error) {
	s, d, err := open(ctx, from, to)
	if err != nil {
		return nil, err
	}
	defer s.close()
	defer d.close()
	p, err := plan(ctx, s, d, false)
	if err != nil {
		return nil, err
	}
	if err := copyAll(ctx, s, d, p); err != nil {
		return nil, err
	}
	return verify(ctx, s, d, p)
}

// Verify compares the databases at from and to as Copy does after copying,
// without writing: the counts and checksums of every table, and
// ErrMismatch (wrapped) when one differs.
func Verify(ctx context.Context, from, to string) (*Report, error) {
	s, d, err := open(ctx, from, to)
	if err != nil {
		return nil, err
	}
	defer s.close()
	defer d.close()
	p, err := plan(ctx, s, d, true)
	if err != nil {
		return nil, err
	}
	return verify(ctx, s, d, p)
}

// open opens both databases, migrating each to the current schema.
func open(ctx context.Context, from, to string) (*source, *target, error) {
	src, err := sqlitePath(from)
	if err != nil {
		return nil, nil, err
	}
	if !strings.HasPrefix(to, "postgres://") && !strings.HasPrefix(to, "postgresql://") {
		return nil, nil, fmt.Errorf("--to %q: want postgres://... (only SQLite to PostgreSQL is supported)", redact(to))
	}
	s, err := openSource(ctx, src)
	if err != nil {
		return nil, nil, err
	}
	d, err := openTarget(ctx, to)
	if err != nil {
		s.close()
		return nil, nil, err
	}
	return s, d, nil
}

// verify counts and hashes every planned table on both sides.
func verify(ctx context.Context, s *source, d *target, p *planned) (*Report, error) {
	rep := &Report{}
	var err error
	for _, t := range p.tables {
		row := Table{Name: t.name, Action: t.action, Note: t.note}
		switch t.action {
		case "rebuilt":
			if row.TargetRows, err = d.count(ctx, t.name); err != nil {
				return nil, fmt.Errorf("count %s in PostgreSQL: %w", t.name, err)
			}
		case "copied", "seeded":
			if row.SourceRows, row.SourceSum, err = s.checksum(ctx, t); err != nil {
				return nil, fmt.Errorf("checksum %s in SQLite: %w", t.name, err)
			}
			if row.TargetRows, row.TargetSum, err = d.checksum(ctx, t); err != nil {
				return nil, fmt.Errorf("checksum %s in PostgreSQL: %w", t.name, err)
			}
		}
		rep.Tables = append(rep.Tables, row)
	}
	if bad := rep.Mismatches(); len(bad) > 0 {
		return rep, fmt.Errorf("%w: %s", ErrMismatch, strings.Join(bad, ", "))
	}
	return rep, nil
}

// sqlitePath returns the database file named by sqlite://PATH: the file
// itself, or photoctl.db in PATH when PATH is a directory.
func sqlitePath(from string) (string, error) {
	path, ok := strings.CutPrefix(from, "sqlite://")
	if !ok || path == "" {
		return "", fmt.Errorf("--from %q: want sqlite://PATH (a photoctl.db file or the data directory)", from)
	}
	if u, err := url.PathUnescape(path); err == nil {
		path = u
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("--from: %w", err)
	}
	if fi.IsDir() {
		path = filepath.Join(path, "photoctl.db")
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("--from: %w", err)
		}
	}
	return path, nil
}

// redact hides the password of a database URL for messages.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable url)"
	}
	return u.Redacted()
}
