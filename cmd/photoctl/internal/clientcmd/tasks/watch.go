package tasks

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// WatchOptions are what `photoctl tasks watch` was asked for.
type WatchOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	Interval time.Duration
}

// NewCmdWatch returns `photoctl tasks watch`; runF, when not nil, gets the
// parsed options instead of runWatch (tests).
var NewCmdWatch = cmdutil.Constructor(cmdutil.Command[WatchOptions]{
	Name:  "watch",
	Usage: "Wait until no task is queued or running, with a progress bar",
	Description: `Polls the library's queue every --interval and draws a bar on a terminal
(elsewhere one line on stderr): tasks that succeeded since the watch began,
of those plus the ones queued and running. It ends when nothing is queued
or running, and prints how many tasks succeeded and which failed meanwhile
(with --json as an object). Tasks scheduled ahead (never tried and due
over a minute later, such as a library's people re-cluster an hour after
faces were found) are not waited for: the summary says when the next is
due. Retries waiting out their backoff are waited for. A task that is queued and finishes between two
polls counts only if it failed. A long queue is polled less often (at most
a third of the time goes to looking).

With -q there is no bar and no summary line, only the failed tasks.

Exits 0 when the queue drained without failures, 1 when tasks failed
meanwhile (or on Ctrl-C before the queue drained).

Example:
   photoctl upload ~/Pictures && photoctl tasks watch
   photoctl tasks watch --interval 5s --json | jq '.failed_tasks[].error'`,
	// --json comes before -q here, so it is one of the flags.
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.DurationFlag{Name: "interval", Value: time.Second, Usage: "poll every `DURATION`"},
		cmdutil.JSONFlag(),
		cmdutil.QuietFlag(),
	},
	Parse: func(c *cli.Context, _ []string, opts *WatchOptions) (err error) {
		opts.Interval, err = pollInterval(c)
		return err
	},
	Run: runWatch,
})

// WatchJSON is the result of `photoctl tasks watch --json`.
type WatchJSON struct {
	Succeeded   int        `json:"succeeded"`
	Failed      int        `json:"failed"`
	FailedTasks []api.Task `json:"failed_tasks"`
	// Scheduled counts the tasks left queued for later (not waited for);
	// NextDue is the earliest one's run_after, null when there are none.
	Scheduled int        `json:"scheduled"`
	NextDue   *time.Time `json:"next_due"`
}

func runWatch(ctx context.Context, conn *cmdutil.APIConn, opts *WatchOptions) error {
	ctx, stop := untilInterrupted(ctx)
	defer stop()
	return watchQueue(ctx, &taskWatch{conn: conn, lib: opts.LibraryID}, opts.Interval, opts.JSON, opts.IO)
}

// watchQueue polls w until nothing is queued or running, then reports.
func watchQueue(ctx context.Context, w *taskWatch, interval time.Duration, asJSON bool, io *cmdutil.Streams) error {
	if err := w.begin(ctx); err != nil {
		return err
	}
	bar := newTaskBar(io)
	if len(w.active) > 0 && bar.bar == nil && !io.Quiet {
		fmt.Fprintf(io.Err, "Watching %d queued or running task(s) until none is left...\n", len(w.active))
	}
	wait := interval
	for len(w.active) > 0 {
		bar.show(w)
		select {
		case <-ctx.Done():
			bar.finish()
			return fmt.Errorf("interrupted with %d task(s) queued or running", len(w.active))
		case <-time.After(wait):
		}
		started := time.Now()
		err := w.poll(ctx, false)
		if err == nil && len(w.active) == 0 {
			// Queued and running are two lists: a task that finished
			// between them may have queued its successor after the queued
			// list was read. Look once more, running first, before calling
			// the queue drained.
			err = w.poll(ctx, true)
		}
		if err != nil {
			bar.finish()
			return err
		}
		// A long queue takes many pages to list: wait at least twice as
		// long as the last look took, so the watch never loads the server
		// more than a third of one client's time.
		wait = max(interval, 2*time.Since(started))
	}
	bar.finish()
	return printWatch(w, asJSON, io)
}

// printWatch prints the summary of a drained queue; failures since the
// watch began make it an error (exit 1).
func printWatch(w *taskWatch, asJSON bool, io *cmdutil.Streams) error {
	out := WatchJSON{Succeeded: w.succeeded(), Failed: len(w.failed), FailedTasks: w.failed,
		Scheduled: w.scheduled, NextDue: w.nextDue}
	if out.FailedTasks == nil {
		out.FailedTasks = []api.Task{}
	}
	if asJSON {
		if err := cmdutil.PrintJSON(io.Out, out); err != nil {
			return err
		}
	} else {
		if !io.Quiet {
			fmt.Fprintf(io.Out, "Nothing queued or running: %d task(s) succeeded, %d failed since the watch began.\n",
				out.Succeeded, out.Failed)
			if out.NextDue != nil {
				fmt.Fprintf(io.Out, "%d task(s) scheduled for later, the next at %s.\n",
					out.Scheduled, out.NextDue.Local().Format("2006-01-02 15:04"))
			}
		}
		if out.Failed > 0 {
			if err := cmdutil.PrintTable(io, []string{"ID", "KIND", "STATE", "ASSET", "ATTEMPTS", "CREATED", "ERROR"},
				cmdutil.RowsOf(w.failed, taskRow)); err != nil {
				return err
			}
		}
	}
	if out.Failed > 0 {
		return fmt.Errorf("%d task(s) failed", out.Failed)
	}
	return nil
}
