package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

// TestListenTasksWakesOnAnotherProcessesEnqueue listens through one pool
// (a worker) while another (serve, on another host) enqueues: the
// listener wakes once listening, then after the enqueue commits, and not
// for an enqueue that rolled back; cancelling its context ends it with no
// error.
func TestListenTasksWakesOnAnotherProcessesEnqueue(t *testing.T) {
	url := pgtest.NewURL(t, migrate)
	worker, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { worker.Close() })
	serve, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { serve.Close() })

	lib := seedLibrary(t, serve)
	wakes := make(chan struct{}, 16)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- worker.ListenTasks(ctx, func() { wakes <- struct{}{} }) }()
	awaitWake := func(what string) {
		t.Helper()
		select {
		case <-wakes:
		case err := <-done:
			t.Fatalf("%s: ListenTasks ended: %v", what, err)
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no wake", what)
		}
	}
	awaitWake("listening")

	enqueue := func(r store.Repos, at time.Time) error {
		_, err := r.Tasks().Enqueue(t.Context(), &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, at), Kind: "recluster",
			State: catalog.TaskQueued, LibraryID: lib.ID, RunAfter: at, CreatedAt: at})
		return err
	}
	rollback := errors.New("roll back")
	require.ErrorIs(t, serve.InTx(t.Context(), func(r store.Repos) error {
		require.NoError(t, enqueue(r, base))
		return rollback
	}), rollback)
	require.NoError(t, serve.InTx(t.Context(), func(r store.Repos) error { return enqueue(r, base.Add(time.Second)) }))
	awaitWake("enqueued")
	select {
	case <-wakes:
		t.Fatal("a rolled-back enqueue woke the listener")
	case <-time.After(200 * time.Millisecond):
	}

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("ListenTasks did not end with its context")
	}
}

// seedLibrary creates a user and a library for tasks and assets to belong
// to.
func seedLibrary(t *testing.T, s store.Store) *catalog.Library {
	t.Helper()
	u := &catalog.User{ID: catalog.NewID(catalog.PrefixUser, base), Email: "owner@example.com", IsActive: true,
		CreatedAt: base, UpdatedAt: base}
	lib := &catalog.Library{ID: catalog.NewID(catalog.PrefixLibrary, base), Name: "Tasks", OwnerID: u.ID,
		CreatedAt: base, UpdatedAt: base}
	require.NoError(t, s.InTx(t.Context(), func(r store.Repos) error {
		return errors.Join(r.Users().Create(t.Context(), u), r.Libraries().Create(t.Context(), lib))
	}))
	return lib
}
