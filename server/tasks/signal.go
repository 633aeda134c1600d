package tasks

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// Signal wakes a runner in the same process when tasks are enqueued, so it
// claims them at once instead of at its next poll. Notify never blocks;
// notifications that arrive while one is pending merge into it.
type Signal chan struct{}

// NewSignal returns a signal for one runner.
func NewSignal() Signal { return make(Signal, 1) }

// Notify wakes the runner listening on s.
func (s Signal) Notify() {
	select {
	case s <- struct{}{}:
	default:
	}
}

// NotifyOnEnqueue returns st, except that each transaction that enqueued
// a task notifies sig once it has committed. Services that enqueue tasks
// (uploads) get this store, so a runner in the same process starts their
// tasks without waiting for its poll; other processes still poll.
func NotifyOnEnqueue(st store.Store, sig Signal) store.Store {
	return notifyingStore{Store: st, sig: sig}
}

type notifyingStore struct {
	store.Store
	sig Signal
}

func (s notifyingStore) InTx(ctx context.Context, fn func(store.Repos) error) error {
	return s.notifying(fn, func(fn func(store.Repos) error) error { return s.Store.InTx(ctx, fn) })
}

func (s notifyingStore) InLibraryTx(ctx context.Context, libraryID string, fn func(store.Repos) error) error {
	return s.notifying(fn, func(fn func(store.Repos) error) error { return s.Store.InLibraryTx(ctx, libraryID, fn) })
}

// notifying runs fn through run (one of the store's transactions) and
// notifies the signal if it enqueued a task and committed.
func (s notifyingStore) notifying(fn func(store.Repos) error, run func(func(store.Repos) error) error) error {
	var enqueued bool
	err := run(func(r store.Repos) error {
		enqueued = false // a transaction that rolled back enqueued nothing
		return fn(notifyingRepos{Repos: r, enqueued: &enqueued})
	})
	if err == nil && enqueued {
		s.sig.Notify()
	}
	return err
}

type notifyingRepos struct {
	store.Repos
	enqueued *bool
}

func (r notifyingRepos) Tasks() store.Tasks {
	return notifyingTasks{Tasks: r.Repos.Tasks(), enqueued: r.enqueued}
}

type notifyingTasks struct {
	store.Tasks
	enqueued *bool
}

func (t notifyingTasks) Enqueue(ctx context.Context, task *catalog.Task) (bool, error) {
	ok, err := t.Tasks.Enqueue(ctx, task)
	if ok {
		*t.enqueued = true
	}
	return ok, err
}
