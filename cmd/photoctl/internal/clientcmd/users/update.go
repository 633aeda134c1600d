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
	JSON   bool
}

// NewCmdUpdate returns `photoctl users update`; runF, when not nil, gets
// the parsed options instead of runUpdate (tests).
func NewCmdUpdate(f *cmdutil.Factory, runF func(*UpdateOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "update",
		Usage:     "Change an account's names, state, role or quota",
		ArgsUsage: "ID",
		Description: `Changes only what the flags name. The last active superuser cannot be
demoted or disabled.

Example:
   photoctl users update --quota 100GB --superuser intuser_01hx...
   photoctl users update --active --quota unlimited intuser_01hx...`,
		Flags: append(cmdutil.ClientFlags(),
			&cli.StringFlag{Name: "first-name", Usage: "first `NAME`"},
			&cli.StringFlag{Name: "last-name", Usage: "last `NAME`"},
			&cli.BoolFlag{Name: "active", Usage: "enable (--active) or disable (--active=false) the account"},
			&cli.BoolFlag{Name: "superuser", Usage: "promote (--superuser) or demote (--superuser=false)"},
			&cli.StringFlag{Name: "quota", Usage: "storage allowance `SIZE` (500MB, 50GB) or unlimited"},
			cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			args, err := cmdutil.NeedArgs(c, 1, 1, wantUserID)
			if err != nil {
				return err
			}
			u := api.AdminUserUpdate{FirstName: changed(c, "first-name", c.String), LastName: changed(c, "last-name", c.String),
				IsActive: changed(c, "active", c.Bool), IsSuperuser: changed(c, "superuser", c.Bool)}
			if u.QuotaBytes, err = quotaFlag(c); err != nil {
				return err
			}
			opts := &UpdateOptions{ClientOptions: f.ClientOptions(c), ID: args[0], Change: u, Done: "Updated", JSON: c.Bool("json")}
			return cmdutil.Run(c.Context, opts, runF, runUpdate)
		},
	}
}

// NewCmdDisable returns `photoctl users disable`, an update that sets the
// account inactive; runF, when not nil, gets the parsed options instead of
// runUpdate (tests).
func NewCmdDisable(f *cmdutil.Factory, runF func(*UpdateOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "disable",
		Usage:     "Disable an account: it can no longer sign in or use its keys and tokens",
		ArgsUsage: "ID",
		Description: `Disables an account at once; 'users update --active ID' enables it again.

Example:
   photoctl users disable intuser_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.OneArgAction(wantUserID, func(c *cli.Context, id string) *UpdateOptions {
			return &UpdateOptions{ClientOptions: f.ClientOptions(c), ID: id,
				Change: api.AdminUserUpdate{IsActive: ptrTo(false)}, Done: "Disabled", JSON: c.Bool("json")}
		}, runF, runUpdate),
	}
}

func runUpdate(ctx context.Context, opts *UpdateOptions) error {
	conn, err := opts.Conn()
	if err != nil {
		return err
	}
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
