package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/server/app"
)

// WorkerOptions is what `photoctl worker` needs once its flags are parsed.
type WorkerOptions struct {
	Config app.Config
	// ErrOut receives the worker's logs; it writes nothing to stdout.
	ErrOut io.Writer
	// Run is app.RunWorker in production.
	Run func(ctx context.Context, cfg app.Config, log *slog.Logger) error
}

// newWorkerCommand returns `photoctl worker`.
func newWorkerCommand(_ *factory) *cli.Command {
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
Logs go to stderr.

Example:
   PHOTOCTL_WORKERS_CONCURRENCY=0 photoctl serve --data-dir /srv/photoctl &
   photoctl worker --data-dir /srv/photoctl --concurrency 4`,
		Flags: workerFlags(),
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			return runWorker(c.Context, &WorkerOptions{Config: cfg, ErrOut: c.App.ErrWriter, Run: app.RunWorker})
		},
	}
}

// runWorker runs the worker until ctx ends or the process is told to stop.
func runWorker(ctx context.Context, opts *WorkerOptions) error {
	log := app.NewLogger(opts.Config.Log, opts.ErrOut)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := opts.Run(ctx, opts.Config, log); err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	return nil
}

// workerFlags are the config flags of `photoctl worker`.
func workerFlags() []cli.Flag {
	d := app.Defaults("")
	return []cli.Flag{
		dataDirFlag(),
		&cli.IntFlag{
			Name:        "concurrency",
			Usage:       "run `N` tasks at once; 0 means one per core (config: workers.concurrency)",
			DefaultText: "number of cores",
		},
		&cli.StringFlag{
			Name:        "log-level",
			Usage:       "log `LEVEL`: debug, info, warn or error (config: log.level)",
			DefaultText: d.Log.Level,
		},
		&cli.StringFlag{
			Name:        "log-format",
			Usage:       "log `FORMAT`: text or json (config: log.format)",
			DefaultText: d.Log.Format,
		},
	}
}
