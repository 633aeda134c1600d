package main

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

func newUsersUpdateCommand() *cli.Command {
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
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the user id", func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
			var u api.AdminUserUpdate
			if c.IsSet("first-name") {
				u.FirstName = ptrTo(c.String("first-name"))
			}
			if c.IsSet("last-name") {
				u.LastName = ptrTo(c.String("last-name"))
			}
			if c.IsSet("active") {
				u.IsActive = ptrTo(c.Bool("active"))
			}
			if c.IsSet("superuser") {
				u.IsSuperuser = ptrTo(c.Bool("superuser"))
			}
			if c.IsSet("quota") {
				q, err := parseQuota(c, c.String("quota"))
				if err != nil {
					return err
				}
				u.QuotaBytes = api.Optional[int64]{Set: true, Value: q}
			}
			return updateUser(c, conn, args[0], u, "Updated")
		}),
	}
}

func newUsersDisableCommand() *cli.Command {
	return &cli.Command{
		Name:      "disable",
		Usage:     "Disable an account: it can no longer sign in or use its keys and tokens",
		ArgsUsage: "ID",
		Description: `Disables an account at once; 'users update --active ID' enables it again.

Example:
   photoctl users disable intuser_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the user id", func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
			return updateUser(c, conn, args[0], api.AdminUserUpdate{IsActive: ptrTo(false)}, "Disabled")
		}),
	}
}

func newUsersResetPasswordCommand() *cli.Command {
	return &cli.Command{
		Name:      "reset-password",
		Usage:     "Set a new password for an account and end all its sessions",
		ArgsUsage: "ID",
		Description: `Sets the password from --password-stdin, or a generated one printed once on
standard output. Every session of the account ends.

Example:
   photoctl users reset-password intuser_01hx...
   printf '%s\n' "$PASSWORD" | photoctl users reset-password --password-stdin intuser_01hx...`,
		Flags: append(cmdutil.ClientFlags(),
			&cli.BoolFlag{Name: "password-stdin", Usage: "read the password from standard input (prompted on a terminal)"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the user id", func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
			var password string
			if c.Bool("password-stdin") {
				p, err := cmdutil.ReadPasswordLine(c)
				if err != nil {
					return err
				}
				password = p
			} else {
				b := make([]byte, 18)
				if _, err := rand.Read(b); err != nil {
					return err
				}
				password = base64.RawURLEncoding.EncodeToString(b)
			}
			u, err := conn.UpdateUser(c.Context, args[0], api.AdminUserUpdate{Password: &password})
			if err != nil {
				return err
			}
			io := cmdutil.NewStreams(c)
			generated := !c.Bool("password-stdin")
			if c.Bool("json") {
				out := map[string]any{"id": u.ID, "email": u.Email, "password": nil}
				if generated {
					out["password"] = password
				}
				return cmdutil.PrintJSON(io.Out, out)
			}
			fmt.Fprintf(io.Err, "Reset the password of %s (%s); its sessions have ended.\n", u.ID, u.Email)
			if generated {
				fmt.Fprintln(io.Err, "New password (shown once):")
				_, err = fmt.Fprintln(io.Out, password)
			}
			return err
		}),
	}
}

func newUsersDeleteCommand() *cli.Command {
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
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the user id", func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
			io := cmdutil.NewStreams(c)
			if !c.Bool("yes") {
				ok, err := cmdutil.Confirm(c.App.Reader, io, fmt.Sprintf("Delete user %s with their libraries and files? This cannot be undone. [y/N] ", args[0]))
				if err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("not confirmed; nothing deleted")
				}
			}
			if err := conn.DeleteUser(c.Context, args[0]); err != nil {
				return err
			}
			return cmdutil.PrintDone(io, c.Bool("json"), map[string]string{"deleted": args[0]}, "Deleted user %s.", args[0])
		}),
	}
}

func updateUser(c *cli.Context, conn *cmdutil.APIConn, id string, u api.AdminUserUpdate, done string) error {
	out, err := conn.UpdateUser(c.Context, id, u)
	if err != nil {
		return err
	}
	io := cmdutil.NewStreams(c)
	if c.Bool("json") {
		return cmdutil.PrintJSON(io.Out, out)
	}
	_, err = fmt.Fprintf(io.Out, "%s user %s (%s): active %t, superuser %t, quota %s.\n", done, out.ID, out.Email,
		out.IsActive, out.IsSuperuser, quotaText(out.QuotaBytes))
	return err
}

func ptrTo[T any](v T) *T { return &v }
