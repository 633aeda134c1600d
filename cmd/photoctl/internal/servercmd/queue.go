//go:build !client

package servercmd

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

// QueueOptions is what an admin command that queues tasks (regeocode,
// remeasure) needs once its flags are parsed.
type QueueOptions struct {
	Config app.Config
	JSON   bool
	Out    io.Writer
	// Queue queues the tasks on the data directory's store and returns
	// how many it queued.
	Queue func(context.Context, app.Config) (int, error)
}

// NewCmdRegeocode returns `photoctl admin regeocode`.
func NewCmdRegeocode(f *Factory, runF func(*QueueOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "regeocode",
		Usage: "Name the places of every photo with a position again",
		Description: `Queues a regeocode task for every library holding a photo or video with a
GPS position. A running server or worker then looks every such position up
again in the built-in place data (country, state, nearest town) and rewrites
the place fields and the search text where they changed. Assets without a
position are left as they are. The server does this by itself once after
an upgrade that changes the place data; this command is for doing it again.

It prints "queued regeocode for N libraries", or with --json {"libraries": N}.

Example:
   photoctl admin regeocode --data-dir /srv/photoctl`,
		Flags:  []cli.Flag{dataDirFlag(), cmdutil.JSONFlag()},
		Action: queueAction(f, runF, "regeocode", "libraries", "queued regeocode for %d libraries", app.Regeocode),
	}
}

// NewCmdRemeasure returns `photoctl admin remeasure`.
func NewCmdRemeasure(f *Factory, runF func(*QueueOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "remeasure",
		Usage: "Queue a metrics task for each asset measured before image search hashed crops",
		Description: `Image search finds crops of a photo through the perceptual hashes of its
crops, which the metrics step stores since migration 0019. Assets measured
before have none: this queues a metrics task for each of them (the task
measures the stored preview again) and prints "queued N metrics tasks", or
with --json {"tasks": N}. The server's workers run the tasks; a task already
queued is not doubled.

Example:
   photoctl admin remeasure --data-dir /var/lib/photoctl`,
		Flags:  []cli.Flag{dataDirFlag(), cmdutil.JSONFlag()},
		Action: queueAction(f, runF, "remeasure", "tasks", "queued %d metrics tasks", app.RemeasureCrops),
	}
}

// queueAction is the Action of an admin command that queues tasks on the
// data directory's store with queue and prints how many: text (a format
// of the count), or with --json {key: count}; name prefixes its error.
func queueAction(f *Factory, runF func(*QueueOptions) error, name, key, text string,
	queue func(context.Context, app.Config) (int, error)) cli.ActionFunc {
	return func(c *cli.Context) error {
		cfg, err := noArgsConfig(c)
		if err != nil {
			return err
		}
		opts := &QueueOptions{Config: cfg, JSON: c.Bool("json"), Out: f.Streams(c).Out, Queue: queue}
		return cmdutil.Run(c.Context, opts, runF, func(ctx context.Context, opts *QueueOptions) error {
			n, err := opts.Queue(ctx, opts.Config)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if opts.JSON {
				return cmdutil.PrintJSON(opts.Out, map[string]int{key: n})
			}
			_, err = fmt.Fprintf(opts.Out, text+"\n", n)
			return err
		})
	}
}
