package migrate

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// column is a target column: its name and PostgreSQL type (udt_name:
// int8, text, bytea, jsonb, _float4, ...), which decides how a SQLite value
// is converted and how both sides' values are normalised for checksums.
type column struct {
	name, udt string
	// from and derive are set for a target column SQLite does not keep:
	// it is derive(the source's column from) (derivedColumns).
	from   string
	derive func(string) string
}

// source is the column read from SQLite for c.
func (c column) source() string {
	if c.from != "" {
		return c.from
	}
	return c.name
}

func (c column) isText() bool { return c.udt == "text" || c.udt == "varchar" || c.udt == "bpchar" }
func (c column) isJSON() bool { return c.udt == "json" || c.udt == "jsonb" }

// table is one table of the plan.
type table struct {
	name    string
	columns []column // copied: the target's stored columns the source has too
	order   []column // the row order of checksums: the target's primary key
	action  string   // "copied", "seeded", "rebuilt" or "skipped"
	note    string
}

// planned is the tables in copy order (referenced tables first).
type planned struct {
	tables []*table
}

// plan matches the two schemas and checks the target is empty. It refuses
// (before anything is written) a source column or a non-empty source table
// the target has no place for: copying would lose it.
// With verifying set it only matches them (the target holds the copy).
func plan(ctx context.Context, s *source, d *target, verifying bool) (*planned, error) {
	src, err := s.tables(ctx)
	if err != nil {
		return nil, err
	}
	dst, refs, err := d.schema(ctx)
	if err != nil {
		return nil, err
	}
	var problems []string
	p := &planned{}
	for _, name := range dependencyOrder(dst, refs) {
		pt := dst[name]
		t := &table{name: name}
		p.tables = append(p.tables, t)
		st := src[name]
		if _, ok := derived[name]; ok {
			t.action, t.note = "rebuilt", "an index PostgreSQL builds from the copied rows"
			continue
		}
		if st == nil || st.virtual {
			t.action, t.note = "skipped", "PostgreSQL only"
			continue
		}
		for _, c := range pt.columns {
			if d, ok := derivedColumns[name+"."+c.name]; ok && slices.Contains(st.columns, d.from) {
				c.from, c.derive = d.from, d.derive
				t.columns = append(t.columns, c)
			} else if slices.Contains(st.columns, c.name) {
				t.columns = append(t.columns, c)
			}
		}
		for _, c := range st.columns {
			if !slices.ContainsFunc(pt.columns, func(pc column) bool { return pc.name == c }) {
				problems = append(problems, fmt.Sprintf("column %s.%s is in SQLite only", name, c))
			}
		}
		t.order = orderColumns(pt, t.columns)
		t.action = "copied"
		if verifying {
			if seededTables[name] {
				t.action = "seeded"
			}
			continue
		}
		n, err := d.count(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("count %s in target: %w", name, err)
		}
		if n == 0 {
			continue
		}
		if !seededTables[name] {
			return nil, fmt.Errorf("%w: %s holds %d rows", ErrTargetNotEmpty, name, n)
		}
		// Rows the target's migrations put there are fine when the
		// source holds exactly the same.
		sn, ssum, err := s.checksum(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("checksum %s in SQLite: %w", name, err)
		}
		dn, dsum, err := d.checksum(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("checksum %s in PostgreSQL: %w", name, err)
		}
		if sn != dn || ssum != dsum {
			return nil, fmt.Errorf("%w: %s holds %d rows", ErrTargetNotEmpty, name, n)
		}
		t.action, t.note = "seeded", "equal rows from the target's migrations"
	}
	names := make([]string, 0, len(src))
	for name := range src {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		st := src[name]
		if dst[name] != nil || strings.HasPrefix(name, "sqlite_") {
			continue
		}
		if note, ok := sqliteDerived[name]; ok || st.virtual {
			if !ok {
				note = "SQLite index (virtual table); PostgreSQL indexes the copied rows itself"
			}
			p.tables = append(p.tables, &table{name: name, action: "skipped", note: note})
			continue
		}
		n, err := s.count(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("count %s in SQLite: %w", name, err)
		}
		if n > 0 {
			problems = append(problems, fmt.Sprintf("table %s (%d rows) is in SQLite only", name, n))
			continue
		}
		p.tables = append(p.tables, &table{name: name, action: "skipped", note: "SQLite only, empty"})
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("the target schema has no place for: %s (is the target's photoctl older than the source's?)",
			strings.Join(problems, "; "))
	}
	return p, nil
}

// orderColumns returns the target's primary key when all of it is copied,
// else every copied column.
func orderColumns(pt *pgTable, copied []column) []column {
	var order []column
	for _, k := range pt.pk {
		i := slices.IndexFunc(copied, func(c column) bool { return c.name == k })
		if i < 0 {
			return copied
		}
		order = append(order, copied[i])
	}
	if len(order) == 0 {
		return copied
	}
	return order
}

// dependencyOrder sorts the tables so that each comes after the tables it
// references (ties and cycles broken by name).
func dependencyOrder(tables map[string]*pgTable, refs map[string][]string) []string {
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	sort.Strings(names)
	done := map[string]bool{}
	visiting := map[string]bool{}
	var out []string
	var visit func(string)
	visit = func(n string) {
		if done[n] || visiting[n] || tables[n] == nil {
			return
		}
		visiting[n] = true
		deps := slices.Clone(refs[n])
		sort.Strings(deps)
		for _, r := range deps {
			visit(r)
		}
		visiting[n] = false
		done[n] = true
		out = append(out, n)
	}
	for _, n := range names {
		visit(n)
	}
	return out
}
