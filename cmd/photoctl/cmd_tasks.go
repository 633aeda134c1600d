package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newTasksCommand returns `photoctl tasks`.
func newTasksCommand() *cli.Command {
	return &cli.Command{
		Name:  "tasks",
		Usage: "List background tasks and watch the queue drain",
		Description: `Uploads queue background tasks (metadata, variants, geocode, faces, ...):
each step queues the next when it succeeds. A task is queued, running,
succeeded or failed; a failed attempt is queued again with a backoff until
its attempts are spent.

Example:
   photoctl tasks list --state failed
   photoctl upload ~/Pictures && photoctl tasks watch`,
		Subcommands: []*cli.Command{newTasksListCommand(), newTasksGetCommand(), newTasksWatchCommand()},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newTasksListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List tasks, newest first, with filters",
		Description: `Lists tasks, by default the 50 newest: those of the library named by --library
(or $PHOTOCTL_LIBRARY, or the default of 'photoctl libraries switch'), else
of every library you can read. --asset alone names its asset's library. With
--json the output is a JSON array of the API's Task records.

Example:
   photoctl tasks list --state failed --all
   photoctl tasks list --asset asset_01hx... --json | jq -r '.[] | "\(.kind) \(.state)"'`,
		Flags: append(append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "state", Usage: "only tasks in `STATE`: queued, running, succeeded or failed"},
			&cli.StringFlag{Name: "kind", Usage: "only tasks of `KIND` (metadata, variants, ...)"},
			&cli.StringFlag{Name: "asset", Usage: "only the tasks of asset `ID`"}),
			append(cmdutil.LimitFlags("tasks"), cmdutil.JSONFlag())...),
		Action: cmdutil.ClientAction(0, 0, "",
			func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
				limit, err := cmdutil.ListLimit(c)
				if err != nil {
					return err
				}
				q := client.TaskQuery{State: c.String("state"), Kind: c.String("kind"), AssetID: c.String("asset")}
				if q.AssetID == "" || c.IsSet("library") {
					if q.LibraryID, err = cmdutil.ResolveLibrary(c.Context, conn, c.String("library")); err != nil {
						return err
					}
				}
				tasks, more, err := cmdutil.Take(conn.Tasks(c.Context, q, cmdutil.PageSizeFor(limit)), limit)
				if err != nil {
					return err
				}
				s := cmdutil.NewStreams(c)
				if err := cmdutil.PrintList(s, c.Bool("json"), tasks,
					[]string{"ID", "KIND", "STATE", "ASSET", "ATTEMPTS", "CREATED", "ERROR"}, taskRow); err != nil {
					return err
				}
				return cmdutil.PrintMoreHint(s, c.Bool("json"), more, len(tasks), "tasks")
			}),
	}
}

// taskRow is a task in the list table.
func taskRow(t api.Task) []string {
	return []string{t.ID, t.Kind, t.State, cmdutil.OrDash(cmdutil.Deref(t.AssetID)), strconv.Itoa(t.Attempts),
		t.CreatedAt.Local().Format("2006-01-02 15:04:05"), cmdutil.OrDash(cmdutil.Deref(t.Error))}
}

func newTasksGetCommand() *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "Show tasks in full",
		ArgsUsage: "TASK...",
		Description: `Prints each task's fields, or with --json the API's Task record (one object
for one task, an array for several).

Example:
   photoctl tasks get task_01hx... --json | jq .error`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one task id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				tasks, err := cmdutil.FetchEach(args, func(id string) (*api.Task, error) { return conn.Task(c.Context, id) })
				if err != nil {
					return err
				}
				return cmdutil.PrintRecords(cmdutil.NewStreams(c), c.Bool("json"), tasks, func(t *api.Task) [][]string {
					rows := [][]string{{"id", t.ID}, {"kind", t.Kind}, {"state", t.State}, {"asset", cmdutil.OrDash(cmdutil.Deref(t.AssetID))},
						{"library", t.LibraryID}, {"attempts", strconv.Itoa(t.Attempts)}, {"error", cmdutil.OrDash(cmdutil.Deref(t.Error))},
						{"created", t.CreatedAt.Local().Format(time.DateTime)}}
					if t.FinishedAt != nil {
						rows = append(rows, []string{"finished", t.FinishedAt.Local().Format(time.DateTime)})
					}
					return rows
				})
			}),
	}
}

func newTasksWatchCommand() *cli.Command {
	return &cli.Command{
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
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.DurationFlag{Name: "interval", Value: time.Second, Usage: "poll every `DURATION`"},
			cmdutil.JSONFlag(), cmdutil.QuietFlag()),
		Action: cmdutil.ClientAction(0, 0, "",
			func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
				if c.Duration("interval") < 100*time.Millisecond {
					return cmdutil.UsageErrorf(c, "--interval must be at least 100ms")
				}
				lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
				if err != nil {
					return err
				}
				ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
				defer stop()
				return runTasksWatch(ctx, conn, lib, c.Duration("interval"), c.Bool("json"), cmdutil.NewStreams(c))
			}),
	}
}

// watchJSON is the result of `photoctl tasks watch --json`.
type watchJSON struct {
	Succeeded   int        `json:"succeeded"`
	Failed      int        `json:"failed"`
	FailedTasks []api.Task `json:"failed_tasks"`
	// Scheduled counts the tasks left queued for later (not waited for);
	// NextDue is the earliest one's run_after, null when there are none.
	Scheduled int        `json:"scheduled"`
	NextDue   *time.Time `json:"next_due"`
}

func runTasksWatch(ctx context.Context, conn *cmdutil.APIConn, lib string, interval time.Duration, asJSON bool, io *cmdutil.Streams) error {
	w := &taskWatch{conn: conn, lib: lib}
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
	out := watchJSON{Succeeded: w.succeeded(), Failed: len(w.failed), FailedTasks: w.failed,
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
