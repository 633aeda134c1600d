package tasks

import (
	"context"
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// taskWatch follows a library's queue. The task list has no counts and no
// finish-time order, so the watch keeps the ids of the tasks queued or
// running at each poll: one that leaves that set has finished. Failures are
// found exactly in the failed list, which runs newest id first: a task that
// failed meanwhile was queued or running when the watch began, or created
// after, so its id is at least the smallest id then active (floor); failed
// tasks at or above floor that were already failed at the start are left
// out. Tasks created and finished between two polls count only if they
// failed.
type taskWatch struct {
	conn   *cmdutil.APIConn
	lib    string
	floor  string
	active map[string]bool
	done   map[string]bool // left the active set since the start
	before map[string]bool // failed at the start, id ≥ floor
	failed []api.Task      // failed since the start
	// scheduled counts the queued tasks left out of active as scheduled
	// ahead (scheduledAhead) at the last look; nextDue is the earliest.
	scheduled int
	nextDue   *time.Time
}

// scheduleHorizon is how far ahead a never-tried queued task must be due
// for the watch to leave it: beyond the clocks' usual skew, and short of
// anything scheduled on purpose (re-clusters wait an hour by default).
const scheduleHorizon = time.Minute

// scheduledAhead reports whether a queued task is work put off on purpose
// (a re-cluster), not the queue's: never tried and due past the horizon.
// A retry waiting out its backoff has attempts and is waited for.
func scheduledAhead(t api.Task, now time.Time) bool {
	return t.State == client.TaskQueued && t.Attempts == 0 && t.RunAfter.After(now.Add(scheduleHorizon))
}

// begin takes the first look at the queue.
func (w *taskWatch) begin(ctx context.Context) error {
	w.done = map[string]bool{}
	active, err := w.activeIDs(ctx, false)
	if err != nil || len(active) == 0 {
		w.active = active
		return err
	}
	for id := range active {
		if w.floor == "" || id < w.floor {
			w.floor = id
		}
	}
	w.active = active
	failed, err := w.failedSince(ctx)
	if err != nil {
		return err
	}
	w.before = map[string]bool{}
	for _, t := range failed {
		w.before[t.ID] = true
	}
	return nil
}

// poll takes the next look (see activeIDs for runningFirst).
func (w *taskWatch) poll(ctx context.Context, runningFirst bool) error {
	active, err := w.activeIDs(ctx, runningFirst)
	if err != nil {
		return err
	}
	for id := range w.active {
		if !active[id] {
			w.done[id] = true
		}
	}
	w.active = active
	failed, err := w.failedSince(ctx)
	if err != nil {
		return err
	}
	w.failed = w.failed[:0]
	for _, t := range failed {
		if !w.before[t.ID] {
			w.failed = append(w.failed, t)
		}
	}
	return nil
}

// succeeded counts the tasks seen to finish that did not fail.
func (w *taskWatch) succeeded() int {
	n := len(w.done)
	for _, t := range w.failed {
		if w.done[t.ID] {
			n--
		}
	}
	return n
}

// activeIDs lists the ids of the queued and running tasks, but those
// scheduled ahead (counted in scheduled and nextDue): queued first, or
// running first with runningFirst.
func (w *taskWatch) activeIDs(ctx context.Context, runningFirst bool) (map[string]bool, error) {
	ids := map[string]bool{}
	states := []string{client.TaskQueued, client.TaskRunning}
	if runningFirst {
		states[0], states[1] = states[1], states[0]
	}
	w.scheduled, w.nextDue = 0, nil
	now := time.Now()
	for _, state := range states {
		for t, err := range w.conn.Tasks(ctx, client.TaskQuery{LibraryID: w.lib, State: state}, 0) {
			if err != nil {
				return nil, err
			}
			if scheduledAhead(t, now) {
				w.scheduled++
				if w.nextDue == nil || t.RunAfter.Before(*w.nextDue) {
					w.nextDue = &t.RunAfter
				}
				continue
			}
			ids[t.ID] = true
		}
	}
	return ids, nil
}

// failedSince lists the failed tasks whose id is at least floor.
func (w *taskWatch) failedSince(ctx context.Context) ([]api.Task, error) {
	var out []api.Task
	for t, err := range w.conn.Tasks(ctx, client.TaskQuery{LibraryID: w.lib, State: client.TaskFailed}, 0) {
		if err != nil {
			return nil, err
		}
		if t.ID < w.floor {
			break // newest first: the rest are older
		}
		out = append(out, t)
	}
	return out, nil
}

// taskBar draws the watch on a terminal's error stream; elsewhere it draws
// nothing.
type taskBar struct {
	bar *progressbar.ProgressBar
}

func newTaskBar(io *cmdutil.Streams) *taskBar {
	if !io.Progress {
		return &taskBar{}
	}
	return &taskBar{bar: cmdutil.NewBar(io.Err, -1, "tasks", progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true), progressbar.OptionSetElapsedTime(true))}
}

// show draws succeeded of succeeded+queued+running, and the failures.
func (b *taskBar) show(w *taskWatch) {
	if b.bar == nil {
		return
	}
	done := w.succeeded()
	b.bar.ChangeMax(done + len(w.active))
	b.bar.Describe(fmt.Sprintf("%d active, %d failed", len(w.active), len(w.failed)))
	_ = b.bar.Set(done)
}

func (b *taskBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
		_ = b.bar.Clear()
	}
}
