// Package users holds the client commands about accounts and what they
// may store: `photoctl users` (account administration through the server,
// for a superuser) and `photoctl storage` (your own use and allowance).
// Each command is an Options struct, a NewCmdX(f, runF) that parses the
// command line into it, and a runX that does the work.
package users

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdUsers returns `photoctl users`, account administration through
// the server (superuser). `photoctl admin create-user` opens the store
// directly instead, to bootstrap the first superuser.
func NewCmdUsers(f *cmdutil.Factory) *cli.Command {
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
		Subcommands: []*cli.Command{NewCmdList(f, nil), NewCmdCreate(f, nil), NewCmdUpdate(f, nil),
			NewCmdDisable(f, nil), NewCmdDelete(f, nil), NewCmdResetPassword(f, nil)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// ListOptions are what `photoctl users list` was asked for.
type ListOptions struct {
	cmdutil.ClientOptions

	Email string
}

// NewCmdList returns `photoctl users list`; runF, when not nil, gets the
// parsed options instead of runList (tests).
var NewCmdList = cmdutil.Constructor(cmdutil.Command[ListOptions]{
	Name:  "list",
	Usage: "List every account, newest first",
	Description: `Lists the server's accounts with their state, role and storage quota.

Example:
   photoctl users list
   photoctl users list --email ada --json`,
	Flags: []cli.Flag{&cli.StringFlag{Name: "email", Usage: "only accounts whose e-mail contains `TEXT`"}},
	JSON:  true,
	Parse: func(c *cli.Context, _ []string, opts *ListOptions) error {
		opts.Email = c.String("email")
		return nil
	},
	Run: runList,
})

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	return cmdutil.PrintAll(opts.IO, opts.JSON, conn.AdminUsers(ctx, opts.Email),
		[]string{"ID", "EMAIL", "NAME", "ACTIVE", "ROLE", "QUOTA", "CREATED"},
		func(u api.AdminUser) []string {
			role := "user"
			if u.IsSuperuser {
				role = "superuser"
			}
			return []string{u.ID, u.Email, cmdutil.OrDash(strings.TrimSpace(u.FirstName + " " + u.LastName)),
				strconv.FormatBool(u.IsActive), role, quotaText(u.QuotaBytes), u.CreatedAt.Local().Format(time.DateOnly)}
		})
}

// quotaText shows an allowance for people.
func quotaText(q *int64) string {
	if q == nil {
		return "unlimited"
	}
	return cmdutil.HumanBytes(*q)
}

// quotaFlag reads --quota when it is given: "unlimited" (nil), a byte
// count, or a size with a decimal unit (kB, MB, GB, TB; the B optional).
func quotaFlag(c *cli.Context) (api.Optional[int64], error) {
	if !c.IsSet("quota") {
		return api.Optional[int64]{}, nil
	}
	s := strings.ToUpper(strings.TrimSpace(c.String("quota")))
	if s == "UNLIMITED" || s == "NONE" {
		return api.Optional[int64]{Set: true}, nil
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
		return api.Optional[int64]{}, cmdutil.UsageErrorf(c, "--quota %q: want a size such as 500MB, 50GB or unlimited", c.String("quota"))
	}
	n := int64(f * float64(mult))
	return api.Optional[int64]{Set: true, Value: &n}, nil
}

// wantUserID is the usage error of the commands that change one account
// when they are not given exactly one argument, its id.
const wantUserID = "want exactly one argument, the user id"

// passwordReader is the password of --password-stdin, read when the run
// needs it (after connecting, as before the move); nil without the flag.
func passwordReader(c *cli.Context) func() (string, error) {
	if !c.Bool("password-stdin") {
		return nil
	}
	return func() (string, error) { return cmdutil.ReadPasswordLine(c) }
}

// printPassword reports an account whose password was just set: v with
// --json, else notice on the error stream and, when password is one that
// nobody knows yet (generated), label there and the password on the
// output, once.
func printPassword(io *cmdutil.Streams, asJSON bool, v any, notice, label string, password *string) error {
	if password == nil {
		return cmdutil.PrintSecret(io, asJSON, v, notice, "")
	}
	return cmdutil.PrintSecret(io, asJSON, v, notice+label, *password+"\n")
}
