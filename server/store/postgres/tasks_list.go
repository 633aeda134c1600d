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

func (s tasks) List(ctx context.Context, f store.TaskFilter, p store.Page) ([]catalog.Task, bool, error) {
	if f.LibraryID == "" && len(f.LibraryIDs) == 1 {
		f.LibraryID = f.LibraryIDs[0]
	}
	if f.LibraryID == "" {
		return s.listMany(ctx, f, p)
	}
	q := listQuery{cols: taskCols, from: "tasks", idCol: "id", desc: true,
		where: []string{"library_id = ?"}, args: []any{f.LibraryID}}
	where, args := taskFilters(f)
	q.where, q.args = append(q.where, where...), append(q.args, args...)
	return page(ctx, s.q, q, p, scanTaskRow)
}

func scanTaskRow(rows scanner) (catalog.Task, error) {
	t, err := scanTask(rows)
	if err != nil {
		return catalog.Task{}, err
	}
	return *t, nil
}

// taskFilters are the conditions of f beside its library.
func taskFilters(f store.TaskFilter) ([]string, []any) {
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

// taskListManySQL pages the tasks of several libraries (an array
// parameter): for each library the lateral subquery reads its page from
// its own range of tasks_library, in id order and cut at the page size,
// and only those short lists are merged and sorted. An = ANY over the
// libraries would read and sort every task of them. where holds the
// conditions after the library's.
func taskListManySQL(where []string) string {
	cond := ""
	if len(where) > 0 {
		cond = " AND " + strings.Join(where, " AND ")
	}
	return `SELECT t.* FROM unnest(?::text[]) AS l(id) CROSS JOIN LATERAL (
		SELECT ` + taskCols + ` FROM tasks WHERE library_id = l.id` + cond + ` ORDER BY id DESC LIMIT ?) t
		ORDER BY t.id DESC LIMIT ?`
}

// listMany is List over f.LibraryIDs (none lists nothing).
func (s tasks) listMany(ctx context.Context, f store.TaskFilter, p store.Page) ([]catalog.Task, bool, error) {
	if len(f.LibraryIDs) == 0 {
		return nil, false, nil
	}
	where, args := taskFilters(f)
	if p.AfterID != "" {
		// The cursor must be an item of this list, as page requires.
		cond := append([]string{"id = ?", "library_id = ANY(?::text[])"}, where...)
		var id string
		err := s.q.queryRow(ctx, `SELECT id FROM tasks WHERE `+strings.Join(cond, " AND "),
			append([]any{p.AfterID, f.LibraryIDs}, args...)...).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this list", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve cursor: %w", translate(err))
		}
		where, args = append(where, "id < ?"), append(args, p.AfterID)
	}
	all := append(append([]any{f.LibraryIDs}, args...), p.Limit+1, p.Limit+1)
	list, more, err := collectPage(ctx, s.q, taskListManySQL(where), all, p.Limit,
		scanTaskRow)
	if err != nil {
		return nil, false, fmt.Errorf("tasks: %w", err)
	}
	return list, more, nil
}
