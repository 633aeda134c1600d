package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

func (s Tasks) List(ctx context.Context, f query.TaskFilter, p query.Page) ([]catalog.Task, bool, error) {
	if f.LibraryID == "" && len(f.LibraryIDs) == 1 {
		f.LibraryID = f.LibraryIDs[0]
	}
	if f.LibraryID == "" {
		return s.listMany(ctx, f, p)
	}
	lib := "library_id = ?"
	if f.AssetID != "" {
		// The asset's few tasks, through its index: SQLite's unary + keeps
		// its planner from walking the whole library's index instead.
		lib = s.q.d.Unindexed("library_id") + " = ?"
	}
	q := listQuery{cols: TaskCols, from: "tasks", idCol: "id", desc: true,
		where: []string{lib}, args: []any{f.LibraryID}}
	where, args := taskFilters(f)
	q.where, q.args = append(q.where, where...), append(q.args, args...)
	return page(ctx, s.q, q, p, scanTaskRow)
}

func scanTaskRow(row scanner) (catalog.Task, error) {
	t, err := ScanTask(row)
	if err != nil {
		return catalog.Task{}, err
	}
	return *t, nil
}

// taskFilters are the conditions of f beside its library.
func taskFilters(f query.TaskFilter) ([]string, []any) {
	var where []string
	var args []any
	if f.AssetID != "" {
		where, args = append(where, "asset_id = ?"), append(args, f.AssetID)
	}
	if f.State != "" {
		where, args = append(where, "state = ?"), append(args, string(f.State))
	}
	if f.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, f.Kind)
	}
	return where, args
}

// listMany is List over f.LibraryIDs (none lists nothing). Each library's
// page comes from its own range of tasks_library (Dialect.TaskPages), in
// id order and cut at the page size, and only those short lists are
// merged and sorted: an IN over the libraries would read and sort every
// task of them.
func (s Tasks) listMany(ctx context.Context, f query.TaskFilter, p query.Page) ([]catalog.Task, bool, error) {
	if len(f.LibraryIDs) == 0 {
		return nil, false, nil
	}
	where, args := taskFilters(f)
	if p.AfterID != "" {
		// The cursor must be an item of this list, as page requires.
		in, inArgs := s.q.d.In("library_id", f.LibraryIDs)
		cond := append([]string{"id = ?", in}, where...)
		var id string
		err := s.q.queryRow(ctx, `SELECT id FROM tasks WHERE `+strings.Join(cond, " AND "),
			Args(p.AfterID, inArgs, args)...).Scan(&id)
		if isNoRows(err) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this list", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve cursor: %w", s.q.translate(err))
		}
		where, args = append(where, "id < ?"), append(args, p.AfterID)
	}
	query, all := s.q.d.TaskPages(f.LibraryIDs, where, args, p.Limit+1)
	list, more, err := collectPage(ctx, s.q, query, all, p.Limit, scanTaskRow)
	if err != nil {
		return nil, false, fmt.Errorf("tasks: %w", err)
	}
	return list, more, nil
}
