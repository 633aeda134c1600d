//go:build !client

package servercmd

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

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
