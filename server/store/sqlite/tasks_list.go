package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

func (s tasks) List(ctx context.Context, f store.TaskFilter, p store.Page) ([]catalog.Task, bool, error) {
	if f.LibraryID == "" && len(f.LibraryIDs) == 1 {
		f.LibraryID = f.LibraryIDs[0]
	}
	if f.LibraryID == "" {
		return s.listMany(ctx, f, p)
	}
	q := listQuery{cols: taskCols, from: "tasks", idCol: "id", desc: true,
		where: []string{"library_id = ?"}, args: []any{f.LibraryID}}
	if f.AssetID != "" {
		// The asset's few tasks, through its index: the unary + keeps the
		// planner from walking the whole library's index instead.
		q.where = []string{"+library_id = ?", "asset_id = ?"}
		q.args = append(q.args, f.AssetID)
	}
	where, args := taskFilters(f)
	q.where, q.args = append(q.where, where...), append(q.args, args...)
	return page(ctx, s.q, q, p, scanTaskRow)
}

func scanTaskRow(rows *sql.Rows) (catalog.Task, error) {
	t, err := scanTask(rows)
	if err != nil {
		return catalog.Task{}, err
	}
	return *t, nil
}

// taskFilters are the conditions of f beside its library and asset.
func taskFilters(f store.TaskFilter) ([]string, []any) {
	var where []string
	var args []any
	if f.State != "" {
		where, args = append(where, "state = ?"), append(args, string(f.State))
	}
	if f.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, f.Kind)
	}
	return where, args
}

// taskListManySQL pages the tasks of n libraries: each library's page
// comes from its own range of tasks_library (or tasks_library_state), in
// id order and cut at the page size, and only those n short lists are
// merged and sorted. An IN over the libraries would read and sort every
// task of them. where holds the conditions each branch adds after its
// library_id.
func taskListManySQL(n int, where []string) string {
	cond := ""
	if len(where) > 0 {
		cond = " AND " + strings.Join(where, " AND ")
	}
	branch := `SELECT * FROM (SELECT ` + taskCols + ` FROM tasks WHERE library_id = ?` + cond +
		` ORDER BY id DESC LIMIT ?)`
	return `SELECT * FROM (` + strings.TrimSuffix(strings.Repeat(branch+" UNION ALL ", n), " UNION ALL ") +
		`) ORDER BY id DESC LIMIT ?`
}

// listMany is List over f.LibraryIDs (none lists nothing).
func (s tasks) listMany(ctx context.Context, f store.TaskFilter, p store.Page) ([]catalog.Task, bool, error) {
	if len(f.LibraryIDs) == 0 {
		return nil, false, nil
	}
	where, args := taskFilters(f)
	if f.AssetID != "" {
		where, args = append(where, "asset_id = ?"), append(args, f.AssetID)
	}
	if p.AfterID != "" {
		// The cursor must be an item of this list, as page requires.
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(f.LibraryIDs)), ", ")
		cond := append([]string{"id = ?", "library_id IN (" + marks + ")"}, where...)
		cargs := append([]any{p.AfterID}, anySlice(f.LibraryIDs)...)
		var id string
		err := s.q.QueryRowContext(ctx, `SELECT id FROM tasks WHERE `+strings.Join(cond, " AND "),
			append(cargs, args...)...).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this list", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve cursor: %w", translate(err))
		}
		where, args = append(where, "id < ?"), append(args, p.AfterID)
	}
	var all []any
	for _, lib := range f.LibraryIDs {
		all = append(append(append(all, lib), args...), p.Limit+1)
	}
	list, more, err := collectPage(ctx, s.q, taskListManySQL(len(f.LibraryIDs), where), append(all, p.Limit+1), p.Limit,
		scanTaskRow)
	if err != nil {
		return nil, false, fmt.Errorf("tasks: %w", err)
	}
	return list, more, nil
}
