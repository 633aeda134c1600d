package sqlite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// taskPlanCases are the task queue's queries as tasks.go issues them.
// Claims and lease checks run all the time on a queue that can hold
// millions of finished tasks, so none may scan; the list queries are the
// API's.
var taskPlanCases = []planCase{
	{name: "claim candidate of one kind", sql: dueQuery, args: []any{"metadata", 1}},
	// Merging the kinds' candidates sorts one row per kind.
	{name: "claim among three kinds", sql: claimSQL(3), tempSortOK: true,
		args: []any{"metadata", 1, "variants", 1, "geocode", 1}},
	{name: "claim update", sql: `UPDATE tasks SET state = 'running', attempts = attempts + 1,
		max_attempts = ?, lease_owner = ?, lease_until = ?, started_at = ?, finished_at = NULL, progress = 0
		WHERE id = ? RETURNING ` + sqlstore.TaskCols, args: []any{5, "r#1", 2, 1, "task_a"}},
	{name: "next due among three kinds", sql: nextDueSQL(3), args: []any{"metadata", "variants", "geocode"}},
	{name: "lease transition", sql: `UPDATE tasks SET lease_until = ?` + sqlstore.TaskRunning, args: []any{1, "task_a", "r#1"}},
	{name: "requeue: fail the spent and superseded", sql: `UPDATE tasks SET state = 'failed', error = ?,
		progress = NULL, finished_at = ?, lease_owner = NULL, lease_until = NULL
		WHERE state = 'running' AND lease_until <= ? AND (max_attempts > 0 AND attempts >= max_attempts
			OR EXISTS (SELECT 1 FROM tasks q WHERE q.subject = tasks.subject AND q.kind = tasks.kind
				AND q.state = 'queued'))`, args: []any{"stopped", 1, 1}},
	{name: "requeue: the rest", sql: `UPDATE tasks SET state = 'queued', error = ?, progress = NULL,
		lease_owner = NULL, lease_until = NULL WHERE state = 'running' AND lease_until <= ?`, args: []any{"stopped", 1}},
	{name: "asset deletion cascades to its tasks", sql: `DELETE FROM tasks WHERE asset_id = ?`, args: []any{"asset_a"}},
	{name: "task list, first page", sql: "SELECT " + sqlstore.TaskCols + " FROM tasks WHERE library_id = ? ORDER BY id DESC LIMIT ?",
		args: []any{"lib_a", 21}},
	{name: "task list after a cursor", sql: "SELECT " + sqlstore.TaskCols + " FROM tasks WHERE library_id = ? AND id < ?" +
		" ORDER BY id DESC LIMIT ?", args: []any{"lib_a", "task_a", 21}},
	{name: "task list cursor lookup", sql: "SELECT id FROM tasks WHERE library_id = ? AND state = ? AND id = ?",
		args: []any{"lib_a", "failed", "task_a"}},
	{name: "task list by state", sql: "SELECT " + sqlstore.TaskCols + " FROM tasks WHERE library_id = ? AND state = ?" +
		" AND id < ? ORDER BY id DESC LIMIT ?", args: []any{"lib_a", "failed", "task_a", 21}},
	{name: "task list by asset", sql: "SELECT " + sqlstore.TaskCols + " FROM tasks WHERE +library_id = ? AND asset_id = ?" +
		" AND state = ? ORDER BY id DESC LIMIT ?", args: []any{"lib_a", "asset_a", "queued", 21}},
	// Over several libraries each one's page comes from its own index
	// range; only the few rows of those pages are sorted together.
	{name: "task list over three libraries", sql: taskListManySQL(3, []string{"id < ?"}), tempSortOK: true,
		args: []any{"lib_a", "task_z", 21, "lib_b", "task_z", 21, "lib_c", "task_z", 21, 21}},
	{name: "task list over two libraries by state", sql: taskListManySQL(2, []string{"state = ?"}), tempSortOK: true,
		args: []any{"lib_a", "failed", 21, "lib_b", "failed", 21, 21}},
}

// TestTaskQueriesUseIndexes explains the task queue's queries, like
// TestQueriesUseIndexes, and also requires the index each one is meant to
// use, so that a plan falling back to another index shows.
func TestTaskQueriesUseIndexes(t *testing.T) {
	want := map[string]string{
		"claim candidate of one kind":            "tasks_active",
		"claim among three kinds":                "tasks_due",
		"next due among three kinds":             "tasks_due",
		"requeue: fail the spent and superseded": "tasks_leases",
		"requeue: the rest":                      "tasks_leases",
		"asset deletion cascades to its tasks":   "tasks_asset",
		"task list, first page":                  "tasks_library",
		"task list by state":                     "tasks_library_state",
		"task list by asset":                     "tasks_asset",
		"task list cursor lookup":                "sqlite_autoindex_tasks_1",
		"lease transition":                       "sqlite_autoindex_tasks_1",
		"claim update":                           "sqlite_autoindex_tasks_1",
		"task list after a cursor":               "tasks_library",
		"task list over three libraries":         "tasks_library",
		"task list over two libraries by state":  "tasks_library_state",
	}
	conn := planConn(t)

	for _, c := range taskPlanCases {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				if c.tempSortOK && (strings.HasPrefix(row, "SCAN (subquery-") || strings.Contains(row, "TEMP B-TREE")) {
					continue
				}
				require.False(t, fullScan(row) || strings.Contains(row, "TEMP B-TREE"), "bad plan row: %s", row)
			}
			index, ok := want[c.name]
			require.True(t, ok, "say which index %q should use", c.name)
			require.Contains(t, strings.Join(plan, "\n"), index)
		})
	}
}
