//go:build !client

package servercmd

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

// ServeOptions is what `photoctl serve` and `photoctl worker` need once
// their flags are parsed.
type ServeOptions struct {
	Config app.Config
	// ErrOut receives the server's logs; serve writes nothing to stdout.
	ErrOut io.Writer
	Run    func(ctx context.Context, cfg app.Config, log *slog.Logger) error
}

// NewCmdServe returns `photoctl serve`.
func NewCmdServe(f *Factory, runF func(*ServeOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "Run the photo library server",
		Description: `Runs the server in the foreground until SIGINT or SIGTERM, then lets
in-flight requests finish for at most shutdown_timeout. Logs go to stderr.
Flags override the config file and PHOTOCTL_* environment variables.

Example:
   photoctl serve --listen 0.0.0.0:2283 --data-dir /srv/photoctl --log-format json`,
		Flags:  serveFlags(),
		Action: foregroundAction(f, f.RunServer, runF, runServe),
	}
}

// foregroundAction is the Action of serve and worker: no arguments, the
// effective config, then runF or runX with run as the long-lived function.
func foregroundAction(f *Factory, run func(context.Context, app.Config, *slog.Logger) error,
	runF func(*ServeOptions) error, runX func(context.Context, *ServeOptions) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		cfg, err := noArgsConfig(c)
		if err != nil {
			return err
		}
		opts := &ServeOptions{Config: cfg, ErrOut: f.Streams(c).Err, Run: run}
		return cmdutil.Run(c.Context, opts, runF, runX)
	}
}

// runServe runs the server in the foreground.
func runServe(ctx context.Context, opts *ServeOptions) error {
	return runForeground(ctx, "serve", opts)
}

// runForeground runs a long-lived command (serve, worker) until ctx ends or
// the process is told to stop; name prefixes its error.
func runForeground(ctx context.Context, name string, opts *ServeOptions) error {
	log := app.NewLogger(opts.Config.Log, opts.ErrOut)
	app.ApplyRuntime(opts.Config.Runtime)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := opts.Run(ctx, opts.Config, log); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// serveFlags are the config flags of `photoctl serve`. Their help shows the
// built-in defaults; an unset flag overrides nothing.
func serveFlags() []cli.Flag {
	d := app.Defaults("")
	flags := []cli.Flag{
		&cli.StringFlag{
			Name:        "listen",
			Usage:       "listen on `HOST:PORT` (config: listen)",
			DefaultText: d.Listen,
		},
		dataDirFlag(),
		databaseURLFlag(),
	}
	return append(append(flags, logFlags()...),
		&cli.Int64Flag{
			Name:        "max-upload-bytes",
			Usage:       "reject uploads larger than `BYTES` (config: upload.max_bytes)",
			DefaultText: fmt.Sprint(d.Upload.MaxBytes),
		},
		&cli.StringFlag{
			Name: "immich-listen",
			Usage: "also serve the Immich-compatible API (always under /immich) at the root of `HOST:PORT` " +
				"(config: immich.listen)",
			DefaultText: "off",
		})
}

// NewCmdWorker returns `photoctl worker`.
func NewCmdWorker(f *Factory, runF func(*ServeOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "worker",
		Usage: "Run background tasks (metadata, variants, ...) on a library's data directory",
		Description: `Runs queued background tasks in the foreground until SIGINT or SIGTERM, on
the same data directory as 'photoctl serve', beside it or while it is
stopped. Tasks it was running when told to stop go back to the queue.
Several workers may share one data directory; tasks a killed worker left
running are taken up again once their lease (one minute) expires.

--concurrency (config: workers.concurrency) sets how many tasks run at once;
0, which keeps serve from running tasks itself, means one per core here.
With --database-url (config: database.url) set to a PostgreSQL database,
workers on other hosts share the queue too, given the same data directory
(a shared folder). Logs go to stderr.

Example:
   PHOTOCTL_WORKERS_CONCURRENCY=0 photoctl serve --data-dir /srv/photoctl &
   photoctl worker --data-dir /srv/photoctl --concurrency 4
   photoctl worker --data-dir /mnt/photos --database-url postgres://photoctl@db/photoctl`,
		Flags:  workerFlags(),
		Action: foregroundAction(f, app.RunWorker, runF, runWorker),
	}
}

// runWorker runs queued tasks in the foreground.
func runWorker(ctx context.Context, opts *ServeOptions) error {
	return runForeground(ctx, "worker", opts)
}

// workerFlags are the config flags of `photoctl worker`.
func workerFlags() []cli.Flag {
	return append([]cli.Flag{
		dataDirFlag(),
		databaseURLFlag(),
		&cli.IntFlag{
			Name:        "concurrency",
			Usage:       "run `N` tasks at once; 0 means one per core (config: workers.concurrency)",
			DefaultText: "number of cores",
		},
	}, logFlags()...)
}
