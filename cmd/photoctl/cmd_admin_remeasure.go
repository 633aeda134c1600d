//go:build !client

package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/server/app"
)

// newRemeasureCommand returns `photoctl admin remeasure`.
func newRemeasureCommand() *cli.Command {
	return &cli.Command{
		Name:  "remeasure",
		Usage: "Queue a metrics task for each asset measured before image search hashed crops",
		Description: `Image search finds crops of a photo through the perceptual hashes of its
crops, which the metrics step stores since migration 0019. Assets measured
before have none: this queues a metrics task for each of them (the task
measures the stored preview again) and prints how many. The server's
workers run the tasks; a task already queued is not doubled.

Example:
   photoctl admin remeasure --data-dir /var/lib/photoctl`,
		Flags: []cli.Flag{dataDirFlag()},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			n, err := app.RemeasureCrops(c.Context, cfg)
			if err != nil {
				return fmt.Errorf("remeasure: %w", err)
			}
			_, err = fmt.Fprintf(c.App.Writer, "queued %d metrics tasks\n", n)
			return err
		},
	}
}
