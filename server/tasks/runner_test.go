package tasks_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// pipeline is metadata → variants → (geocode, metrics), each counting.
func pipeline(c map[string]*calls) []tasks.Kind {
	for _, k := range []string{"metadata", "variants", "geocode", "metrics"} {
		if c[k] == nil {
			c[k] = &calls{}
		}
	}
	return []tasks.Kind{
		counting("metadata", c["metadata"], "variants"),
		counting("variants", c["variants"], "geocode", "metrics"),
		counting("geocode", c["geocode"]),
		counting("metrics", c["metrics"]),
	}
}

func TestRunnerRunsEachAssetsChainOnce(t *testing.T) {
	w := newWorld(t, 0)
	c := map[string]*calls{}
	r := w.runner(w.st, pipeline(c), tasks.RunnerConfig{Concurrency: 3})
	for range 6 {
		w.addAsset(true)
	}
	r.Start(t.Context())
	w.eventually("every task to succeed", func() bool {
		return len(w.list(query.TaskFilter{State: catalog.TaskSucceeded})) == 4*len(w.assets)
	})
	for _, id := range w.assets {
		for kind, n := range c {
			require.Equal(t, 1, n.get(id), "%s of %s", kind, id)
			task := w.only(kind, id)
			require.Equal(t, 1, task.Attempts)
			require.Nil(t, task.Error)
			require.Equal(t, 1.0, *task.Progress)
			require.NotNil(t, task.StartedAt)
			require.NotNil(t, task.FinishedAt)
		}
	}
}

func TestRunnerClaimsOnlyItsKinds(t *testing.T) {
	w := newWorld(t, 1)
	c := &calls{}
	w.enqueue("faces", w.assets[0])
	w.enqueue("metrics", w.assets[0])
	r := w.runner(w.st, []tasks.Kind{counting("metrics", c)}, tasks.RunnerConfig{})
	r.Start(t.Context())
	w.waitState("metrics", w.assets[0], catalog.TaskSucceeded)
	require.Equal(t, catalog.TaskQueued, w.only("faces", w.assets[0]).State)
}

func TestRunnerRetriesWithBackoff(t *testing.T) {
	w := newWorld(t, 1)
	id := w.assets[0]
	c := &calls{}
	flaky := tasks.Kind{Name: "metadata", Run: func(_ context.Context, t *catalog.Task) error {
		if c.add(t.AssetID) < 3 {
			return fmt.Errorf("exiftool crashed (attempt %d)", t.Attempts)
		}
		return nil
	}}
	backoffs := &calls{}
	r := w.runner(w.st, []tasks.Kind{flaky}, tasks.RunnerConfig{Backoff: func(attempt int) time.Duration {
		backoffs.add(fmt.Sprint(attempt))
		return time.Duration(attempt) * time.Minute
	}})
	w.enqueue("metadata", id)
	start := w.clock.Now()
	r.Start(t.Context())

	w.eventually("the first attempt to fail", func() bool { return w.only("metadata", id).Error != nil })
	task := w.only("metadata", id)
	require.Equal(t, catalog.TaskQueued, task.State)
	require.Equal(t, 1, task.Attempts)
	require.Equal(t, "exiftool crashed (attempt 1)", *task.Error)
	require.WithinDuration(t, start.Add(time.Minute), task.RunAfter, 5*time.Second)
	time.Sleep(50 * time.Millisecond) // five polls: none may run it before its time
	require.Equal(t, 1, c.get(id))

	w.clock.Advance(time.Minute)
	w.eventually("the second attempt to fail", func() bool {
		return w.only("metadata", id).Attempts == 2 &&
			w.only("metadata", id).State == catalog.TaskQueued
	})
	require.Equal(t, "exiftool crashed (attempt 2)", *w.only("metadata", id).Error)
	require.WithinDuration(t, w.clock.Now().Add(2*time.Minute), w.only("metadata", id).RunAfter, 5*time.Second)

	w.clock.Advance(2 * time.Minute)
	task = w.waitState("metadata", id, catalog.TaskSucceeded)
	require.Equal(t, 3, task.Attempts)
	require.Nil(t, task.Error, "success clears the last error")
	require.Equal(t, []int{1, 1, 0}, []int{backoffs.get("1"), backoffs.get("2"), backoffs.get("3")},
		"backoff after attempts 1 and 2, none after the success")
}

func TestRunnerFailsWhenAttemptsAreSpent(t *testing.T) {
	w := newWorld(t, 1)
	id := w.assets[0]
	broken := tasks.Kind{Name: "variants", MaxAttempts: 2, Run: func(context.Context, *catalog.Task) error {
		return errors.New("libvips: out of memory")
	}}
	r := w.runner(w.st, []tasks.Kind{broken}, tasks.RunnerConfig{Backoff: func(int) time.Duration { return 0 }})
	w.enqueue("variants", id)
	r.Start(t.Context())
	task := w.waitState("variants", id, catalog.TaskFailed)
	require.Equal(t, 2, task.Attempts)
	require.Equal(t, "libvips: out of memory", *task.Error)
	require.NotNil(t, task.FinishedAt)
}

func TestRunnerFailsPermanentErrorsAtOnce(t *testing.T) {
	w := newWorld(t, 2)
	c := map[string]*calls{}
	kinds := pipeline(c)
	kinds[0].Run = func(_ context.Context, t *catalog.Task) error {
		if t.AssetID == w.assets[0] {
			return tasks.Permanent(fmt.Errorf("read metadata: %w", errors.New("not an image")))
		}
		return nil
	}
	r := w.runner(w.st, kinds, tasks.RunnerConfig{})
	w.enqueue("metadata", w.assets[0])
	w.enqueue("metadata", w.assets[1])
	r.Start(t.Context())
	task := w.waitState("metadata", w.assets[0], catalog.TaskFailed)
	require.Equal(t, 1, task.Attempts)
	require.Equal(t, "read metadata: not an image", *task.Error)
	w.waitState("geocode", w.assets[1], catalog.TaskSucceeded)
	require.Empty(t, w.list(query.TaskFilter{AssetID: w.assets[0], Kind: "variants"}), "a failed task chains nothing")
}

func TestRunnerSucceedsASkippedTaskWithItsReasonAndGoesOnWithTheChain(t *testing.T) {
	w := newWorld(t, 1)
	c := map[string]*calls{}
	kinds := pipeline(c)
	kinds[1].Run = func(context.Context, *catalog.Task) error {
		return tasks.Skip("the ML runtime is not installed")
	}
	task := w.variantsOfAChain(kinds, "skipped: the ML runtime is not installed")
	require.Equal(t, 1, task.Attempts, "a skip is not retried")
}

// variantsOfAChain runs the chain of kinds (pipeline's) on the world's
// first asset until geocode and metrics, which follow variants, succeeded,
// and returns its variants task, checked to have succeeded with note.
func (w *world) variantsOfAChain(kinds []tasks.Kind, note string) catalog.Task {
	w.t.Helper()
	r := w.runner(w.st, kinds, tasks.RunnerConfig{})
	w.enqueue("metadata", w.assets[0])
	r.Start(w.t.Context())
	w.waitState("geocode", w.assets[0], catalog.TaskSucceeded)
	w.waitState("metrics", w.assets[0], catalog.TaskSucceeded)
	task := w.only("variants", w.assets[0])
	require.Equal(w.t, catalog.TaskSucceeded, task.State)
	require.Equal(w.t, note, *task.Error)
	return task
}

func TestRunnerRecordsAKindThatIsOffAsSkippedWithoutRunningIt(t *testing.T) {
	w := newWorld(t, 2)
	c := map[string]*calls{}
	kinds := pipeline(c)
	// variants off: recorded skipped behind metadata, never claimed or
	// run, and geocode and metrics (its Next) follow in its place.
	off := atomic.Value{}
	off.Store("the renderer is turned off")
	kinds[1].Off = func() string { return off.Load().(string) }
	task := w.variantsOfAChain(kinds, "skipped: the renderer is turned off")
	require.Equal(t, 0, task.Attempts, "never claimed")
	require.Nil(t, task.StartedAt)
	require.Equal(t, 1.0, *task.Progress)
	require.NotNil(t, task.FinishedAt)
	require.Zero(t, c["variants"].get(w.assets[0]), "never run")
	require.Equal(t, 1, c["geocode"].get(w.assets[0]))
	require.Equal(t, 1, c["metrics"].get(w.assets[0]))

	// A task of the kind queued directly still runs, and once the kind
	// is on again the chain queues it as before.
	w.enqueue("variants", w.assets[0])
	off.Store("")
	w.enqueue("metadata", w.assets[1])
	w.eventually("the queued variants of both assets to run", func() bool {
		return c["variants"].get(w.assets[0]) == 1 && c["variants"].get(w.assets[1]) == 1
	})
}

func TestRunnerTurnsAPanicIntoAFailedAttempt(t *testing.T) {
	w := newWorld(t, 1)
	kind := tasks.Kind{Name: "burst", MaxAttempts: 1, Run: func(context.Context, *catalog.Task) error {
		var m map[string]int
		m["boom"]++ // a nil map write panics
		return nil
	}}
	r := w.runner(w.st, []tasks.Kind{kind}, tasks.RunnerConfig{})
	w.enqueue("burst", w.assets[0])
	r.Start(t.Context())
	task := w.waitState("burst", w.assets[0], catalog.TaskFailed)
	require.Contains(t, *task.Error, "panic: assignment to entry in nil map")
}

// claimAsCrashed claims the next task the way a worker that then dies
// does: the row says running under a lease nobody will extend.
func claimAsCrashed(t *testing.T, w *world, kind string, lease time.Duration) catalog.Task {
	t.Helper()
	var task *catalog.Task
	now := w.clock.Now()
	require.NoError(t, w.st.InTx(t.Context(), func(r store.Repos) error {
		var err error
		task, err = r.Tasks().Claim(t.Context(), query.Claim{Kinds: map[string]int{kind: 5}, Lease: "dead#1",
			Now: now, LeaseUntil: now.Add(lease)})
		return err
	}))
	return *task
}

func TestRunnerRequeuesATaskWhoseWorkerDiedOnceItsLeaseExpires(t *testing.T) {
	w := newWorld(t, 1)
	id := w.assets[0]
	c := map[string]*calls{}
	w.enqueue("metadata", id)
	claimAsCrashed(t, w, "metadata", time.Hour)

	// Another process may still run it: a start that is not alone leaves a
	// live lease alone. On a store with presence the worker looks alive
	// only while it holds its own (one that does not is gone, and its
	// tasks go back at once: the store's TestTasksOfARunnerWithoutPresence…).
	st := w.open()
	if p, ok := st.(store.TaskPresence); ok {
		ctx, cancel := context.WithCancel(t.Context())
		held := make(chan struct{})
		go func() { _ = p.HoldPresence(ctx, "dead", func() { close(held) }) }()
		<-held
		defer cancel()
	}
	r := w.runner(st, pipeline(c), tasks.RunnerConfig{})
	n, err := r.RequeueAbandoned(t.Context(), false)
	require.NoError(t, err)
	require.Zero(t, n)
	r.Start(t.Context())
	time.Sleep(50 * time.Millisecond)
	require.Equal(t, catalog.TaskRunning, w.only("metadata", id).State)
	require.Zero(t, c["metadata"].get(id))

	w.clock.Advance(time.Hour) // the lease ends; the runner's periodic requeue takes it back
	task := w.waitState("metadata", id, catalog.TaskSucceeded)
	require.Equal(t, 2, task.Attempts, "the crashed attempt counts")
	require.Equal(t, 1, c["metadata"].get(id))
	w.waitState("metrics", id, catalog.TaskSucceeded)
}

func TestRunnerAloneRequeuesEveryRunningTaskAtStart(t *testing.T) {
	w := newWorld(t, 1)
	id := w.assets[0]
	c := map[string]*calls{}
	w.enqueue("metadata", id)
	claimAsCrashed(t, w, "metadata", time.Hour)

	r := w.runner(w.open(), pipeline(c), tasks.RunnerConfig{})
	n, err := r.RequeueAbandoned(t.Context(), true)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	task := w.only("metadata", id)
	require.Equal(t, catalog.TaskQueued, task.State)
	require.Equal(t, "the worker running it stopped before it finished", *task.Error)
	r.Start(t.Context())
	w.waitState("geocode", id, catalog.TaskSucceeded)
}

func TestRunnerRerunsAfterACrashQueueNextKindsOnce(t *testing.T) {
	w := newWorld(t, 1)
	id := w.assets[0]
	c := map[string]*calls{}
	w.enqueue("metadata", id)
	claimAsCrashed(t, w, "metadata", time.Minute) // it did its work, then died before recording it
	w.enqueue("metadata", id)                     // an edit asks for metadata again meanwhile

	r := w.runner(w.st, pipeline(c), tasks.RunnerConfig{})
	_, err := r.RequeueAbandoned(t.Context(), true)
	require.NoError(t, err)
	r.Start(t.Context())
	w.eventually("the chain to finish", func() bool {
		// geocode and metrics run side by side: metrics may finish first.
		return len(w.list(query.TaskFilter{State: catalog.TaskSucceeded, Kind: "metrics"})) == 1 &&
			len(w.list(query.TaskFilter{State: catalog.TaskQueued})) == 0 &&
			len(w.list(query.TaskFilter{State: catalog.TaskRunning})) == 0
	})
	// The crashed run was superseded by the queued one: one more run, and
	// every later step queued and run once.
	all := w.list(query.TaskFilter{Kind: "metadata"})
	require.Len(t, all, 2)
	require.Equal(t, catalog.TaskSucceeded, all[0].State)
	require.Equal(t, catalog.TaskFailed, all[1].State)
	require.Equal(t, 1, c["metadata"].get(id))
	for _, kind := range []string{"variants", "geocode", "metrics"} {
		require.Equal(t, 1, c[kind].get(id), kind)
		require.Equal(t, catalog.TaskSucceeded, w.only(kind, id).State)
	}
}

func TestRunnerStopGivesRunningTasksBack(t *testing.T) {
	w := newWorld(t, 1)
	id := w.assets[0]
	started := make(chan struct{})
	var once sync.Once
	slow := tasks.Kind{Name: "metadata", Run: func(ctx context.Context, _ *catalog.Task) error {
		once.Do(func() { close(started) })
		<-ctx.Done()
		return ctx.Err()
	}}
	r := w.runner(w.st, []tasks.Kind{slow}, tasks.RunnerConfig{})
	w.enqueue("metadata", id)
	r.Start(t.Context())
	<-started
	r.Stop()
	task := w.only("metadata", id)
	require.Equal(t, catalog.TaskQueued, task.State)
	require.Zero(t, task.Attempts, "an attempt cut short by shutdown is not counted")
	require.Nil(t, task.Error)
	require.Empty(t, task.LeaseOwner)
}

func TestRunnerCancelsAHandlerWhoseAssetIsDeleted(t *testing.T) {
	w := newWorld(t, 2)
	gone, kept := w.assets[0], w.assets[1]
	started := make(chan struct{})
	cancelled := make(chan struct{})
	slow := tasks.Kind{Name: "variants", Run: func(ctx context.Context, t *catalog.Task) error {
		if t.AssetID != gone {
			return nil
		}
		close(started)
		<-ctx.Done()
		close(cancelled)
		return ctx.Err()
	}}
	r := w.runner(w.st, []tasks.Kind{slow}, tasks.RunnerConfig{Concurrency: 1})
	w.enqueue("variants", gone)
	r.Start(t.Context())
	<-started
	require.NoError(t, w.st.InTx(t.Context(), func(rp store.Repos) error {
		return rp.Assets().Delete(t.Context(), []string{gone})
	}))
	<-cancelled // the next heartbeat finds the task gone
	require.Empty(t, w.list(query.TaskFilter{AssetID: gone}))
	w.enqueue("variants", kept)
	w.waitState("variants", kept, catalog.TaskSucceeded)
}

func TestEnqueueInAServiceTransactionWakesTheRunner(t *testing.T) {
	w := newWorld(t, 0)
	sig := tasks.NewSignal()
	c := &calls{}
	// Polls an hour apart: only the signal can start the task in time.
	r := w.runner(w.st, []tasks.Kind{counting("metadata", c)}, tasks.RunnerConfig{PollInterval: time.Hour, Signal: sig})
	r.Start(t.Context())
	time.Sleep(20 * time.Millisecond) // let the runner go idle first
	st := w.st
	w.st = tasks.NotifyOnEnqueue(st, sig)
	id := w.addAsset(true)
	w.st = st
	w.waitState("metadata", id, catalog.TaskSucceeded)
}

func TestNewRunnerRejectsBadKinds(t *testing.T) {
	w := newWorld(t, 0)
	ok := func(context.Context, *catalog.Task) error { return nil }
	for name, kinds := range map[string][]tasks.Kind{
		"no name":              {{Run: ok}},
		"no handler":           {{Name: "metadata"}},
		"twice":                {{Name: "metadata", Run: ok}, {Name: "metadata", Run: ok}},
		"unregistered next":    {{Name: "metadata", Run: ok, Next: []string{"variants"}}},
		"negative max attempt": {{Name: "metadata", Run: ok, MaxAttempts: -1}},
		"a circle": {{Name: "metadata", Run: ok, Next: []string{"variants"}},
			{Name: "variants", Run: ok, Next: []string{"geocode"}}, {Name: "geocode", Run: ok, Next: []string{"variants"}}},
		"a kind after itself": {{Name: "metadata", Run: ok, Next: []string{"metadata"}}},
	} {
		_, err := tasks.NewRunner(w.st, kinds, tasks.RunnerConfig{}, nil, w.clock.Now)
		require.Error(t, err, name)
	}
}

func TestPermanentIsRecognisedThroughWrapping(t *testing.T) {
	base := errors.New("unreadable")
	err := fmt.Errorf("metadata: %w", tasks.Permanent(base))
	require.True(t, tasks.IsPermanent(err))
	require.ErrorIs(t, err, base)
	require.False(t, tasks.IsPermanent(base))
	require.NoError(t, tasks.Permanent(nil))
}

// TestRunnerClaimsATaskItsPredecessorHeldBackAtOnce: a task queued while
// one of its kind runs on the same asset waits for it; when that one
// finishes, the runner claims the waiting task at once, not at its next
// poll (an hour away here). The benchmark of the ingest found the runner
// idle half a second at a time before it woke on finishing tasks too.
func TestRunnerClaimsATaskItsPredecessorHeldBackAtOnce(t *testing.T) {
	w := newWorld(t, 1)
	id := w.assets[0]
	started, release := make(chan struct{}, 2), make(chan struct{})
	var runs atomic.Int32
	slow := tasks.Kind{Name: "metadata", Run: func(ctx context.Context, _ *catalog.Task) error {
		started <- struct{}{}
		if runs.Add(1) == 1 {
			<-release
		}
		return nil
	}}
	sig := tasks.NewSignal()
	r := w.runner(tasks.NotifyOnEnqueue(w.st, sig), []tasks.Kind{slow}, tasks.RunnerConfig{PollInterval: time.Hour, Signal: sig})
	w.enqueue("metadata", id)
	r.Start(t.Context())
	<-started
	st := w.st
	w.st = tasks.NotifyOnEnqueue(st, sig)
	w.enqueue("metadata", id) // due, but held back by the running one
	w.st = st
	time.Sleep(50 * time.Millisecond) // the runner looks, finds it held back, and sleeps
	close(release)
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the held-back task did not start when its predecessor finished")
	}
	w.eventually("both runs succeeded", func() bool {
		list := w.list(query.TaskFilter{Kind: "metadata", AssetID: id})
		return len(list) == 2 && list[0].State == catalog.TaskSucceeded && list[1].State == catalog.TaskSucceeded
	})
}

// TestRunnerStartsAFinishedTasksSuccessorsSideBySide: a slot that finishes
// a task claims the next one in the same transaction; when the task
// enqueued two successors, the other free slot takes the second at once,
// not at the next poll (an hour away here). Both successors wait until
// both have started, so the test ends only if they run side by side.
func TestRunnerStartsAFinishedTasksSuccessorsSideBySide(t *testing.T) {
	w := newWorld(t, 1)
	id := w.assets[0]
	var both sync.WaitGroup
	both.Add(2)
	met := make(chan struct{})
	go func() { both.Wait(); close(met) }()
	meet := func(ctx context.Context, _ *catalog.Task) error {
		both.Done()
		select {
		case <-met:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	r := w.runner(w.st, []tasks.Kind{
		{Name: "metadata", Run: func(context.Context, *catalog.Task) error { return nil }, Next: []string{"geocode", "variants"}},
		{Name: "geocode", Run: meet},
		{Name: "variants", Run: meet},
	}, tasks.RunnerConfig{Concurrency: 2, PollInterval: time.Hour})
	w.enqueue("metadata", id)
	r.Start(t.Context())
	w.waitState("geocode", id, catalog.TaskSucceeded)
	w.waitState("variants", id, catalog.TaskSucceeded)
}

// TestRunnerRecordsTheOutcomeWhenTheClaimBesideItFails: the transaction
// that records a task's outcome also claims the next task; when that
// claim fails (not merely finds nothing), the outcome is recorded on its
// own and the next task is claimed later as usual.
func TestRunnerRecordsTheOutcomeWhenTheClaimBesideItFails(t *testing.T) {
	w := newWorld(t, 2)
	var claims atomic.Int32
	st := brokenClaim{Store: w.st, claims: &claims, failAt: 2} // 1: the dispatcher's; 2: beside the outcome
	r := w.runner(st, []tasks.Kind{{Name: "metadata", Run: func(context.Context, *catalog.Task) error { return nil }}},
		tasks.RunnerConfig{Concurrency: 1})
	w.enqueue("metadata", w.assets[0])
	w.enqueue("metadata", w.assets[1])
	r.Start(t.Context())
	w.waitState("metadata", w.assets[0], catalog.TaskSucceeded)
	w.waitState("metadata", w.assets[1], catalog.TaskSucceeded)
	require.GreaterOrEqual(t, claims.Load(), int32(3))
}

// brokenClaim is a store whose failAt-th claim fails.
type brokenClaim struct {
	store.Store
	claims *atomic.Int32
	failAt int32
}

func (s brokenClaim) InTx(ctx context.Context, fn func(store.Repos) error) error {
	return s.Store.InTx(ctx, func(r store.Repos) error { return fn(brokenClaimRepos{Repos: r, s: s}) })
}

type brokenClaimRepos struct {
	store.Repos
	s brokenClaim
}

func (r brokenClaimRepos) Tasks() store.Tasks {
	return brokenClaimTasks{Tasks: r.Repos.Tasks(), s: r.s}
}

type brokenClaimTasks struct {
	store.Tasks
	s brokenClaim
}

func (t brokenClaimTasks) Claim(ctx context.Context, c query.Claim) (*catalog.Task, error) {
	if t.s.claims.Add(1) == t.s.failAt {
		return nil, errors.New("the claim broke")
	}
	return t.Tasks.Claim(ctx, c)
}
