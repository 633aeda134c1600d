package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Tasks is the task queue. Claiming a task is the dialect's
// (Dialect.ClaimTask): PostgreSQL locks its candidate FOR UPDATE SKIP
// LOCKED, SQLite relies on its single writer.
type Tasks struct{ q Q }

var _ store.Tasks = Tasks{}

// Tasks returns the task queue.
func (r Repos) Tasks() store.Tasks { return Tasks{r.Q} }

// TaskCols are the columns ScanTask reads, in its order.
const TaskCols = `id, kind, state, asset_id, library_id, attempts, max_attempts, error, progress, run_after,
	lease_owner, lease_until, created_at, started_at, finished_at`

// TaskRunning is the condition of every transition out of running: the
// task is still running under the caller's lease.
const TaskRunning = ` WHERE id = ? AND state = 'running' AND lease_owner = ?`

// supersededNote ends the error of a task that is not queued again because
// a newer task of its kind is queued for the same subject.
const supersededNote = " (not retried: a newer task of this kind is queued for the same subject)"

// ScanTask scans a row of TaskCols.
func ScanTask(row Row) (*catalog.Task, error) {
	var t catalog.Task
	var state string
	var assetID, errText, owner *string
	var progress *float64
	var runAfter, created int64
	var leaseUntil, started, finished *int64
	err := row.Scan(&t.ID, &t.Kind, &state, &assetID, &t.LibraryID, &t.Attempts, &t.MaxAttempts, &errText,
		&progress, &runAfter, &owner, &leaseUntil, &created, &started, &finished)
	if err != nil {
		return nil, err
	}
	t.State = catalog.TaskState(state)
	if assetID != nil {
		t.AssetID = *assetID
	}
	if owner != nil {
		t.LeaseOwner = *owner
	}
	t.Error, t.Progress = errText, progress
	t.RunAfter, t.CreatedAt = fromMicros(runAfter), fromMicros(created)
	t.LeaseUntil, t.StartedAt, t.FinishedAt = fromNullMicros(leaseUntil), fromNullMicros(started), fromNullMicros(finished)
	return &t, nil
}

// nullText stores "" as NULL.
func nullText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (s Tasks) Enqueue(ctx context.Context, t *catalog.Task) (bool, error) {
	// ON CONFLICT DO NOTHING covers tasks_pending (one queued task per
	// subject and kind) as well as the primary key, and, unlike a unique
	// violation, leaves PostgreSQL's transaction usable.
	res, err := s.q.exec(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject,
		run_after, created_at) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		t.ID, t.Kind, nullText(t.AssetID), t.LibraryID, t.Subject(), micros(t.RunAfter), micros(t.CreatedAt))
	if err != nil {
		return false, s.q.one("enqueue task", t.Kind, err)
	}
	if res.RowsAffected() == 1 {
		t.State = catalog.TaskQueued
	}
	return res.RowsAffected() == 1, nil
}

func (s Tasks) AddSkipped(ctx context.Context, t *catalog.Task, note string) error {
	_, err := s.q.exec(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject, error, progress,
		run_after, created_at, finished_at) VALUES (?, ?, 'succeeded', ?, ?, ?, ?, 1, ?, ?, ?)`,
		t.ID, t.Kind, nullText(t.AssetID), t.LibraryID, t.Subject(), nullText(note), micros(t.CreatedAt),
		micros(t.CreatedAt), micros(t.CreatedAt))
	return s.q.one("record skipped task", t.Kind, err)
}

func (s Tasks) Get(ctx context.Context, id string) (*catalog.Task, error) {
	t, err := ScanTask(s.q.queryRow(ctx, `SELECT `+TaskCols+` FROM tasks WHERE id = ?`, id))
	return t, s.q.one("task", id, err)
}

// Claim hands the kinds, sorted, to the dialect's claim.
func (s Tasks) Claim(ctx context.Context, c query.Claim) (*catalog.Task, error) {
	if len(c.Kinds) == 0 {
		return nil, fmt.Errorf("claim task: no kinds: %w", catalog.ErrNotFound)
	}
	kinds := make([]string, 0, len(c.Kinds))
	for k := range c.Kinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return s.q.d.ClaimTask(ctx, s.q.c, c, kinds)
}

func (s Tasks) Extend(ctx context.Context, id, lease string, until time.Time) error {
	res, err := s.q.exec(ctx, `UPDATE tasks SET lease_until = ?`+TaskRunning, micros(until), id, lease)
	return s.q.affected("extend lease of task", id, res, err)
}

func (s Tasks) Succeed(ctx context.Context, id, lease, note string, now time.Time) error {
	res, err := s.q.exec(ctx, `UPDATE tasks SET state = 'succeeded', error = nullif(?, ''), progress = 1,
		finished_at = ?, lease_owner = NULL, lease_until = NULL`+TaskRunning, note, micros(now), id, lease)
	return s.q.affected("finish task", id, res, err)
}

func (s Tasks) Fail(ctx context.Context, id, lease, errText string, now time.Time) error {
	res, err := s.q.exec(ctx, `UPDATE tasks SET state = 'failed', error = ?, progress = NULL,
		finished_at = ?, lease_owner = NULL, lease_until = NULL`+TaskRunning, errText, micros(now), id, lease)
	return s.q.affected("fail task", id, res, err)
}

func (s Tasks) Retry(ctx context.Context, id, lease, errText string, runAfter, now time.Time) (bool, error) {
	err := s.q.savepoint(ctx, func(q Q) error {
		res, err := q.exec(ctx, `UPDATE tasks SET state = 'queued', error = ?, progress = NULL,
			run_after = ?, lease_owner = NULL, lease_until = NULL`+TaskRunning, errText, micros(runAfter), id, lease)
		return q.affected("retry task", id, res, err)
	})
	return s.requeued(ctx, id, lease, errText, now, err)
}

func (s Tasks) Release(ctx context.Context, id, lease string, now time.Time) (bool, error) {
	err := s.q.savepoint(ctx, func(q Q) error {
		res, err := q.exec(ctx, `UPDATE tasks SET state = 'queued', attempts = `+q.d.Greatest+`(attempts - 1, 0),
			progress = NULL, lease_owner = NULL, lease_until = NULL`+TaskRunning, id, lease)
		return q.affected("release task", id, res, err)
	})
	return s.requeued(ctx, id, lease, "the worker running it stopped", now, err)
}

// requeued finishes a move back to the queue. When the one-queued-task
// index refused it (ErrConflict; the savepoint kept the transaction
// usable), the task fails instead, noting that a newer one will do the
// work, and requeued reports false.
func (s Tasks) requeued(ctx context.Context, id, lease, errText string, now time.Time, err error) (bool, error) {
	if !errors.Is(err, catalog.ErrConflict) {
		return err == nil, err
	}
	return false, s.Fail(ctx, id, lease, errText+supersededNote, now)
}

// savepoint runs fn so that a statement failing in it (a unique violation
// the caller handles) leaves the transaction usable: in the dialect's
// Savepoint, or as it is where a failed statement does no harm (SQLite).
func (q Q) savepoint(ctx context.Context, fn func(Q) error) error {
	if q.d.Savepoint == nil {
		return fn(q)
	}
	return q.d.Savepoint(ctx, q.c, func(c Conn) error { return fn(Q{c: c, d: q.d}) })
}

func (s Tasks) NextDue(ctx context.Context, kinds []string) (time.Time, error) {
	if len(kinds) == 0 {
		return time.Time{}, fmt.Errorf("next due task: no kinds: %w", catalog.ErrNotFound)
	}
	var due *int64
	query, args := s.q.d.NextDue(kinds)
	if err := s.q.queryRow(ctx, query, args...).Scan(&due); err != nil {
		return time.Time{}, fmt.Errorf("next due task: %w", s.q.translate(err))
	}
	if due == nil {
		return time.Time{}, fmt.Errorf("next due task: none queued: %w", catalog.ErrNotFound)
	}
	return fromMicros(*due), nil
}

func (s Tasks) Requeue(ctx context.Context, leaseEnd, now time.Time, reason string) (int, int, error) {
	return s.requeue(ctx, "lease_until <= ?", []any{micros(leaseEnd)}, now, reason)
}

func (s Tasks) RequeueOrphans(ctx context.Context, now time.Time, reason string) (int, int, error) {
	if s.q.d.OrphanLease == "" {
		return 0, 0, nil
	}
	return s.requeue(ctx, s.q.d.OrphanLease, nil, now, reason)
}

// requeue returns the running tasks that pass abandoned (a condition over
// "tasks" with its arguments) to the queue, or fails them: Requeue.
func (s Tasks) requeue(ctx context.Context, abandoned string, args []any, now time.Time, reason string) (int, int, error) {
	res, err := s.q.exec(ctx, `UPDATE tasks SET state = 'failed', error = ?, progress = NULL,
		finished_at = ?, lease_owner = NULL, lease_until = NULL
		WHERE state = 'running' AND `+abandoned+` AND (max_attempts > 0 AND attempts >= max_attempts
			OR EXISTS (SELECT 1 FROM tasks q WHERE q.subject = tasks.subject AND q.kind = tasks.kind
				AND q.state = 'queued'))`,
		Args(reason, micros(now), args)...)
	if err != nil {
		return 0, 0, fmt.Errorf("fail abandoned tasks: %w", s.q.translate(err))
	}
	failed := int(res.RowsAffected())
	if s.q.d.Savepoint == nil {
		// SQLite's single writer: no task can be enqueued since the
		// statement above, so the rest go back in one statement.
		res, err = s.q.exec(ctx, `UPDATE tasks SET state = 'queued', error = ?, progress = NULL,
		lease_owner = NULL, lease_until = NULL WHERE state = 'running' AND `+abandoned, Args(reason, args)...)
		if err != nil {
			return 0, 0, fmt.Errorf("requeue abandoned tasks: %w", s.q.translate(err))
		}
		return int(res.RowsAffected()), failed, nil
	}
	// The rest go back to the queue one by one, each in a savepoint: a task
	// of its kind queued for its subject since the statement above (a
	// concurrent enqueue) makes it fail instead. There are few: at most the
	// tasks that were running.
	ids, err := queryStrings(ctx, s.q, `SELECT id FROM tasks WHERE state = 'running' AND `+abandoned+`
		ORDER BY id`, args...)
	if err != nil {
		return 0, 0, fmt.Errorf("list abandoned tasks: %w", err)
	}
	requeued := 0
	for _, id := range ids {
		err := s.q.savepoint(ctx, func(q Q) error {
			res, err := q.exec(ctx, `UPDATE tasks SET state = 'queued', error = ?, progress = NULL,
				lease_owner = NULL, lease_until = NULL WHERE id = ? AND state = 'running' AND `+abandoned,
				Args(reason, id, args)...)
			return q.affected("requeue abandoned task", id, res, err)
		})
		switch {
		case err == nil:
			requeued++
		case errors.Is(err, catalog.ErrConflict):
			if _, err := s.q.exec(ctx, `UPDATE tasks SET state = 'failed', error = ?, progress = NULL,
				finished_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?`,
				reason, micros(now), id); err != nil {
				return 0, 0, s.q.one("fail abandoned task", id, err)
			}
			failed++
		case errors.Is(err, catalog.ErrNotFound):
			// Finished or taken back by another process meanwhile.
		default:
			return 0, 0, err
		}
	}
	return requeued, failed, nil
}
