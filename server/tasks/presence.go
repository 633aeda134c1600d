package tasks

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/store"
)

// presence holds the runner's presence on a store that has it
// (store.TaskPresence) while the runner runs, holding it again after a
// lost connection. The runner claims only while it holds it (present):
// other processes take the tasks of a runner without presence for
// orphans (RequeueAbandoned).
func (r *Runner) presence(ctx context.Context, p store.TaskPresence) {
	defer r.wg.Done()
	for {
		err := p.HoldPresence(ctx, r.cfg.ID, func() {
			r.present.Store(true)
			r.Wake()
		})
		r.present.Store(false)
		if ctx.Err() != nil {
			return
		}
		r.log.Warn("not holding the runner's presence; claiming no tasks until it holds again",
			"err", err, "retry_in", listenRetry)
		select {
		case <-ctx.Done():
			return
		case <-time.After(listenRetry):
		}
	}
}

// claimable reports whether the runner may claim: on a store with
// presence, only while it holds its own.
func (r *Runner) claimable() bool { return !r.needPresence || r.present.Load() }
