package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// TaskListener is a Store that can tell a task runner in this process when
// another process, on this host or another, enqueued tasks, so the runner
// claims them at once instead of at its next poll (PostgreSQL's
// LISTEN/NOTIFY). SQLite's processes share no such channel and poll.
type TaskListener interface {
	// ListenTasks calls wake once it listens (for tasks enqueued before
	// that) and then after each committed transaction that enqueued tasks,
	// until ctx ends (nil) or the connection fails (the error). Wakes may
	// be spurious and several enqueues may give one wake.
	ListenTasks(ctx context.Context, wake func()) error
}

// TaskPresence is a Store whose task runners say they are alive by holding
// a lock their database session keeps (PostgreSQL's session advisory
// locks): when a runner's process dies, its session ends and the lock
// goes, and other processes requeue its tasks at once
// (Tasks.RequeueOrphans) instead of when their leases end. SQLite's
// processes need none: one process at a time runs tasks, and it requeues
// every running task when it starts.
type TaskPresence interface {
	// HoldPresence holds the presence of runner (the part of its leases
	// before "#") on a connection of its own: it calls held once it
	// holds, and keeps it until ctx ends (it then releases it, returning
	// nil) or the connection fails (the error: the presence is gone).
	HoldPresence(ctx context.Context, runner string, held func()) error
}

// Tasks is the durable task queue. A task's subject is its asset, or its
// library when it has none (catalog.Task.Subject).
//
// Contract:
//   - Enqueue never makes a second queued task of one kind for one subject.
//   - Claim hands out the queued task that became due first (run_after,
//     then id) among the requested kinds, skipping tasks whose subject has
//     a task of the same kind running, so one subject's kind never runs
//     twice at once. It marks the task running under the claim's lease.
//   - Every transition out of running (Extend, Succeed, Retry, Fail,
//     Release) names the lease and is ErrNotFound once the task is no
//     longer running under it: the lease was taken over after it expired,
//     or the task's asset was deleted (its tasks go with it).
type Tasks interface {
	// Enqueue inserts t (queued) unless a queued task of its kind for its
	// subject exists; it reports whether t was inserted.
	Enqueue(ctx context.Context, t *catalog.Task) (bool, error)
	// AddSkipped inserts t as a task that succeeded at t.CreatedAt without
	// running (no attempt, no claim), with note as its error text: a step
	// recorded as skipped when it is queued, since this process would
	// only skip it (tasks.Kind.Off).
	AddSkipped(ctx context.Context, t *catalog.Task, note string) error
	Get(ctx context.Context, id string) (*catalog.Task, error)
	// List pages the tasks of f's library (or libraries) matching f,
	// newest first (by id). A cursor outside the filtered list is a
	// validation error (422).
	List(ctx context.Context, f query.TaskFilter, p query.Page) ([]catalog.Task, bool, error)
	// Claim marks the next due task running (attempts+1, started_at,
	// max_attempts from c.Kinds, progress 0) and returns it, or returns
	// ErrNotFound when nothing is due.
	Claim(ctx context.Context, c query.Claim) (*catalog.Task, error)
	// Extend moves a running task's lease end to until.
	Extend(ctx context.Context, id, lease string, until time.Time) error
	// Succeed finishes a running task: succeeded, progress 1, and note
	// as its error text ("" for none: a skipped step says why it did
	// nothing).
	Succeed(ctx context.Context, id, lease, note string, now time.Time) error
	// Fail finishes a running task for good with the error text.
	Fail(ctx context.Context, id, lease, errText string, now time.Time) error
	// Retry queues a running task again, due at runAfter, keeping the
	// error text, and reports true. When another task of its kind has been
	// queued for its subject meanwhile, the task fails instead (that one
	// will do the work) and Retry reports false.
	Retry(ctx context.Context, id, lease, errText string, runAfter, now time.Time) (bool, error)
	// Release queues a running task again as if it had not been claimed
	// (the attempt is given back), for a worker that stops mid-run. Like
	// Retry it fails the task, reporting false, when a newer one is queued.
	Release(ctx context.Context, id, lease string, now time.Time) (bool, error)
	// Requeue returns abandoned tasks to the queue: those running with a
	// lease that ends at or before leaseEnd. A task that has used all its
	// attempts, or whose kind is queued again for its subject, fails with
	// reason instead. It returns how many tasks it requeued and failed.
	Requeue(ctx context.Context, leaseEnd, now time.Time, reason string) (requeued, failed int, err error)
	// RequeueOrphans is Requeue for the running tasks whose runner is
	// gone: the presence its leases name (TaskPresence) is no longer held,
	// because its process died or lost its connection to the database. A
	// store without presence (SQLite) finds none.
	RequeueOrphans(ctx context.Context, now time.Time, reason string) (requeued, failed int, err error)
	// NextDue returns when the earliest queued task of the given kinds
	// becomes due, or ErrNotFound when none is queued.
	NextDue(ctx context.Context, kinds []string) (time.Time, error)
}
