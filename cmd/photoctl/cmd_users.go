package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newUsersCommand returns `photoctl users`, account administration through
// the server (superuser). `photoctl admin create-user` opens the store
// directly instead, to bootstrap the first superuser.
func newUsersCommand() *cli.Command {
	return &cli.Command{
		Name:  "users",
		Usage: "Administer accounts on the server (superuser)",
		Description: `Lists, creates, changes, disables and deletes accounts through the server.
It needs a superuser: a signed-in session, or an API key with user.read
(list) and user.update (changes). To make the first superuser, use
'photoctl admin create-user' on the server machine.

Example:
   photoctl users list --email @example.com
   photoctl users create --email ada@example.com --first-name Ada --quota 50GB
   photoctl users disable intuser_01hx...`,
		Subcommands: []*cli.Command{newUsersListCommand(), newUsersCreateCommand(), newUsersUpdateCommand(),
			newUsersDisableCommand(), newUsersDeleteCommand(), newUsersResetPasswordCommand()},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newUsersListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List every account, newest first",
		Description: `Lists the server's accounts with their state, role and storage quota.

Example:
   photoctl users list
   photoctl users list --email ada --json`,
		Flags: append(cmdutil.ClientFlags(), &cli.StringFlag{Name: "email", Usage: "only accounts whose e-mail contains `TEXT`"}, cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			list, err := client.Collect(conn.AdminUsers(c.Context, c.String("email")))
			if err != nil {
				return err
			}
			return cmdutil.PrintList(cmdutil.NewStreams(c), c.Bool("json"), list, []string{"ID", "EMAIL", "NAME", "ACTIVE", "ROLE", "QUOTA", "CREATED"},
				func(u api.AdminUser) []string {
					role := "user"
					if u.IsSuperuser {
						role = "superuser"
					}
					return []string{u.ID, u.Email, cmdutil.OrDash(strings.TrimSpace(u.FirstName + " " + u.LastName)),
						strconv.FormatBool(u.IsActive), role, quotaText(u.QuotaBytes), u.CreatedAt.Local().Format(time.DateOnly)}
				})
		}),
	}
}

func newUsersCreateCommand() *cli.Command {
	return &cli.Command{
		Name:  "create",
		Usage: "Create an account with its first library",
		Description: `Creates an account. Without --password-stdin the server generates a
password, printed once on standard output (with --json, in "password").

Example:
   photoctl users create --email ada@example.com --first-name Ada --quota 50GB
   printf '%s\n' "$PASSWORD" | photoctl users create --email bob@example.com --password-stdin --superuser`,
		Flags: append(cmdutil.ClientFlags(),
			&cli.StringFlag{Name: "email", Usage: "sign-in `EMAIL` (required)"},
			&cli.BoolFlag{Name: "password-stdin", Usage: "read the password from standard input (prompted on a terminal)"},
			&cli.StringFlag{Name: "first-name", Usage: "first `NAME`"},
			&cli.StringFlag{Name: "last-name", Usage: "last `NAME`"},
			&cli.StringFlag{Name: "quota", Usage: "storage allowance `SIZE` (bytes, or 500MB, 50GB, 1TB; default unlimited)"},
			&cli.BoolFlag{Name: "superuser", Usage: "let the account administer the server"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			req := api.AdminUserCreate{Email: strings.TrimSpace(c.String("email")), FirstName: c.String("first-name"),
				LastName: c.String("last-name"), IsSuperuser: c.Bool("superuser")}
			if req.Email == "" {
				return cmdutil.UsageErrorf(c, "--email is required")
			}
			if c.IsSet("quota") {
				q, err := parseQuota(c, c.String("quota"))
				if err != nil {
					return err
				}
				req.QuotaBytes = q
			}
			if c.Bool("password-stdin") {
				p, err := cmdutil.ReadPasswordLine(c)
				if err != nil {
					return err
				}
				req.Password = &p
			}
			u, err := conn.CreateUser(c.Context, req)
			if err != nil {
				return err
			}
			io := cmdutil.NewStreams(c)
			if c.Bool("json") {
				return cmdutil.PrintJSON(io.Out, u)
			}
			fmt.Fprintf(io.Err, "Created user %s (%s).\n", u.ID, u.Email)
			if u.Password != nil {
				fmt.Fprintln(io.Err, "Generated password (shown once; pass it on now):")
				_, err = fmt.Fprintln(io.Out, *u.Password)
			}
			return err
		}),
	}
}

// quotaText shows an allowance for people.
func quotaText(q *int64) string {
	if q == nil {
		return "unlimited"
	}
	return cmdutil.HumanBytes(*q)
}

// parseQuota reads a --quota: "unlimited" (nil), a byte count, or a size
// with a decimal unit (kB, MB, GB, TB; the B optional).
func parseQuota(c *cli.Context, s string) (*int64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "UNLIMITED" || s == "NONE" {
		return nil, nil
	}
	mult := int64(1)
	for i, unit := range []string{"K", "M", "G", "T"} {
		if t := strings.TrimSuffix(strings.TrimSuffix(s, "B"), unit); t != strings.TrimSuffix(s, "B") {
			s, mult = t, int64(1)
			for range i + 1 {
				mult *= 1000
			}
			break
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "B")), 64)
	if err != nil || f < 0 {
		return nil, cmdutil.UsageErrorf(c, "--quota %q: want a size such as 500MB, 50GB or unlimited", c.String("quota"))
	}
	n := int64(f * float64(mult))
	return &n, nil
}
