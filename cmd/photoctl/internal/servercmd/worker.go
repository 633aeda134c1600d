//go:build !client

package servercmd

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/server/app"
)

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
	d := app.Defaults("")
	return []cli.Flag{
		dataDirFlag(),
		databaseURLFlag(),
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
