package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// The task queue is sqlstore's; SQLite's own are the claim and the
// queries over several kinds or libraries, UNION ALLs of one index range
// each (SQLite has no LATERAL join).

// claimSQL picks the task to claim among n kinds: each kind's candidate
// comes from its own index range, then the earliest of them wins.
func claimSQL(n int) string {
	return `SELECT id, kind, run_after FROM (` + strings.TrimSuffix(strings.Repeat(dueQuery+" UNION ALL ", n),
		" UNION ALL ") + `) ORDER BY run_after, id LIMIT 1`
}

// dueQuery is, for one kind, the id of its earliest due queued task whose
// subject has no task of that kind running.
const dueQuery = `SELECT * FROM (SELECT t.id, t.kind, t.run_after FROM tasks t
	WHERE t.kind = ? AND t.state = 'queued' AND t.run_after <= ?
	AND NOT EXISTS (SELECT 1 FROM tasks r WHERE r.subject = t.subject AND r.kind = t.kind AND r.state = 'running')
	ORDER BY t.run_after, t.id LIMIT 1)`

// claimTask is the dialect's ClaimTask: the candidate is picked, then
// marked running, with no other writer in between (SQLite runs one write
// transaction at a time).
func claimTask(ctx context.Context, q sqlstore.Conn, c query.Claim, kinds []string) (*catalog.Task, error) {
	args := make([]any, 0, 2*len(kinds))
	for _, k := range kinds {
		args = append(args, k, c.Now.UnixMicro())
	}
	var id, kind string
	var runAfter int64
	err := q.QueryRow(ctx, claimSQL(len(kinds)), args...).Scan(&id, &kind, &runAfter)
	if err != nil {
		return nil, fmt.Errorf("claim task of kinds %s: %w", strings.Join(kinds, ","), translate(err))
	}
	t, err := sqlstore.ScanTask(q.QueryRow(ctx, `UPDATE tasks SET state = 'running', attempts = attempts + 1,
		max_attempts = ?, lease_owner = ?, lease_until = ?, started_at = ?, finished_at = NULL, progress = 0
		WHERE id = ? RETURNING `+sqlstore.TaskCols, c.Kinds[kind], c.Lease, c.LeaseUntil.UnixMicro(), c.Now.UnixMicro(), id))
	if err != nil {
		return nil, fmt.Errorf("claim task %s: %w", id, translate(err))
	}
	return t, nil
}

// nextDueSQL finds the earliest run_after among queued tasks of n kinds,
// one index lookup per kind.
func nextDueSQL(n int) string {
	const one = `SELECT min(run_after) AS due FROM tasks WHERE kind = ? AND state = 'queued'`
	return `SELECT min(due) FROM (` + strings.TrimSuffix(strings.Repeat(one+" UNION ALL ", n), " UNION ALL ") + `)`
}

// taskListManySQL pages the tasks of n libraries: each library's page
// comes from its own range of tasks_library (or tasks_library_state), in
// id order and cut at the page size, and only those n short lists are
// merged and sorted. where holds the conditions each branch adds after
// its library_id.
func taskListManySQL(n int, where []string) string {
	cond := ""
	if len(where) > 0 {
		cond = " AND " + strings.Join(where, " AND ")
	}
	branch := `SELECT * FROM (SELECT ` + sqlstore.TaskCols + ` FROM tasks WHERE library_id = ?` + cond +
		` ORDER BY id DESC LIMIT ?)`
	return `SELECT * FROM (` + strings.TrimSuffix(strings.Repeat(branch+" UNION ALL ", n), " UNION ALL ") +
		`) ORDER BY id DESC LIMIT ?`
}

// taskPages is the dialect's TaskPages: each branch binds its library,
// where's arguments and the limit.
func taskPages(libs, where []string, args []any, limit int) (string, []any) {
	var all []any
	for _, lib := range libs {
		all = append(append(append(all, lib), args...), limit)
	}
	return taskListManySQL(len(libs), where), append(all, limit)
}
