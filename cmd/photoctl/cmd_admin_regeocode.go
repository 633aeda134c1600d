//go:build !client

package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/server/app"
)

// regeocodeJSON is the --json output of `photoctl admin regeocode`.
type regeocodeJSON struct {
	Libraries int `json:"libraries"`
}

// newRegeocodeCommand returns `photoctl admin regeocode`.
func newRegeocodeCommand() *cli.Command {
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
		Flags: []cli.Flag{dataDirFlag(), jsonFlag()},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			n, err := app.Regeocode(c.Context, cfg)
			if err != nil {
				return fmt.Errorf("regeocode: %w", err)
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, regeocodeJSON{Libraries: n})
			}
			_, err = fmt.Fprintf(c.App.Writer, "queued regeocode for %d libraries\n", n)
			return err
		},
	}
}
