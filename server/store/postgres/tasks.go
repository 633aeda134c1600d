package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type tasks struct{ q conn }

var _ store.Tasks = tasks{}

func (r repos) Tasks() store.Tasks { return tasks{r.q} }

const taskCols = `id, kind, state, asset_id, library_id, attempts, max_attempts, error, progress, run_after,
	lease_owner, lease_until, created_at, started_at, finished_at`

// supersededNote ends the error of a task that is not queued again because
// a newer task of its kind is queued for the same subject.
const supersededNote = " (not retried: a newer task of this kind is queued for the same subject)"

func scanTask(row scanner) (*catalog.Task, error) {
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

func (s tasks) Enqueue(ctx context.Context, t *catalog.Task) (bool, error) {
	// ON CONFLICT DO NOTHING covers tasks_pending (one queued task per
	// subject and kind) as well as the primary key, and, unlike a unique
	// violation, leaves the caller's transaction usable.
	tag, err := s.q.exec(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject,
		run_after, created_at) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		t.ID, t.Kind, nullText(t.AssetID), t.LibraryID, t.Subject(), micros(t.RunAfter), micros(t.CreatedAt))
	if err != nil {
		return false, one("enqueue task", t.Kind, err)
	}
	if tag.RowsAffected() == 1 {
		t.State = catalog.TaskQueued
	}
	return tag.RowsAffected() == 1, nil
}

func (s tasks) AddSkipped(ctx context.Context, t *catalog.Task, note string) error {
	_, err := s.q.exec(ctx, `INSERT INTO tasks (id, kind, state, asset_id, library_id, subject, error, progress,
		run_after, created_at, finished_at) VALUES (?, ?, 'succeeded', ?, ?, ?, ?, 1, ?, ?, ?)`,
		t.ID, t.Kind, nullText(t.AssetID), t.LibraryID, t.Subject(), nullText(note), micros(t.CreatedAt),
		micros(t.CreatedAt), micros(t.CreatedAt))
	return one("record skipped task", t.Kind, err)
}

func (s tasks) Get(ctx context.Context, id string) (*catalog.Task, error) {
	t, err := scanTask(s.q.queryRow(ctx, `SELECT `+taskCols+` FROM tasks WHERE id = ?`, id))
	return t, one("task", id, err)
}

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
FROM pick WHERE tasks.id = pick.claimed RETURNING ` + taskCols

func (s tasks) Claim(ctx context.Context, c store.Claim) (*catalog.Task, error) {
	if len(c.Kinds) == 0 {
		return nil, fmt.Errorf("claim task: no kinds: %w", catalog.ErrNotFound)
	}
	kinds := make([]string, 0, len(c.Kinds))
	for k := range c.Kinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	attempts := make([]int32, len(kinds))
	for i, k := range kinds {
		attempts[i] = int32(c.Kinds[k])
	}
	t, err := scanTask(s.q.queryRow(ctx, claimSQL, kinds, micros(c.Now), attempts, kinds,
		c.Lease, micros(c.LeaseUntil), micros(c.Now)))
	if err != nil {
		return nil, one("claim task of kinds", strings.Join(kinds, ","), err)
	}
	return t, nil
}

// running is the condition of every transition out of running: the task
// is still running under the caller's lease.
const running = ` WHERE id = ? AND state = 'running' AND lease_owner = ?`

func (s tasks) Extend(ctx context.Context, id, lease string, until time.Time) error {
	tag, err := s.q.exec(ctx, `UPDATE tasks SET lease_until = ?`+running, micros(until), id, lease)
	return affected("extend lease of task", id, tag, err)
}

func (s tasks) Succeed(ctx context.Context, id, lease, note string, now time.Time) error {
	tag, err := s.q.exec(ctx, `UPDATE tasks SET state = 'succeeded', error = nullif(?, ''), progress = 1,
		finished_at = ?, lease_owner = NULL, lease_until = NULL`+running, note, micros(now), id, lease)
	return affected("finish task", id, tag, err)
}

func (s tasks) Fail(ctx context.Context, id, lease, errText string, now time.Time) error {
	tag, err := s.q.exec(ctx, `UPDATE tasks SET state = 'failed', error = ?, progress = NULL,
		finished_at = ?, lease_owner = NULL, lease_until = NULL`+running, errText, micros(now), id, lease)
	return affected("fail task", id, tag, err)
}

func (s tasks) Retry(ctx context.Context, id, lease, errText string, runAfter, now time.Time) (bool, error) {
	err := taskSavepoint(ctx, s.q, func(q conn) error {
		tag, err := q.exec(ctx, `UPDATE tasks SET state = 'queued', error = ?, progress = NULL,
			run_after = ?, lease_owner = NULL, lease_until = NULL`+running, errText, micros(runAfter), id, lease)
		return affected("retry task", id, tag, err)
	})
	return s.requeued(ctx, id, lease, errText, now, err)
}

func (s tasks) Release(ctx context.Context, id, lease string, now time.Time) (bool, error) {
	err := taskSavepoint(ctx, s.q, func(q conn) error {
		tag, err := q.exec(ctx, `UPDATE tasks SET state = 'queued', attempts = greatest(attempts - 1, 0),
			progress = NULL, lease_owner = NULL, lease_until = NULL`+running, id, lease)
		return affected("release task", id, tag, err)
	})
	return s.requeued(ctx, id, lease, "the worker running it stopped", now, err)
}

// requeued finishes a move back to the queue. When the one-queued-task
// index refused it (the savepoint kept the transaction usable), the task
// fails instead, noting that a newer one will do the work, and requeued
// reports false.
func (s tasks) requeued(ctx context.Context, id, lease, errText string, now time.Time, err error) (bool, error) {
	if !isUniqueViolation(err) {
		return err == nil, err
	}
	return false, s.Fail(ctx, id, lease, errText+supersededNote, now)
}

func (s tasks) Requeue(ctx context.Context, leaseEnd, now time.Time, reason string) (int, int, error) {
	tag, err := s.q.exec(ctx, `UPDATE tasks SET state = 'failed', error = ?, progress = NULL,
		finished_at = ?, lease_owner = NULL, lease_until = NULL
		WHERE state = 'running' AND lease_until <= ? AND (max_attempts > 0 AND attempts >= max_attempts
			OR EXISTS (SELECT 1 FROM tasks q WHERE q.subject = tasks.subject AND q.kind = tasks.kind
				AND q.state = 'queued'))`,
		reason, micros(now), micros(leaseEnd))
	if err != nil {
		return 0, 0, fmt.Errorf("fail abandoned tasks: %w", translate(err))
	}
	failed := int(tag.RowsAffected())
	// The rest go back to the queue one by one, each in a savepoint: a task
	// of its kind queued for its subject since the statement above (a
	// concurrent enqueue) makes it fail instead. There are few: at most the
	// tasks that were running.
	ids, err := queryStrings(ctx, s.q, `SELECT id FROM tasks WHERE state = 'running' AND lease_until <= ?
		ORDER BY id`, micros(leaseEnd))
	if err != nil {
		return 0, 0, fmt.Errorf("list abandoned tasks: %w", err)
	}
	requeued := 0
	for _, id := range ids {
		err := taskSavepoint(ctx, s.q, func(q conn) error {
			tag, err := q.exec(ctx, `UPDATE tasks SET state = 'queued', error = ?, progress = NULL,
				lease_owner = NULL, lease_until = NULL WHERE id = ? AND state = 'running' AND lease_until <= ?`,
				reason, id, micros(leaseEnd))
			return affected("requeue abandoned task", id, tag, err)
		})
		switch {
		case err == nil:
			requeued++
		case isUniqueViolation(err):
			if _, err := s.q.exec(ctx, `UPDATE tasks SET state = 'failed', error = ?, progress = NULL,
				finished_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?`,
				reason, micros(now), id); err != nil {
				return 0, 0, one("fail abandoned task", id, err)
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

// isUniqueViolation reports whether err is a unique violation (translated
// to ErrConflict), which a savepoint has kept from aborting the transaction.
func isUniqueViolation(err error) bool { return errors.Is(err, catalog.ErrConflict) }

// nextDueSQL finds the earliest run_after among queued tasks of the kinds,
// one index lookup (tasks_due) per kind.
const nextDueSQL = `SELECT min(m.due) FROM unnest(?::text[]) AS k(kind) CROSS JOIN LATERAL
	(SELECT min(run_after) AS due FROM tasks WHERE kind = k.kind AND state = 'queued') m`

func (s tasks) NextDue(ctx context.Context, kinds []string) (time.Time, error) {
	if len(kinds) == 0 {
		return time.Time{}, fmt.Errorf("next due task: no kinds: %w", catalog.ErrNotFound)
	}
	var due *int64
	if err := s.q.queryRow(ctx, nextDueSQL, kinds).Scan(&due); err != nil {
		return time.Time{}, fmt.Errorf("next due task: %w", translate(err))
	}
	if due == nil {
		return time.Time{}, fmt.Errorf("next due task: none queued: %w", catalog.ErrNotFound)
	}
	return fromMicros(*due), nil
}
