package users

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// UpdateOptions are what `photoctl users update` and `users disable` were
// asked for: the account and the change, and the word the done line
// starts with.
type UpdateOptions struct {
	cmdutil.ClientOptions

	ID     string
	Change api.AdminUserUpdate
	Done   string
}

// NewCmdUpdate returns `photoctl users update`; runF, when not nil, gets
// the parsed options instead of runUpdate (tests).
var NewCmdUpdate = cmdutil.Constructor(cmdutil.Command[UpdateOptions]{
	Name:      "update",
	Usage:     "Change an account's names, state, role or quota",
	ArgsUsage: "ID",
	Description: `Changes only what the flags name. The last active superuser cannot be
demoted or disabled.

Example:
   photoctl users update --quota 100GB --superuser intuser_01hx...
   photoctl users update --active --quota unlimited intuser_01hx...`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "first-name", Usage: "first `NAME`"},
		&cli.StringFlag{Name: "last-name", Usage: "last `NAME`"},
		&cli.BoolFlag{Name: "active", Usage: "enable (--active) or disable (--active=false) the account"},
		&cli.BoolFlag{Name: "superuser", Usage: "promote (--superuser) or demote (--superuser=false)"},
		&cli.StringFlag{Name: "quota", Usage: "storage allowance `SIZE` (500MB, 50GB) or unlimited"},
	},
	JSON: true,
	Args: cmdutil.ExactlyOne(wantUserID),
	Parse: func(c *cli.Context, args []string, opts *UpdateOptions) (err error) {
		opts.ID, opts.Done = args[0], "Updated"
		opts.Change = api.AdminUserUpdate{FirstName: changed(c, "first-name", c.String), LastName: changed(c, "last-name", c.String),
			IsActive: changed(c, "active", c.Bool), IsSuperuser: changed(c, "superuser", c.Bool)}
		opts.Change.QuotaBytes, err = quotaFlag(c)
		return err
	},
	Run: runUpdate,
})

// NewCmdDisable returns `photoctl users disable`, an update that sets the
// account inactive; runF, when not nil, gets the parsed options instead of
// runUpdate (tests).
var NewCmdDisable = cmdutil.Constructor(cmdutil.Command[UpdateOptions]{
	Name:      "disable",
	Usage:     "Disable an account: it can no longer sign in or use its keys and tokens",
	ArgsUsage: "ID",
	Description: `Disables an account at once; 'users update --active ID' enables it again.

Example:
   photoctl users disable intuser_01hx...`,
	JSON: true,
	Args: cmdutil.ExactlyOne(wantUserID),
	Parse: func(_ *cli.Context, args []string, opts *UpdateOptions) error {
		opts.ID, opts.Change, opts.Done = args[0], api.AdminUserUpdate{IsActive: ptrTo(false)}, "Disabled"
		return nil
	},
	Run: runUpdate,
})

func runUpdate(ctx context.Context, conn *cmdutil.APIConn, opts *UpdateOptions) error {
	out, err := conn.UpdateUser(ctx, opts.ID, opts.Change)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, out)
	}
	_, err = fmt.Fprintf(opts.IO.Out, "%s user %s (%s): active %t, superuser %t, quota %s.\n", opts.Done, out.ID, out.Email,
		out.IsActive, out.IsSuperuser, quotaText(out.QuotaBytes))
	return err
}

// changed is the value of flag when the command line sets it, else nil:
// an update changes only what the flags name.
func changed[T any](c *cli.Context, flag string, value func(name string) T) *T {
	if !c.IsSet(flag) {
		return nil
	}
	return ptrTo(value(flag))
}

func ptrTo[T any](v T) *T { return &v }
