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
	Yes  bool
	JSON bool
}

// NewCmdDelete returns `photoctl users delete`; runF, when not nil, gets
// the parsed options instead of runDelete (tests).
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "Delete an account with its libraries, assets and files",
		ArgsUsage: "ID",
		Description: `Deletes the account and every library it owns, with their assets and files.
What it uploaded to other people's libraries stays there. The server
refuses (409) while the account owns a library with other members, and
for the last active superuser. It asks first unless --yes is given.

Example:
   photoctl users delete --yes intuser_01hx...`,
		Flags: append(cmdutil.ClientFlags(), &cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation"}, cmdutil.JSONFlag()),
		Action: cmdutil.OneArgAction(wantUserID, func(c *cli.Context, id string) *DeleteOptions {
			return &DeleteOptions{ClientOptions: f.ClientOptions(c), ID: id, Yes: c.Bool("yes"), JSON: c.Bool("json")}
		}, runF, runDelete),
	}
}

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	conn, err := opts.Conn()
	if err != nil {
		return err
	}
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
