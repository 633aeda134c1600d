package tasks

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// maxErrorText bounds the error text stored with a task.
const maxErrorText = 4 << 10

// finishTimeout bounds recording a task's outcome, which happens even when
// the runner is stopping.
const finishTimeout = 30 * time.Second

// run runs one claimed task under a heartbeat and records its outcome.
// Unless the runner is stopping, the transaction that records it also
// claims the slot's next task, which run returns (nil when nothing is
// due): a hand-off costs one transaction, and the slot is never free
// between two tasks of a drain.
func (r *Runner) run(ctx context.Context, t *catalog.Task) *catalog.Task {
	k := r.kinds[t.Kind]
	hctx, cancel := context.WithCancel(ctx)
	lost := make(chan struct{})
	beat := make(chan struct{})
	go func() {
		defer close(beat)
		r.heartbeat(hctx, t, cancel, lost)
	}()
	rctx, rcancel := hctx, context.CancelFunc(func() {})
	if r.cfg.Timeout > 0 {
		rctx, rcancel = context.WithTimeout(hctx, r.cfg.Timeout)
	}
	// A task claimed beside its predecessor's outcome just as the runner
	// began to stop goes back without running.
	err := ctx.Err()
	if err == nil {
		err = call(rctx, k.Run, t)
	}
	if err != nil && errors.Is(rctx.Err(), context.DeadlineExceeded) && hctx.Err() == nil {
		err = Permanent(fmt.Errorf("task ran over its time limit of %s (ingest.task_timeout): %w", r.cfg.Timeout, err))
	}
	rcancel()
	cancel()
	<-beat
	select {
	case <-lost:
		r.log.Warn("task lease lost (it expired and the task was requeued, or its asset was deleted)", "task", t.ID, "kind", t.Kind,
			"asset", t.AssetID, "handler_err", err)
		return nil
	default:
	}
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer fcancel()
	next, ferr := r.finish(fctx, k, t, err, ctx.Err() != nil)
	if ferr != nil {
		r.log.Error("could not record the outcome of a task; its lease will expire and it will run again",
			"task", t.ID, "kind", t.Kind, "err", ferr)
	}
	return next
}

// call runs a handler, turning a panic into an error.
func call(ctx context.Context, h Handler, t *catalog.Task) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return h(ctx, t)
}

// heartbeat extends the task's lease every third of a lease until ctx
// ends. When the lease turns out to be lost (it expired and was requeued,
// or the task's asset was deleted), it closes lost and cancels the handler.
func (r *Runner) heartbeat(ctx context.Context, t *catalog.Task, cancel context.CancelFunc, lost chan<- struct{}) {
	tick := time.NewTicker(r.cfg.Lease / 3)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		err := r.st.InTx(ctx, func(rp store.Repos) error {
			return rp.Tasks().Extend(ctx, t.ID, t.LeaseOwner, r.now().Add(r.cfg.Lease))
		})
		switch {
		case errors.Is(err, catalog.ErrNotFound):
			close(lost)
			cancel()
			return
		case err != nil && ctx.Err() == nil:
			// The lease still runs; the next beat tries again.
			r.log.Warn("could not extend a task's lease", "task", t.ID, "err", err)
		}
	}
}

// finish records the outcome of a handler: success (and the next kinds),
// the attempt given back when the runner is stopping, a retry after
// backoff, or failure once the error is permanent or attempts are spent.
// Unless stopping, it claims the next task in the same transaction.
func (r *Runner) finish(ctx context.Context, k Kind, t *catalog.Task, runErr error, stopping bool) (*catalog.Task, error) {
	now := r.now()
	log := r.log.With("task", t.ID, "kind", t.Kind, "asset", t.AssetID, "attempt", t.Attempts)
	note, skip := skipped(runErr)
	// Each outcome: what records it, and what is logged once it is.
	var (
		record func(store.Repos) error
		report func()
	)
	switch {
	case runErr == nil || skip:
		record = func(rp store.Repos) error {
			if err := rp.Tasks().Succeed(ctx, t.ID, t.LeaseOwner, note, now); err != nil {
				return err
			}
			// The next steps keep the chain's place in line, so one asset's
			// chain completes before later uploads start theirs.
			runAfter := t.RunAfter
			if runAfter.After(now) {
				runAfter = now
			}
			return r.enqueueNext(ctx, rp, k.Next, t, runAfter, now)
		}
		report = func() {
			if skip {
				log.Info("task skipped", "reason", note)
			} else {
				log.Debug("task succeeded")
			}
		}
	case stopping:
		var requeued bool
		record = func(rp store.Repos) (err error) {
			requeued, err = rp.Tasks().Release(ctx, t.ID, t.LeaseOwner, now)
			return err
		}
		report = func() { log.Info("task interrupted by shutdown", "queued_again", requeued, "err", runErr) }
	case IsPermanent(runErr) || t.Attempts >= t.MaxAttempts:
		record = func(rp store.Repos) error {
			return rp.Tasks().Fail(ctx, t.ID, t.LeaseOwner, r.errorText(runErr), now)
		}
		report = func() { log.Warn("task failed", "err", runErr, "permanent", IsPermanent(runErr)) }
	default:
		wait := r.cfg.Backoff(t.Attempts)
		var requeued bool
		record = func(rp store.Repos) (err error) {
			requeued, err = rp.Tasks().Retry(ctx, t.ID, t.LeaseOwner, r.errorText(runErr), now.Add(wait), now)
			return err
		}
		report = func() {
			if requeued {
				log.Warn("task attempt failed; retrying", "err", runErr, "retry_in", wait)
			} else {
				log.Warn("task attempt failed; not retried: a newer task of its kind is queued for the same subject",
					"err", runErr)
			}
		}
	}
	next, err := r.recordAndClaim(ctx, record, !stopping, now)
	if errors.Is(err, catalog.ErrNotFound) {
		// The asset was deleted (its tasks with it) while the handler ran.
		log.Debug("task gone before its outcome was recorded")
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	report()
	return next, nil
}

// enqueueNext queues the kinds that follow a succeeded task t for its
// subject, due at runAfter. A kind that is off here (Kind.Off) is recorded
// as skipped instead, once, and the kinds after it follow in its place.
func (r *Runner) enqueueNext(ctx context.Context, rp store.Repos, next []string, t *catalog.Task,
	runAfter, now time.Time) error {
	todo := slices.Clone(next)
	seen := make(map[string]bool, len(todo))
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		k := r.kinds[name]
		reason := ""
		if k.Off != nil {
			reason = k.Off()
		}
		if reason == "" {
			if _, err := enqueue(ctx, rp, name, t.AssetID, t.LibraryID, runAfter, now); err != nil {
				return err
			}
			continue
		}
		skip := &catalog.Task{ID: catalog.NewID(catalog.PrefixTask, now), Kind: name,
			AssetID: t.AssetID, LibraryID: t.LibraryID, CreatedAt: now.UTC()}
		if err := rp.Tasks().AddSkipped(ctx, skip, Skip(reason).Error()); err != nil {
			return err
		}
		todo = append(todo, k.Next...)
	}
	return nil
}

// recordAndClaim runs record in one transaction and, when claim is set,
// claims the next due task in it too. A claim that fails for any reason
// but an empty queue must not cost the outcome: the outcome is then
// recorded again on its own, and the dispatcher claims as usual.
func (r *Runner) recordAndClaim(ctx context.Context, record func(store.Repos) error, claim bool,
	now time.Time) (*catalog.Task, error) {
	var next *catalog.Task
	errClaim := errors.New("claim failed")
	err := r.st.InTx(ctx, func(rp store.Repos) error {
		next = nil
		if err := record(rp); err != nil || !claim {
			return err
		}
		t, err := r.claimIn(ctx, rp, now)
		switch {
		case errors.Is(err, catalog.ErrNotFound):
			return nil
		case err != nil:
			return fmt.Errorf("%w: %w", errClaim, err)
		}
		next = t
		return nil
	})
	if errors.Is(err, errClaim) {
		r.logUnlessStopping(ctx, "claim a task", err)
		return nil, r.st.InTx(ctx, record)
	}
	return next, err
}

// errorText is the stored form of a handler's error: redacted (see
// RunnerConfig.Redact) and cut short.
func (r *Runner) errorText(err error) string {
	s := err.Error()
	if r.cfg.Redact != nil {
		s = r.cfg.Redact(s)
	}
	if len(s) > maxErrorText {
		s = strings.ToValidUTF8(s[:maxErrorText], "") + "…"
	}
	return s
}
