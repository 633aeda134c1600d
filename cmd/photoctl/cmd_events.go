package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
)

// newEventsCommand returns `photoctl events`.
func newEventsCommand() *cli.Command {
	return &cli.Command{
		Name:  "events",
		Usage: "Read a library's change feed",
		Description: `Every change to a library (an upload, an edit, a trash, ...) is an event in
its feed, oldest first, with strictly increasing ids.

Example:
   photoctl events tail --follow`,
		Subcommands: []*cli.Command{newEventsTailCommand()},
		Action:      groupAction(cli.ShowSubcommandHelp),
	}
}

func newEventsTailCommand() *cli.Command {
	return &cli.Command{
		Name:  "tail",
		Usage: "Print events, and with --follow wait for new ones",
		Description: `Prints the events after --after (from the beginning without it), oldest
first, one a line: id, time, type, resource. With --follow it then polls for
new events every --interval until interrupted. Keep the last id printed and
pass it as --after to resume exactly there. With --json each event is one
JSON object per line (JSONL).

Example:
   photoctl events tail --after evt_01hx... --follow
   photoctl events tail --json | jq -r 'select(.type == "asset.created") | .resource_id'`,
		Flags: append(clientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "after", Usage: "start after event `ID`"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep polling for new events"},
			&cli.DurationFlag{Name: "interval", Value: 2 * time.Second, Usage: "poll every `DURATION` with --follow"},
			jsonFlag()),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if c.Duration("interval") < 100*time.Millisecond {
				return usageErrorf(c, "--interval must be at least 100ms")
			}
			conn, err := connect(c, true)
			if err != nil {
				return err
			}
			lib, err := resolveLibrary(c.Context, conn, c.String("library"))
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runEventsTail(ctx, conn, lib, c.String("after"), c.Bool("follow"), c.Duration("interval"),
				c.Bool("json"), newStreams(c))
		},
	}
}

func runEventsTail(ctx context.Context, conn *apiConn, lib, after string, follow bool, interval time.Duration,
	asJSON bool, io *streams) error {
	enc := json.NewEncoder(io.Out)
	for {
		for e, err := range conn.Events(ctx, lib, after) {
			if err != nil {
				if ctx.Err() != nil && follow {
					return nil // Ctrl-C ends --follow normally
				}
				return err
			}
			after = e.ID
			if asJSON {
				err = enc.Encode(e)
			} else {
				_, err = fmt.Fprintf(io.Out, "%s  %s  %-22s %s\n", e.ID, e.CreatedAt.Local().Format(time.DateTime), e.Type, e.ResourceID)
			}
			if err != nil {
				return err
			}
		}
		if !follow {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}
