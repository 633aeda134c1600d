package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// The task queue is sqlstore's; PostgreSQL's own are the claim, the
// savepoints (tasks_savepoint.go) and the queries over several kinds or
// libraries, LATERAL joins over an array parameter.

// claimSQL claims one task in one statement. For each asked kind, the
// lateral subquery walks tasks_due from the earliest due task, passes over
// tasks whose subject runs that kind already, and locks its first
// candidate FOR UPDATE SKIP LOCKED: a row another claimer holds is passed
// over rather than waited for, and a row another claimer changed since
// this transaction's snapshot aborts it as a serialization failure (InTx
// runs it again). The earliest of the kinds' candidates is then marked
// running. So concurrent claimers, in this process or another, never hand
// out one task twice, and none waits for another's commit. max_attempts
// is looked up from the parallel arrays of kinds and attempts.
//
// OFFSET 0 keeps the busy-subject test a subplan run per candidate, one
// probe of tasks_active by (subject, kind): pulled up into an anti-join,
// the planner scans every entry of the kind in tasks_active instead, and
// that index keeps an entry for every task that ever ran until VACUUM.
const claimSQL = `WITH pick AS (
	SELECT c.id AS claimed FROM unnest(?::text[]) AS k(kind) CROSS JOIN LATERAL (
		SELECT t.id, t.run_after FROM tasks t
		WHERE t.kind = k.kind AND t.state = 'queued' AND t.run_after <= ?
			AND NOT EXISTS (SELECT 1 FROM tasks r
				WHERE r.subject = t.subject AND r.kind = t.kind AND r.state = 'running' OFFSET 0)
		ORDER BY t.run_after, t.id LIMIT 1
		FOR UPDATE SKIP LOCKED) c
	ORDER BY c.run_after, c.id LIMIT 1)
UPDATE tasks SET state = 'running', attempts = attempts + 1,
	max_attempts = (?::integer[])[array_position(?::text[], tasks.kind::text)],
	lease_owner = ?, lease_until = ?, started_at = ?, finished_at = NULL, progress = 0
FROM pick WHERE tasks.id = pick.claimed RETURNING ` + sqlstore.TaskCols

// claimTask is the dialect's ClaimTask.
func claimTask(ctx context.Context, q sqlstore.Conn, c query.Claim, kinds []string) (*catalog.Task, error) {
	attempts := make([]int32, len(kinds))
	for i, k := range kinds {
		attempts[i] = int32(c.Kinds[k])
	}
	t, err := sqlstore.ScanTask(q.QueryRow(ctx, claimSQL, kinds, c.Now.UnixMicro(), attempts, kinds,
		c.Lease, c.LeaseUntil.UnixMicro(), c.Now.UnixMicro()))
	if err != nil {
		return nil, fmt.Errorf("claim task of kinds %s: %w", strings.Join(kinds, ","), translate(err))
	}
	return t, nil
}

// nextDueSQL finds the earliest run_after among queued tasks of the kinds,
// one index lookup (tasks_due) per kind.
const nextDueSQL = `SELECT min(m.due) FROM unnest(?::text[]) AS k(kind) CROSS JOIN LATERAL
	(SELECT min(run_after) AS due FROM tasks WHERE kind = k.kind AND state = 'queued') m`

// taskListManySQL pages the tasks of several libraries (an array
// parameter): for each library the lateral subquery reads its page from
// its own range of tasks_library, in id order and cut at the page size,
// and only those short lists are merged and sorted. where holds the
// conditions after the library's.
func taskListManySQL(where []string) string {
	cond := ""
	if len(where) > 0 {
		cond = " AND " + strings.Join(where, " AND ")
	}
	return `SELECT t.* FROM unnest(?::text[]) AS l(id) CROSS JOIN LATERAL (
		SELECT ` + sqlstore.TaskCols + ` FROM tasks WHERE library_id = l.id` + cond + ` ORDER BY id DESC LIMIT ?) t
		ORDER BY t.id DESC LIMIT ?`
}

// taskPages is the dialect's TaskPages.
func taskPages(libs, where []string, args []any, limit int) (string, []any) {
	return taskListManySQL(where), append(append([]any{libs}, args...), limit, limit)
}
