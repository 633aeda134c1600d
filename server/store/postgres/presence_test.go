package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/postgres"
	"github.com/photoctl/photoctl/server/store/postgres/pgtest"
)

// TestTasksOfARunnerWithoutPresenceAreOrphans: a running task whose lease
// is far from over goes back to the queue at once when its runner holds
// no presence — never held it, released it, or lost the connection that
// held it (its process died: the server ends the session) — and stays
// running while the runner holds it.
func TestTasksOfARunnerWithoutPresenceAreOrphans(t *testing.T) {
	url := pgtest.NewURL(t, migrate)
	s, err := postgres.Open(t.Context(), url)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	lib := seedLibrary(t, s)
	ctx := t.Context()
	now := time.Now()
	// running queues a task of a kind of its own and claims it under
	// runner's lease, which ends in an hour.
	running := func(runner string) string {
		t.Helper()
		task := &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, now), Kind: runner, State: catalog.TaskQueued,
			LibraryID: lib.ID, RunAfter: now.Add(-time.Second), CreatedAt: now}
		require.NoError(t, s.InTx(ctx, func(r store.Repos) error {
			if ok, err := r.Tasks().Enqueue(ctx, task); err != nil || !ok {
				return fmt.Errorf("enqueue: %v, %w", ok, err)
			}
			_, err := r.Tasks().Claim(ctx, query.Claim{Kinds: map[string]int{runner: 3}, Lease: runner + "#1",
				Now: now, LeaseUntil: now.Add(time.Hour)})
			return err
		}))
		return task.ID
	}
	orphans := func() int {
		t.Helper()
		var n int
		require.NoError(t, s.InTx(ctx, func(r store.Repos) error {
			var err error
			n, _, err = r.Tasks().RequeueOrphans(ctx, time.Now(), "gone")
			return err
		}))
		return n
	}
	state := func(id string) catalog.TaskState {
		t.Helper()
		task, err := s.Read().Tasks().Get(ctx, id)
		require.NoError(t, err)
		return task.State
	}

	never := running("never-present")
	require.Equal(t, 1, orphans())
	require.Equal(t, catalog.TaskQueued, state(never))

	hold := func(runner string) (release func(), errc chan error) {
		held, errc := make(chan struct{}), make(chan error, 1)
		hctx, cancel := context.WithCancel(ctx)
		go func() { errc <- s.HoldPresence(hctx, runner, func() { close(held) }) }()
		<-held
		return cancel, errc
	}
	release, errc := hold("alive")
	alive := running("alive")
	require.Zero(t, orphans(), "a present runner's tasks stay running")
	require.Equal(t, catalog.TaskRunning, state(alive))
	release()
	require.NoError(t, <-errc)
	require.Equal(t, 1, orphans(), "released: its tasks are orphans")
	require.Equal(t, catalog.TaskQueued, state(alive))

	// A process that dies: its session ends (here ended by the server).
	_, errc = hold("killed")
	killed := running("killed")
	admin, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer admin.Close(context.WithoutCancel(ctx))
	_, err = admin.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2`)
	require.NoError(t, err)
	require.Error(t, <-errc, "the presence is gone with its connection")
	require.Equal(t, 1, orphans())
	require.Equal(t, catalog.TaskQueued, state(killed))
}
