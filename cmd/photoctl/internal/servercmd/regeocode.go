//go:build !client

package servercmd

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

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
