package tasks

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
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
func (r *Runner) run(ctx context.Context, t *catalog.Task) {
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
	err := call(rctx, k.Run, t)
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
		return
	default:
	}
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer fcancel()
	if ferr := r.finish(fctx, k, t, err, ctx.Err() != nil); ferr != nil {
		r.log.Error("could not record the outcome of a task; its lease will expire and it will run again",
			"task", t.ID, "kind", t.Kind, "err", ferr)
	}
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
func (r *Runner) finish(ctx context.Context, k Kind, t *catalog.Task, runErr error, stopping bool) error {
	now := r.now()
	log := r.log.With("task", t.ID, "kind", t.Kind, "asset", t.AssetID, "attempt", t.Attempts)
	var err error
	note, skip := skipped(runErr)
	switch {
	case runErr == nil || skip:
		err = r.st.InTx(ctx, func(rp store.Repos) error {
			if err := rp.Tasks().Succeed(ctx, t.ID, t.LeaseOwner, note, now); err != nil {
				return err
			}
			// The next steps keep the chain's place in line, so one asset's
			// chain completes before later uploads start theirs.
			runAfter := t.RunAfter
			if runAfter.After(now) {
				runAfter = now
			}
			for _, next := range k.Next {
				if _, err := enqueue(ctx, rp, next, t.AssetID, t.LibraryID, runAfter, now); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil && skip {
			log.Info("task skipped", "reason", note)
		} else if err == nil {
			log.Debug("task succeeded")
		}
	case stopping:
		requeued := false
		err = r.st.InTx(ctx, func(rp store.Repos) error {
			var rerr error
			requeued, rerr = rp.Tasks().Release(ctx, t.ID, t.LeaseOwner, now)
			return rerr
		})
		if err == nil {
			log.Info("task interrupted by shutdown", "queued_again", requeued, "err", runErr)
		}
	case IsPermanent(runErr) || t.Attempts >= t.MaxAttempts:
		err = r.st.InTx(ctx, func(rp store.Repos) error {
			return rp.Tasks().Fail(ctx, t.ID, t.LeaseOwner, errorText(runErr), now)
		})
		log.Warn("task failed", "err", runErr, "permanent", IsPermanent(runErr))
	default:
		wait := r.cfg.Backoff(t.Attempts)
		requeued := false
		err = r.st.InTx(ctx, func(rp store.Repos) error {
			var rerr error
			requeued, rerr = rp.Tasks().Retry(ctx, t.ID, t.LeaseOwner, errorText(runErr), now.Add(wait), now)
			return rerr
		})
		switch {
		case err == nil && requeued:
			log.Warn("task attempt failed; retrying", "err", runErr, "retry_in", wait)
		case err == nil:
			log.Warn("task attempt failed; not retried: a newer task of its kind is queued for the same subject",
				"err", runErr)
		}
	}
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		// The asset was deleted (its tasks with it) while the handler ran.
		log.Debug("task gone before its outcome was recorded")
		return nil
	}
	return err
}

// errorText is the stored form of a handler's error.
func errorText(err error) string {
	s := err.Error()
	if len(s) > maxErrorText {
		s = strings.ToValidUTF8(s[:maxErrorText], "") + "…"
	}
	return s
}
