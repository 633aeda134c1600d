package keys

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// DeleteOptions are what `photoctl keys delete` was asked for: the ids of
// the keys to revoke.
type DeleteOptions struct{ cmdutil.EachOptions }

// NewCmdDelete returns `photoctl keys delete`; runF, when not nil, gets the
// parsed options instead of runDelete (tests).
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "Revoke API keys",
		ArgsUsage: "ID...",
		Description: `Revokes keys at once: programs using them get 401 from then on.

Example:
   photoctl keys delete key_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			each, err := cmdutil.ParseEach(f, c, "give at least one key id")
			if err != nil {
				return err
			}
			return cmdutil.Run(c.Context, &DeleteOptions{each}, runF, runDelete)
		},
	}
}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	return opts.Act("Revoked", "deleted", "key", func(conn *cmdutil.APIConn, id string) (string, error) {
		return id, conn.DeleteAPIKey(ctx, id)
	})
}
