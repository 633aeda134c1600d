package tasks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// RunnerConfig tunes a Runner. Zero fields take the defaults.
type RunnerConfig struct {
	// Concurrency is how many tasks run at once; 0 runs none (the runner
	// then only requeues abandoned tasks).
	Concurrency int
	// PollInterval is how often an idle runner looks for work that other
	// processes enqueued (default 500 ms). On a store that tells of them
	// (store.TaskListener) the runner listens too, so polling only backs
	// that up.
	PollInterval time.Duration
	// Lease is how long a claimed task counts as alive without a heartbeat
	// (default 1 minute); heartbeats come every third of it, and abandoned
	// leases are requeued as often as a lease lasts.
	Lease time.Duration
	// Backoff is the wait before retrying after the given failed attempt
	// (1 for the first); default DefaultBackoff.
	Backoff func(attempt int) time.Duration
	// Signal wakes the runner when this process enqueues tasks (see
	// NotifyOnEnqueue); nil makes one, reachable through Wake.
	Signal Signal
	// ID names the runner in lease owners (default host:pid:random).
	ID string
	// Timeout bounds one run of a task (0: none). A run that outlives it
	// is cancelled and the task fails for good: a file that hangs a tool
	// (ffprobe on a crafted video) hangs it again on every retry.
	Timeout time.Duration
	// Redact rewrites a failed run's error text before it is stored, where
	// users read it (GET /api/tasks): blob.Redact with the data directory,
	// so that it names the asset and not the server's paths. nil stores
	// the text as it is; the log keeps the full error either way.
	Redact func(string) string
}

// Defaults of RunnerConfig.
const (
	DefaultPollInterval = 500 * time.Millisecond
	DefaultLease        = time.Minute
)

// DefaultBackoff waits 30 s after the first failure, doubling each time up
// to 15 minutes, with ±20% jitter so that tasks failing together (a full
// disk) do not retry in lockstep.
func DefaultBackoff(attempt int) time.Duration {
	d := 30 * time.Second * time.Duration(math.Pow(2, float64(min(max(attempt-1, 0), 10))))
	d = min(d, 15*time.Minute)
	return time.Duration(float64(d) * (0.8 + 0.4*mrand.Float64()))
}

// Runner claims tasks of its kinds and runs them with bounded concurrency.
type Runner struct {
	st    store.Store
	kinds map[string]Kind
	// claim maps each kind to its attempts; names lists the kinds.
	claim map[string]int
	names []string
	cfg   RunnerConfig
	log   *slog.Logger
	now   func() time.Time
	seq   atomic.Uint64

	// needPresence says the store has presence (presence.go); present
	// that the runner holds its own.
	needPresence bool
	present      atomic.Bool

	mu      sync.Mutex
	started bool
	cancel  context.CancelFunc
	wg      sync.WaitGroup // the dispatcher, the reaper and every handler
}

// NewRunner returns a runner of kinds over st; it does nothing until
// Start. now is the clock of leases, backoff and task times.
func NewRunner(st store.Store, kinds []Kind, cfg RunnerConfig, log *slog.Logger, now func() time.Time) (*Runner, error) {
	byName, err := checkKinds(kinds)
	if err != nil {
		return nil, err
	}
	if cfg.Concurrency < 0 {
		return nil, fmt.Errorf("task runner concurrency %d: must not be negative", cfg.Concurrency)
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Backoff == nil {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.Signal == nil {
		cfg.Signal = NewSignal()
	}
	if cfg.ID == "" {
		cfg.ID = runnerID()
	}
	if log == nil {
		log = slog.Default()
	}
	r := &Runner{st: st, kinds: byName, claim: make(map[string]int, len(byName)), cfg: cfg,
		log: log.With("component", "tasks", "runner", cfg.ID), now: now}
	for name, k := range byName {
		r.claim[name] = k.MaxAttempts
		r.names = append(r.names, name)
	}
	slices.Sort(r.names)
	return r, nil
}

// runnerID is host:pid:random, unique per runner.
func runnerID() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b))
}

// Wake makes an idle runner look for due tasks now.
func (r *Runner) Wake() { r.cfg.Signal.Notify() }

// RequeueAbandoned returns tasks left running by a worker that stopped
// without finishing them to the queue (or fails those out of attempts).
// With all, every running task counts as abandoned: only for a process
// that knows no other one works on this database (start-up, data
// directory lock held alone). Otherwise expired leases count, and on a
// store with presence (store.TaskPresence) the tasks of runners that hold
// theirs no more: their process died.
func (r *Runner) RequeueAbandoned(ctx context.Context, all bool) (int, error) {
	now := r.now()
	leaseEnd := now
	if all {
		leaseEnd = time.Unix(1<<40, 0) // after every lease
	}
	var requeued, failed int
	err := r.st.InTx(ctx, func(rp store.Repos) error {
		var err error
		const reason = "the worker running it stopped before it finished"
		requeued, failed, err = rp.Tasks().Requeue(ctx, leaseEnd, now, reason)
		if err != nil {
			return err
		}
		orphans, orphansFailed, err := rp.Tasks().RequeueOrphans(ctx, now, reason)
		requeued, failed = requeued+orphans, failed+orphansFailed
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("requeue abandoned tasks: %w", err)
	}
	if requeued+failed > 0 {
		r.log.Info("requeued abandoned tasks", "requeued", requeued, "failed", failed, "all_running", all)
		r.Wake()
	}
	return requeued, nil
}

// Start starts the runner: up to Concurrency handlers at once, and the
// periodic requeue of expired leases. It runs until Stop; ctx only lends
// its values (a cancelled start-up context does not stop the runner).
func (r *Runner) Start(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return
	}
	r.started = true
	ctx, r.cancel = context.WithCancel(context.WithoutCancel(ctx))
	r.wg.Add(1)
	go r.reap(ctx)
	if r.cfg.Concurrency > 0 && len(r.names) > 0 {
		if p, ok := r.st.(store.TaskPresence); ok {
			r.needPresence = true
			r.wg.Add(1)
			go r.presence(ctx, p)
		}
		r.wg.Add(1)
		go r.dispatch(ctx)
		if l, ok := r.st.(store.TaskListener); ok {
			r.wg.Add(1)
			go r.listen(ctx, l)
		}
	}
	r.log.Info("task runner started", "concurrency", r.cfg.Concurrency, "kinds", r.names)
}

// listenRetry is how long listen waits before listening again after the
// connection failed; the runner polls meanwhile.
const listenRetry = 2 * time.Second

// listen wakes the runner whenever another process (serve taking an
// upload, a worker finishing a step) enqueues tasks, on a store that
// tells (store.TaskListener), until ctx ends. A lost connection is logged
// and listened on again; the poll covers the gap.
func (r *Runner) listen(ctx context.Context, l store.TaskListener) {
	defer r.wg.Done()
	for {
		err := l.ListenTasks(ctx, r.Wake)
		if ctx.Err() != nil {
			return
		}
		r.log.Warn("not listening for other processes' tasks; polling for them until listening again",
			"err", err, "retry_in", listenRetry)
		select {
		case <-ctx.Done():
			return
		case <-time.After(listenRetry):
		}
	}
}

// Stop stops claiming, cancels the running handlers, gives their tasks
// back to the queue and returns when every handler has returned.
func (r *Runner) Stop() {
	r.mu.Lock()
	cancel := r.cancel
	r.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	r.wg.Wait()
}

// dispatch claims a task whenever a handler slot is free, and otherwise
// waits for a wake-up, the next due time or the poll interval.
func (r *Runner) dispatch(ctx context.Context) {
	defer r.wg.Done()
	slots := make(chan struct{}, r.cfg.Concurrency)
	busy := false // the last look claimed a task
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		t, wait := r.next(ctx, busy)
		busy = t != nil
		if t != nil {
			r.wg.Add(1)
			go func() {
				// The slot runs the task its last one claimed when it
				// finished (run). A finished task may also have enqueued
				// more than one successor, or freed its slot: wake the
				// dispatcher, so a free slot claims at once rather than at
				// the next poll.
				defer func() { <-slots; r.Wake(); r.wg.Done() }()
				for t != nil {
					t = r.run(ctx, t)
					r.Wake()
				}
			}()
			continue
		}
		<-slots
		timer := time.NewTimer(wait)
		select {
		case <-r.cfg.Signal:
		case <-timer.C:
		case <-ctx.Done():
		}
		timer.Stop()
		if ctx.Err() != nil {
			return
		}
	}
}

// next claims the next due task, or says how long to wait for one. An
// idle runner only reads; it writes when something is due. A busy one
// (busy: its last look claimed a task) claims at once, sparing the read:
// in a drain, work is due, and each hand-off between tasks is a slot left
// idle.
func (r *Runner) next(ctx context.Context, busy bool) (*catalog.Task, time.Duration) {
	poll := r.cfg.PollInterval
	if !r.claimable() {
		return nil, poll
	}
	now := r.now()
	if !busy {
		due, err := r.st.Read().Tasks().NextDue(ctx, r.names)
		switch {
		case errors.Is(err, catalog.ErrNotFound):
			return nil, poll
		case err != nil:
			r.logUnlessStopping(ctx, "look for due tasks", err)
			return nil, poll
		case due.After(now):
			return nil, min(poll, due.Sub(now))
		}
	}
	t, err := r.claimNext(ctx, now)
	switch {
	case err == nil:
		return t, 0
	case errors.Is(err, catalog.ErrNotFound) && busy:
		// Nothing to claim: find out, as an idle runner does, how long
		// to wait.
		return r.next(ctx, false)
	case errors.Is(err, catalog.ErrNotFound):
		// Due tasks wait for the same kind to finish on their subject.
		return nil, poll
	default:
		r.logUnlessStopping(ctx, "claim a task", err)
		return nil, poll
	}
}

// claimNext claims the next due task as of now, with a fresh lease.
func (r *Runner) claimNext(ctx context.Context, now time.Time) (*catalog.Task, error) {
	var t *catalog.Task
	err := r.st.InTx(ctx, func(rp store.Repos) error {
		var err error
		t, err = r.claimIn(ctx, rp, now)
		return err
	})
	return t, err
}

// claimIn claims the next due task as of now in the transaction of rp,
// with a fresh lease.
func (r *Runner) claimIn(ctx context.Context, rp store.Repos, now time.Time) (*catalog.Task, error) {
	return rp.Tasks().Claim(ctx, query.Claim{Kinds: r.claim, Lease: fmt.Sprintf("%s#%d", r.cfg.ID, r.seq.Add(1)),
		Now: now, LeaseUntil: now.Add(r.cfg.Lease)})
}

// reap requeues tasks whose lease expired (their worker died) as often as
// a lease lasts.
func (r *Runner) reap(ctx context.Context) {
	defer r.wg.Done()
	tick := time.NewTicker(r.cfg.Lease)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if _, err := r.RequeueAbandoned(ctx, false); err != nil {
			r.logUnlessStopping(ctx, "requeue expired leases", err)
		}
	}
}

func (r *Runner) logUnlessStopping(ctx context.Context, what string, err error) {
	if ctx.Err() == nil {
		r.log.Warn("task runner could not "+what, "err", err)
	}
}
