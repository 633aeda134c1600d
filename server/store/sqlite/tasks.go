package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type tasks struct{ q querier }

func (r repos) Tasks() store.Tasks { return tasks{r.q} }

var _ store.Tasks = tasks{}

const taskCols = `id, kind, state, asset_id, library_id, attempts, max_attempts, error, progress, run_after,
	lease_owner, lease_until, created_at, started_at, finished_at`

// supersededNote ends the error of a task that is not queued again because
// a newer task of its kind is queued for the same subject.
const supersededNote = " (not retried: a newer task of this kind is queued for the same subject)"

func scanTask(row interface{ Scan(...any) error }) (*catalog.Task, error) {
	var t catalog.Task
	var assetID, errText, owner sql.NullString
	var progress sql.NullFloat64
	var runAfter, created int64
	var leaseUntil, started, finished sql.NullInt64
	err := row.Scan(&t.ID, &t.Kind, &t.State, &assetID, &t.LibraryID, &t.Attempts, &t.MaxAttempts, &errText,
		&progress, &runAfter, &owner, &leaseUntil, &created, &started, &finished)
	if err != nil {
		return nil, err
	}
	t.AssetID, t.LeaseOwner = assetID.String, owner.String
	if errText.Valid {
		t.Error = &errText.String
	}
	if progress.Valid {
		t.Progress = &progress.Float64
	}
	t.RunAfter, t.CreatedAt = fromMicros(runAfter), fromMicros(created)
	t.LeaseUntil, t.StartedAt, t.FinishedAt = fromNullMicros(leaseUntil), fromNullMicros(started), fromNullMicros(finished)
	return &t, nil
}

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s tasks) Enqueue(ctx context.Context, t *catalog.Task) (bool, error) {
	res, err := s.q.ExecContext(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject,
		run_after, created_at) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		t.ID, t.Kind, nullString(t.AssetID), t.LibraryID, t.Subject(), micros(t.RunAfter), micros(t.CreatedAt))
	if err != nil {
		return false, one("enqueue task", t.Kind, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, one("enqueue task", t.Kind, err)
	}
	if n == 1 {
		t.State = catalog.TaskQueued
	}
	return n == 1, nil
}

func (s tasks) AddSkipped(ctx context.Context, t *catalog.Task, note string) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject, error, progress,
		run_after, created_at, finished_at) VALUES (?, ?, 'succeeded', ?, ?, ?, ?, 1, ?, ?, ?)`,
		t.ID, t.Kind, nullString(t.AssetID), t.LibraryID, t.Subject(), nullString(note), micros(t.CreatedAt),
		micros(t.CreatedAt), micros(t.CreatedAt))
	return one("record skipped task", t.Kind, err)
}

func (s tasks) Get(ctx context.Context, id string) (*catalog.Task, error) {
	t, err := scanTask(s.q.QueryRowContext(ctx, `SELECT `+taskCols+` FROM tasks WHERE id = ?`, id))
	return t, one("task", id, err)
}

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

func (s tasks) Claim(ctx context.Context, c store.Claim) (*catalog.Task, error) {
	if len(c.Kinds) == 0 {
		return nil, fmt.Errorf("claim task: no kinds: %w", catalog.ErrNotFound)
	}
	kinds := sortedKinds(c.Kinds)
	args := make([]any, 0, 2*len(kinds))
	for _, k := range kinds {
		args = append(args, k, micros(c.Now))
	}
	var id, kind string
	var runAfter int64
	err := s.q.QueryRowContext(ctx, claimSQL(len(kinds)), args...).Scan(&id, &kind, &runAfter)
	if err != nil {
		return nil, one("claim task of kinds", strings.Join(kinds, ","), err)
	}
	t, err := scanTask(s.q.QueryRowContext(ctx, `UPDATE tasks SET state = 'running', attempts = attempts + 1,
		max_attempts = ?, lease_owner = ?, lease_until = ?, started_at = ?, finished_at = NULL, progress = 0
		WHERE id = ? RETURNING `+taskCols, c.Kinds[kind], c.Lease, micros(c.LeaseUntil), micros(c.Now), id))
	return t, one("claim task", id, err)
}

func sortedKinds(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// running is the condition of every transition out of running: the task
// is still running under the caller's lease.
const running = ` WHERE id = ? AND state = 'running' AND lease_owner = ?`

func (s tasks) Extend(ctx context.Context, id, lease string, until time.Time) error {
	res, err := s.q.ExecContext(ctx, `UPDATE tasks SET lease_until = ?`+running, micros(until), id, lease)
	return affected("extend lease of task", id, res, err)
}

func (s tasks) Succeed(ctx context.Context, id, lease, note string, now time.Time) error {
	res, err := s.q.ExecContext(ctx, `UPDATE tasks SET state = 'succeeded', error = nullif(?, ''), progress = 1,
		finished_at = ?, lease_owner = NULL, lease_until = NULL`+running, note, micros(now), id, lease)
	return affected("finish task", id, res, err)
}

func (s tasks) Fail(ctx context.Context, id, lease, errText string, now time.Time) error {
	res, err := s.q.ExecContext(ctx, `UPDATE tasks SET state = 'failed', error = ?, progress = NULL,
		finished_at = ?, lease_owner = NULL, lease_until = NULL`+running, errText, micros(now), id, lease)
	return affected("fail task", id, res, err)
}

func (s tasks) Retry(ctx context.Context, id, lease, errText string, runAfter, now time.Time) (bool, error) {
	res, err := s.q.ExecContext(ctx, `UPDATE tasks SET state = 'queued', error = ?, progress = NULL,
		run_after = ?, lease_owner = NULL, lease_until = NULL`+running, errText, micros(runAfter), id, lease)
	return s.requeued(ctx, "retry task", id, lease, errText, now, res, err)
}

func (s tasks) Release(ctx context.Context, id, lease string, now time.Time) (bool, error) {
	res, err := s.q.ExecContext(ctx, `UPDATE tasks SET state = 'queued', attempts = max(attempts - 1, 0),
		progress = NULL, lease_owner = NULL, lease_until = NULL`+running, id, lease)
	return s.requeued(ctx, "release task", id, lease, "the worker running it stopped", now, res, err)
}

// requeued finishes a move back to the queue. When the one-queued-task
// index refused it, the task fails instead, noting that a newer one will do
// the work, and requeued reports false.
func (s tasks) requeued(ctx context.Context, what, id, lease, errText string, now time.Time, res sql.Result, err error) (bool, error) {
	if err == nil || !errors.Is(translate(err), catalog.ErrConflict) {
		return err == nil, affected(what, id, res, err)
	}
	return false, s.Fail(ctx, id, lease, errText+supersededNote, now)
}

func (s tasks) Requeue(ctx context.Context, leaseEnd, now time.Time, reason string) (int, int, error) {
	res, err := s.q.ExecContext(ctx, `UPDATE tasks SET state = 'failed', error = ?, progress = NULL,
		finished_at = ?, lease_owner = NULL, lease_until = NULL
		WHERE state = 'running' AND lease_until <= ? AND (max_attempts > 0 AND attempts >= max_attempts
			OR EXISTS (SELECT 1 FROM tasks q WHERE q.subject = tasks.subject AND q.kind = tasks.kind
				AND q.state = 'queued'))`,
		reason, micros(now), micros(leaseEnd))
	if err != nil {
		return 0, 0, fmt.Errorf("fail abandoned tasks: %w", translate(err))
	}
	failed, err := res.RowsAffected()
	if err != nil {
		return 0, 0, err
	}
	res, err = s.q.ExecContext(ctx, `UPDATE tasks SET state = 'queued', error = ?, progress = NULL,
		lease_owner = NULL, lease_until = NULL WHERE state = 'running' AND lease_until <= ?`,
		reason, micros(leaseEnd))
	if err != nil {
		return 0, 0, fmt.Errorf("requeue abandoned tasks: %w", translate(err))
	}
	requeued, err := res.RowsAffected()
	return int(requeued), int(failed), err
}

func (s tasks) NextDue(ctx context.Context, kinds []string) (time.Time, error) {
	if len(kinds) == 0 {
		return time.Time{}, fmt.Errorf("next due task: no kinds: %w", catalog.ErrNotFound)
	}
	var due sql.NullInt64
	err := s.q.QueryRowContext(ctx, nextDueSQL(len(kinds)), anySlice(kinds)...).Scan(&due)
	if err != nil {
		return time.Time{}, fmt.Errorf("next due task: %w", translate(err))
	}
	if !due.Valid {
		return time.Time{}, fmt.Errorf("next due task: none queued: %w", catalog.ErrNotFound)
	}
	return fromMicros(due.Int64), nil
}

// nextDueSQL finds the earliest run_after among queued tasks of n kinds,
// one index lookup per kind.
func nextDueSQL(n int) string {
	const one = `SELECT min(run_after) AS due FROM tasks WHERE kind = ? AND state = 'queued'`
	return `SELECT min(due) FROM (` + strings.TrimSuffix(strings.Repeat(one+" UNION ALL ", n), " UNION ALL ") + `)`
}
