package postgres

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// TestTaskQueryPlansUseIndexes requires the task queue's queries, as the
// repository issues them, to be answered through indexes (sequential
// scans priced out, as in TestQueryPlansUseIndexes): a worker claims and
// polls several times a second over a queue that keeps every finished task.
func TestTaskQueryPlansUseIndexes(t *testing.T) {
	db, err := Open(t.Context(), pgtest.NewURL(t, func(ctx context.Context, url string) error {
		db, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return db.Close()
	}))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	kinds := []string{"metadata", "variants"}
	cases := []struct {
		name string
		sql  string
		args []any
		// sort is allowed: the claim orders one candidate per kind.
		sort bool
	}{
		{"claim", claimSQL, []any{kinds, int64(1), []int32{3, 3}, kinds, "lease", int64(2), int64(1)}, true},
		{"next due", nextDueSQL, []any{kinds}, false},
		{"task by id", `SELECT ` + sqlstore.TaskCols + ` FROM tasks WHERE id = ?`, []any{"task_a"}, false},
		{"a transition out of running", `UPDATE tasks SET lease_until = ?` + sqlstore.TaskRunning, []any{int64(1), "task_a", "l"}, false},
		{"expired leases", `UPDATE tasks SET state = 'queued', lease_owner = NULL, lease_until = NULL
			WHERE state = 'running' AND lease_until <= ?`, []any{int64(1)}, false},
		{"expired leases out of attempts or superseded", `UPDATE tasks SET state = 'failed'
			WHERE state = 'running' AND lease_until <= ? AND (max_attempts > 0 AND attempts >= max_attempts
			OR EXISTS (SELECT 1 FROM tasks q WHERE q.subject = tasks.subject AND q.kind = tasks.kind
				AND q.state = 'queued'))`, []any{int64(1)}, false},
		{"list of a library after a cursor", `SELECT ` + sqlstore.TaskCols + ` FROM tasks
			WHERE library_id = ? AND id < ? ORDER BY id DESC LIMIT ?`, []any{"lib_a", "task_z", 21}, false},
		{"list of a library by state", `SELECT ` + sqlstore.TaskCols + ` FROM tasks
			WHERE library_id = ? AND state = ? AND id < ? ORDER BY id DESC LIMIT ?`,
			[]any{"lib_a", "failed", "task_z", 21}, false},
		{"list of an asset", `SELECT ` + sqlstore.TaskCols + ` FROM tasks
			WHERE library_id = ? AND asset_id = ? ORDER BY id DESC LIMIT ?`, []any{"lib_a", "asset_a", 21}, false},
		// Each library's page in index order; only those pages are sorted.
		{"list over several libraries", taskListManySQL([]string{"state = ?", "id < ?"}),
			[]any{[]string{"lib_a", "lib_b"}, "failed", "task_z", 21, 21}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := explainIndexed(t, db, c.sql, c.args)
			require.NotContains(t, text, "Seq Scan", text)
			if !c.sort {
				require.NotRegexp(t, `(?m)^\s*(->\s*)?Sort\b`, text, "a page must come in index order\n%s", text)
			}
		})
	}
}
