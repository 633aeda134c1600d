package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdEvents returns `photoctl events`, a group: its subcommand is
// tested with its own runF.
func NewCmdEvents(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "events",
		Usage: "Read a library's change feed",
		Description: `Every change to a library (an upload, an edit, a trash, ...) is an event in
its feed, oldest first, with strictly increasing ids.

Example:
   photoctl events tail -n 20 --follow`,
		Subcommands: []*cli.Command{NewCmdEventsTail(f, nil)},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// EventsTailOptions are what `photoctl events tail` was asked for.
type EventsTailOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	After string
	// Last is how many of the events after After to print before
	// following (-n); -1 for all of them.
	Last     int
	Follow   bool
	Interval time.Duration
}

// NewCmdEventsTail returns `photoctl events tail`; runF, when not nil,
// gets the parsed options instead of runEventsTail (tests).
var NewCmdEventsTail = cmdutil.Constructor(cmdutil.Command[EventsTailOptions]{
	Name:  "tail",
	Usage: "Print events, and with --follow wait for new ones",
	Description: `Prints the events after --after (from the beginning without it), oldest
first, one a line: id, time, type, resource. With --follow it then polls for
new events every --interval until interrupted. Keep the last id printed and
pass it as --after to resume exactly there. With --json each event is one
JSON object per line (JSONL).

-n N (--lines) prints only the last N of those events, like tail -n, then
follows as usual; -n 0 prints none and only follows. The feed is read
oldest first, so photoctl pages through it to find the last N (a long feed
takes a moment; --after shortens the way).

Example:
   photoctl events tail -n 10
   photoctl events tail -n 0 --follow
   photoctl events tail --after evt_01hx... --follow
   photoctl events tail --json | jq -r 'select(.type == "asset.created") | .resource_id'`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "after", Usage: "start after event `ID`"},
		&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep polling for new events"},
		&cli.IntFlag{Name: "lines", Aliases: []string{"n"}, Value: -1, DefaultText: "all",
			Usage: "print only the last `N` events before following"},
		&cli.DurationFlag{Name: "interval", Value: 2 * time.Second, Usage: "poll every `DURATION` with --follow"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *EventsTailOptions) (err error) {
		if opts.Interval, err = pollInterval(c); err != nil {
			return err
		}
		opts.Last = -1
		if c.IsSet("lines") {
			if opts.Last = c.Int("lines"); opts.Last < 0 {
				return cmdutil.UsageErrorf(c, "-n must be at least 0")
			}
		}
		opts.After, opts.Follow = c.String("after"), c.Bool("follow")
		return nil
	},
	Run: runEventsTail,
})

func runEventsTail(ctx context.Context, conn *cmdutil.APIConn, opts *EventsTailOptions) error {
	ctx, stop := untilInterrupted(ctx)
	defer stop()
	return tailEvents(ctx, conn, opts)
}

// tailEvents prints the library's events as opts ask, until the feed ends or,
// with --follow, until ctx does.
func tailEvents(ctx context.Context, conn *cmdutil.APIConn, opts *EventsTailOptions) error {
	after, show := opts.After, eventPrinter(opts)
	keep := opts.Last // -n: the first read keeps only its last events
	for {
		var last []api.Event
		for e, err := range conn.Events(ctx, opts.LibraryID, after) {
			if err != nil {
				return endTail(ctx, opts.Follow, err)
			}
			after = e.ID
			if keep >= 0 {
				// The feed runs oldest first: read it to the end,
				// keeping the last ones.
				if last = append(last, e); len(last) > keep {
					last = last[1:]
				}
			} else if err := show(e); err != nil {
				return err
			}
		}
		for _, e := range last {
			if err := show(e); err != nil {
				return err
			}
		}
		keep = -1
		if !opts.Follow || !sleep(ctx, opts.Interval) {
			return nil
		}
	}
}

// eventPrinter prints one event a line: a JSON object with --json, else
// id, time, type and resource.
func eventPrinter(opts *EventsTailOptions) func(api.Event) error {
	enc := json.NewEncoder(opts.IO.Out)
	return func(e api.Event) error {
		if opts.JSON {
			return enc.Encode(e)
		}
		_, err := fmt.Fprintf(opts.IO.Out, "%s  %s  %-22s %s\n", e.ID, e.CreatedAt.Local().Format(time.DateTime), e.Type, e.ResourceID)
		return err
	}
}

// endTail is the outcome of a failed read: Ctrl-C ends --follow normally.
func endTail(ctx context.Context, follow bool, err error) error {
	if ctx.Err() != nil && follow {
		return nil
	}
	return err
}

// pollInterval is --interval, which may not be under 100ms (a usage
// error): tail --follow and watch poll the server that often.
func pollInterval(c *cli.Context) (time.Duration, error) {
	if d := c.Duration("interval"); d >= 100*time.Millisecond {
		return d, nil
	}
	return 0, cmdutil.UsageErrorf(c, "--interval must be at least 100ms")
}

// untilInterrupted is ctx, ended also by Ctrl-C or SIGTERM: for runs that
// poll until done or interrupted.
func untilInterrupted(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// sleep waits d, or returns false when ctx ends first.
func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}
