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
