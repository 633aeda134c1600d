package storetest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// claimTask claims at minute m with a 1-minute lease named lease, for kinds
// allowing 3 attempts each.
func claimTask(t *testing.T, s store.Store, lease string, m int, kinds ...string) (*catalog.Task, error) {
	t.Helper()
	c := query.Claim{Kinds: map[string]int{}, Lease: lease, Now: at(m), LeaseUntil: at(m + 1)}
	for _, k := range kinds {
		c.Kinds[k] = 3
	}
	var task *catalog.Task
	err := s.InTx(ctx(t), func(r store.Repos) error {
		var err error
		task, err = r.Tasks().Claim(ctx(t), c)
		return err
	})
	return task, err
}

// mustClaimTask claims and requires a task with the given id.
func mustClaimTask(t *testing.T, s store.Store, lease string, m int, wantID string, kinds ...string) *catalog.Task {
	t.Helper()
	task, err := claimTask(t, s, lease, m, kinds...)
	require.NoError(t, err)
	require.Equal(t, wantID, task.ID)
	return task
}

// getTask reads a task over Read().
func getTask(t *testing.T, s store.Store, id string) *catalog.Task {
	t.Helper()
	task, err := s.Read().Tasks().Get(ctx(t), id)
	require.NoError(t, err)
	return task
}

// taskTx runs one task transition in a transaction and returns its error.
func taskTx(t *testing.T, s store.Store, fn func(store.Tasks) error) error {
	t.Helper()
	return s.InTx(ctx(t), func(r store.Repos) error { return fn(r.Tasks()) })
}

func listTasks(t *testing.T, s store.Store, f query.TaskFilter) list[catalog.Task] {
	return func(p query.Page) ([]catalog.Task, bool, error) { return s.Read().Tasks().List(ctx(t), f, p) }
}

func taskID(task catalog.Task) string { return task.ID }

func taskIDs(tasks ...*catalog.Task) []string {
	return idsOf(tasks, func(task *catalog.Task) string { return task.ID })
}

var taskCases = []testCase{
	{"a kind already queued for an asset is not queued twice", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 2)
		first, dup := newTask("metadata", w.assets[0], w.lib, 1), newTask("metadata", w.assets[0], w.lib, 2)
		other, otherAsset := newTask("variants", w.assets[0], w.lib, 3), newTask("metadata", w.assets[1], w.lib, 4)
		require.Equal(t, []bool{true, false, true, true}, enqueueTasks(t, s, first, dup, other, otherAsset))
		_, err := s.Read().Tasks().Get(ctx(t), dup.ID)
		requireKind(t, err, catalog.ErrNotFound)
		require.Equal(t, catalog.TaskQueued, getTask(t, s, first.ID).State)
	}},
	{"a task recorded as skipped is finished, never claimed, and leaves its kind free to queue", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 1)
		skipped := newTask("faces", w.assets[0], w.lib, 1)
		write(t, s, func(r store.Repos) error {
			return r.Tasks().AddSkipped(ctx(t), skipped, "skipped: ml is disabled")
		})
		got := getTask(t, s, skipped.ID)
		require.Equal(t, catalog.TaskSucceeded, got.State)
		require.Equal(t, "skipped: ml is disabled", *got.Error)
		require.Equal(t, 1.0, *got.Progress)
		require.Equal(t, 0, got.Attempts)
		require.Nil(t, got.StartedAt)
		require.Equal(t, at(1), *got.FinishedAt)
		require.Equal(t, at(1), got.CreatedAt)
		require.Empty(t, got.LeaseOwner)
		_, err := claimTask(t, s, "L1", 5, "faces")
		requireKind(t, err, catalog.ErrNotFound)
		queued := newTask("faces", w.assets[0], w.lib, 2)
		require.Equal(t, []bool{true}, enqueueTasks(t, s, queued))
		mustClaimTask(t, s, "L2", 5, queued.ID, "faces")
	}},
	{"library-wide tasks are queued once per library and kind", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 1)
		a, b := newTask("faces.cluster", "", w.lib, 1), newTask("faces.cluster", "", w.lib, 2)
		onAsset := newTask("faces.cluster", w.assets[0], w.lib, 3)
		require.Equal(t, []bool{true, false, true}, enqueueTasks(t, s, a, b, onAsset))
		require.Empty(t, getTask(t, s, a.ID).AssetID)
	}},
	{"a kind is queued again while it runs, and waits for the run to end", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 2)
		first := newTask("geocode", w.assets[0], w.lib, 1)
		enqueueTasks(t, s, first)
		mustClaimTask(t, s, "L1", 2, first.ID, "geocode")
		again, other := newTask("geocode", w.assets[0], w.lib, 3), newTask("geocode", w.assets[1], w.lib, 4)
		require.Equal(t, []bool{true, true}, enqueueTasks(t, s, again, other))
		mustClaimTask(t, s, "L2", 5, other.ID, "geocode") // again is due first but its asset is busy
		_, err := claimTask(t, s, "L3", 5, "geocode")
		requireKind(t, err, catalog.ErrNotFound)
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error { return r.Succeed(ctx(t), first.ID, "L1", "", at(6)) }))
		mustClaimTask(t, s, "L4", 6, again.ID, "geocode")
	}},
	{"claim hands out the earliest due task of the asked kinds", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 4)
		late := newTask("metadata", w.assets[0], w.lib, 3)
		early := newTask("variants", w.assets[1], w.lib, 1)
		future := newTask("metadata", w.assets[2], w.lib, 10)
		unasked := newTask("faces", w.assets[3], w.lib, 0)
		enqueueTasks(t, s, late, early, future, unasked)
		mustClaimTask(t, s, "L1", 5, early.ID, "metadata", "variants")
		mustClaimTask(t, s, "L2", 5, late.ID, "metadata", "variants")
		_, err := claimTask(t, s, "L3", 5, "metadata", "variants")
		requireKind(t, err, catalog.ErrNotFound)
		mustClaimTask(t, s, "L4", 10, future.ID, "metadata", "variants")
		_, err = claimTask(t, s, "L5", 10)
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"tasks due at the same time are claimed in id order", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 3)
		var tasks []*catalog.Task
		for i := range 3 {
			task := newTask("metadata", w.assets[i], w.lib, 1)
			tasks = append(tasks, task)
		}
		enqueueTasks(t, s, tasks[2], tasks[0], tasks[1])
		for i, task := range tasks {
			mustClaimTask(t, s, fmt.Sprintf("L%d", i), 2, task.ID, "metadata")
		}
	}},
	{"a claim marks the task running under its lease", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 1)
		task := newTask("metadata", w.assets[0], w.lib, 1)
		enqueueTasks(t, s, task)
		got := mustClaimTask(t, s, "runner#1", 2, task.ID, "metadata")
		require.Equal(t, catalog.TaskRunning, got.State)
		require.Equal(t, 1, got.Attempts)
		require.Equal(t, 3, got.MaxAttempts)
		require.Equal(t, "runner#1", got.LeaseOwner)
		require.Equal(t, at(3), *got.LeaseUntil)
		require.Equal(t, at(2), *got.StartedAt)
		require.Nil(t, got.FinishedAt)
		require.Equal(t, got, getTask(t, s, task.ID))
	}},
	{"only the holder of the lease moves a running task on", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 1)
		task := newTask("metadata", w.assets[0], w.lib, 1)
		enqueueTasks(t, s, task)
		mustClaimTask(t, s, "mine", 2, task.ID, "metadata")
		for name, fn := range map[string]func(store.Tasks) error{
			"extend":  func(r store.Tasks) error { return r.Extend(ctx(t), task.ID, "theirs", at(9)) },
			"succeed": func(r store.Tasks) error { return r.Succeed(ctx(t), task.ID, "theirs", "", at(3)) },
			"fail":    func(r store.Tasks) error { return r.Fail(ctx(t), task.ID, "theirs", "boom", at(3)) },
			"retry": func(r store.Tasks) error {
				_, err := r.Retry(ctx(t), task.ID, "theirs", "boom", at(4), at(3))
				return err
			},
			"release": func(r store.Tasks) error {
				_, err := r.Release(ctx(t), task.ID, "theirs", at(3))
				return err
			},
		} {
			requireKind(t, taskTx(t, s, fn), catalog.ErrNotFound)
			require.Equal(t, catalog.TaskRunning, getTask(t, s, task.ID).State, name)
		}
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error { return r.Extend(ctx(t), task.ID, "mine", at(9)) }))
		require.Equal(t, at(9), *getTask(t, s, task.ID).LeaseUntil)
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error { return r.Succeed(ctx(t), task.ID, "mine", "", at(4)) }))
		requireKind(t, taskTx(t, s, func(r store.Tasks) error { return r.Succeed(ctx(t), task.ID, "mine", "", at(4)) }),
			catalog.ErrNotFound)
	}},
	{"success and failure are final and record their time", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 2)
		ok, bad := newTask("metadata", w.assets[0], w.lib, 1), newTask("metadata", w.assets[1], w.lib, 1)
		enqueueTasks(t, s, ok, bad)
		mustClaimTask(t, s, "A", 2, ok.ID, "metadata")
		mustClaimTask(t, s, "B", 2, bad.ID, "metadata")
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error { return r.Succeed(ctx(t), ok.ID, "A", "", at(3)) }))
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error { return r.Fail(ctx(t), bad.ID, "B", "unreadable", at(4)) }))
		got := getTask(t, s, ok.ID)
		require.Equal(t, catalog.TaskSucceeded, got.State)
		require.Equal(t, at(3), *got.FinishedAt)
		require.Nil(t, got.Error)
		require.Equal(t, 1.0, *got.Progress)
		require.Empty(t, got.LeaseOwner)
		require.Nil(t, got.LeaseUntil)
		got = getTask(t, s, bad.ID)
		require.Equal(t, catalog.TaskFailed, got.State)
		require.Equal(t, "unreadable", *got.Error)
		require.Equal(t, at(4), *got.FinishedAt)
		_, err := claimTask(t, s, "C", 9, "metadata")
		requireKind(t, err, catalog.ErrNotFound)
	}},
	{"a retry waits until its run_after and keeps the error", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 1)
		task := newTask("metadata", w.assets[0], w.lib, 1)
		enqueueTasks(t, s, task)
		mustClaimTask(t, s, "A", 2, task.ID, "metadata")
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error {
			requeued, err := r.Retry(ctx(t), task.ID, "A", "exiftool crashed", at(10), at(3))
			require.True(t, requeued)
			return err
		}))
		got := getTask(t, s, task.ID)
		require.Equal(t, catalog.TaskQueued, got.State)
		require.Equal(t, "exiftool crashed", *got.Error)
		require.Equal(t, at(10), got.RunAfter)
		due, err := s.Read().Tasks().NextDue(ctx(t), []string{"metadata"})
		require.NoError(t, err)
		require.Equal(t, at(10), due)
		_, err = claimTask(t, s, "B", 9, "metadata")
		requireKind(t, err, catalog.ErrNotFound)
		require.Equal(t, 2, mustClaimTask(t, s, "C", 10, task.ID, "metadata").Attempts)
	}},
	{"a retry when the kind was queued again fails the task instead", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 1)
		task, newer := newTask("geocode", w.assets[0], w.lib, 1), newTask("geocode", w.assets[0], w.lib, 3)
		enqueueTasks(t, s, task)
		mustClaimTask(t, s, "A", 2, task.ID, "geocode")
		enqueueTasks(t, s, newer)
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error {
			requeued, err := r.Retry(ctx(t), task.ID, "A", "timeout", at(9), at(4))
			require.False(t, requeued)
			return err
		}))
		got := getTask(t, s, task.ID)
		require.Equal(t, catalog.TaskFailed, got.State)
		require.Contains(t, *got.Error, "timeout")
		require.Equal(t, catalog.TaskQueued, getTask(t, s, newer.ID).State)
	}},
	{"a released task is queued again with its attempt given back", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 1)
		task := newTask("metadata", w.assets[0], w.lib, 1)
		enqueueTasks(t, s, task)
		mustClaimTask(t, s, "A", 2, task.ID, "metadata")
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error {
			requeued, err := r.Release(ctx(t), task.ID, "A", at(3))
			require.True(t, requeued)
			return err
		}))
		got := getTask(t, s, task.ID)
		require.Equal(t, catalog.TaskQueued, got.State)
		require.Equal(t, 0, got.Attempts)
		require.Equal(t, at(1), got.RunAfter, "it keeps its place in line")
		require.Equal(t, 1, mustClaimTask(t, s, "B", 3, task.ID, "metadata").Attempts)
	}},
	{"requeue takes back expired leases only, or every running task when asked", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 3)
		expired, alive, done := newTask("metadata", w.assets[0], w.lib, 1), newTask("metadata", w.assets[1], w.lib, 1),
			newTask("metadata", w.assets[2], w.lib, 1)
		enqueueTasks(t, s, expired, alive, done)
		mustClaimTask(t, s, "A", 1, expired.ID, "metadata") // lease until minute 2
		mustClaimTask(t, s, "B", 5, alive.ID, "metadata")   // lease until minute 6
		mustClaimTask(t, s, "C", 5, done.ID, "metadata")
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error { return r.Succeed(ctx(t), done.ID, "C", "", at(5)) }))
		var requeued, failed int
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error {
			var err error
			requeued, failed, err = r.Requeue(ctx(t), at(5), at(5), "worker stopped")
			return err
		}))
		require.Equal(t, []int{1, 0}, []int{requeued, failed})
		got := getTask(t, s, expired.ID)
		require.Equal(t, catalog.TaskQueued, got.State)
		require.Equal(t, "worker stopped", *got.Error)
		require.Equal(t, catalog.TaskRunning, getTask(t, s, alive.ID).State)
		requireKind(t, taskTx(t, s, func(r store.Tasks) error { return r.Extend(ctx(t), expired.ID, "A", at(9)) }),
			catalog.ErrNotFound)

		require.NoError(t, taskTx(t, s, func(r store.Tasks) error {
			var err error
			requeued, failed, err = r.Requeue(ctx(t), at(1000), at(5), "worker stopped")
			return err
		}))
		require.Equal(t, []int{1, 0}, []int{requeued, failed})
		require.Equal(t, catalog.TaskQueued, getTask(t, s, alive.ID).State)
		require.Equal(t, catalog.TaskSucceeded, getTask(t, s, done.ID).State)
	}},
	{"requeue fails abandoned tasks out of attempts or queued again", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 2)
		spent, superseded := newTask("metadata", w.assets[0], w.lib, 1), newTask("metadata", w.assets[1], w.lib, 1)
		enqueueTasks(t, s, spent, superseded)
		for i := range 3 { // three claims use the 3 attempts claim allows
			mustClaimTask(t, s, fmt.Sprintf("A%d", i), 1, spent.ID, "metadata")
			if i < 2 {
				require.NoError(t, taskTx(t, s, func(r store.Tasks) error {
					_, err := r.Retry(ctx(t), spent.ID, fmt.Sprintf("A%d", i), "boom", at(1), at(1))
					return err
				}))
			}
		}
		mustClaimTask(t, s, "B", 1, superseded.ID, "metadata")
		enqueueTasks(t, s, newTask("metadata", w.assets[1], w.lib, 2))
		var requeued, failed int
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error {
			var err error
			requeued, failed, err = r.Requeue(ctx(t), at(9), at(9), "worker stopped")
			return err
		}))
		require.Equal(t, []int{0, 2}, []int{requeued, failed})
		for _, id := range []string{spent.ID, superseded.ID} {
			got := getTask(t, s, id)
			require.Equal(t, catalog.TaskFailed, got.State)
			require.Equal(t, "worker stopped", *got.Error)
			require.Equal(t, at(9), *got.FinishedAt)
		}
	}},
	{"next due is the earliest queued task of the kinds", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 3)
		_, err := s.Read().Tasks().NextDue(ctx(t), []string{"metadata"})
		requireKind(t, err, catalog.ErrNotFound)
		enqueueTasks(t, s, newTask("metadata", w.assets[0], w.lib, 7), newTask("variants", w.assets[1], w.lib, 4),
			newTask("faces", w.assets[2], w.lib, 1))
		due, err := s.Read().Tasks().NextDue(ctx(t), []string{"metadata", "variants"})
		require.NoError(t, err)
		require.Equal(t, at(4), due)
	}},
	{"the list filters by state, kind and asset, newest first, with exact paging", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 2)
		a0m, a0v := newTask("metadata", w.assets[0], w.lib, 1), newTask("variants", w.assets[0], w.lib, 2)
		a1m, a1v := newTask("metadata", w.assets[1], w.lib, 3), newTask("variants", w.assets[1], w.lib, 4)
		lib := newTask("faces.cluster", "", w.lib, 5)
		enqueueTasks(t, s, a0m, a0v, a1m, a1v, lib)
		mustClaimTask(t, s, "A", 9, a0m.ID, "metadata")
		require.NoError(t, taskTx(t, s, func(r store.Tasks) error { return r.Succeed(ctx(t), a0m.ID, "A", "", at(9)) }))

		f := query.TaskFilter{LibraryID: w.lib}
		checkPaging(t, taskIDs(lib, a1v, a1m, a0v, a0m), taskID, listTasks(t, s, f))
		f.State = catalog.TaskQueued
		checkPaging(t, taskIDs(lib, a1v, a1m, a0v), taskID, listTasks(t, s, f))
		f.Kind = "metadata"
		checkPaging(t, taskIDs(a1m), taskID, listTasks(t, s, f))
		checkPaging(t, taskIDs(a0v, a0m), taskID, listTasks(t, s, query.TaskFilter{LibraryID: w.lib, AssetID: w.assets[0]}))
		checkPaging(t, taskIDs(a1v, a0v), taskID, listTasks(t, s, query.TaskFilter{LibraryID: w.lib, Kind: "variants"}))
		checkPaging(t, taskIDs(a0m), taskID, listTasks(t, s, query.TaskFilter{LibraryID: w.lib,
			State: catalog.TaskSucceeded, AssetID: w.assets[0]}))

		_, _, err := s.Read().Tasks().List(ctx(t), query.TaskFilter{LibraryID: w.lib, AssetID: w.assets[1]},
			query.Page{Limit: 5, AfterID: a0v.ID})
		requireInvalidCursor(t, err)
	}},
	{"tasks are listed only in their library", func(t *testing.T, s store.Store) {
		alice, bob := newTaskWorld(t, s, 1), taskWorld{}
		u := makeUser(t, s, "bob@example.com")
		bob.lib = makeLibrary(t, s, u.ID, "Bob", 1).ID
		bob.assets = []string{makeAsset(t, s, bob.lib, u.ID, 2)}
		mine, theirs := newTask("metadata", alice.assets[0], alice.lib, 1), newTask("metadata", bob.assets[0], bob.lib, 2)
		enqueueTasks(t, s, mine, theirs)
		checkPaging(t, taskIDs(mine), taskID, listTasks(t, s, query.TaskFilter{LibraryID: alice.lib}))
		checkPaging(t, []string{}, taskID, listTasks(t, s, query.TaskFilter{LibraryID: alice.lib, AssetID: bob.assets[0]}))
		_, _, err := s.Read().Tasks().List(ctx(t), query.TaskFilter{LibraryID: alice.lib},
			query.Page{Limit: 5, AfterID: theirs.ID})
		requireInvalidCursor(t, err)
	}},
	{"deleting an asset deletes its tasks, running or not", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 2)
		running, queued := newTask("metadata", w.assets[0], w.lib, 1), newTask("variants", w.assets[0], w.lib, 2)
		kept := newTask("metadata", w.assets[1], w.lib, 3)
		enqueueTasks(t, s, running, queued, kept)
		mustClaimTask(t, s, "A", 4, running.ID, "metadata")
		write(t, s, func(r store.Repos) error { return r.Assets().Delete(ctx(t), []string{w.assets[0]}) })
		for _, id := range []string{running.ID, queued.ID} {
			_, err := s.Read().Tasks().Get(ctx(t), id)
			requireKind(t, err, catalog.ErrNotFound)
		}
		requireKind(t, taskTx(t, s, func(r store.Tasks) error { return r.Succeed(ctx(t), running.ID, "A", "", at(5)) }),
			catalog.ErrNotFound)
		require.Equal(t, catalog.TaskQueued, getTask(t, s, kept.ID).State)
	}},
	{"an enqueue in a rolled-back transaction leaves nothing", func(t *testing.T, s store.Store) {
		w := newTaskWorld(t, s, 1)
		task := newTask("metadata", w.assets[0], w.lib, 1)
		errRollback := fmt.Errorf("roll back")
		err := writeErr(t, s, func(r store.Repos) error {
			_, err := r.Tasks().Enqueue(ctx(t), task)
			require.NoError(t, err)
			return errRollback
		})
		require.ErrorIs(t, err, errRollback)
		_, err = s.Read().Tasks().NextDue(ctx(t), []string{"metadata"})
		requireKind(t, err, catalog.ErrNotFound)
		require.Equal(t, []bool{true}, enqueueTasks(t, s, task))
	}},
}
