package users

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// DeleteOptions are what `photoctl users delete` was asked for.
type DeleteOptions struct {
	cmdutil.ClientOptions

	ID string
	// Yes skips the question on the terminal.
	Yes bool
}

// NewCmdDelete returns `photoctl users delete`; runF, when not nil, gets
// the parsed options instead of runDelete (tests).
var NewCmdDelete = cmdutil.Constructor(cmdutil.Command[DeleteOptions]{
	Name:      "delete",
	Usage:     "Delete an account with its libraries, assets and files",
	ArgsUsage: "ID",
	Description: `Deletes the account and every library it owns, with their assets and files.
What it uploaded to other people's libraries stays there. The server
refuses (409) while the account owns a library with other members, and
for the last active superuser. It asks first unless --yes is given.

Example:
   photoctl users delete --yes intuser_01hx...`,
	Flags: []cli.Flag{&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation"}},
	JSON:  true,
	Args:  cmdutil.ExactlyOne(wantUserID),
	Parse: func(c *cli.Context, args []string, opts *DeleteOptions) error {
		opts.ID, opts.Yes = args[0], c.Bool("yes")
		return nil
	},
	Run: runDelete,
})

func runDelete(ctx context.Context, conn *cmdutil.APIConn, opts *DeleteOptions) error {
	if !opts.Yes {
		ok, err := cmdutil.Confirm(opts.IO.In, opts.IO, fmt.Sprintf("Delete user %s with their libraries and files? This cannot be undone. [y/N] ", opts.ID))
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("not confirmed; nothing deleted")
		}
	}
	if err := conn.DeleteUser(ctx, opts.ID); err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, map[string]string{"deleted": opts.ID}, "Deleted user %s.", opts.ID)
}
