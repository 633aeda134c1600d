package users

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// CreateOptions are what `photoctl users create` was asked for: the
// account to create.
type CreateOptions struct {
	cmdutil.ClientOptions

	Request api.AdminUserCreate
	// ReadPassword reads the password of --password-stdin; nil without
	// it (the server generates one).
	ReadPassword func() (string, error)
}

// NewCmdCreate returns `photoctl users create`; runF, when not nil, gets
// the parsed options instead of runCreate (tests).
var NewCmdCreate = cmdutil.Constructor(cmdutil.Command[CreateOptions]{
	Name:  "create",
	Usage: "Create an account with its first library",
	Description: `Creates an account. Without --password-stdin the server generates a
password, printed once on standard output (with --json, in "password").

Example:
   photoctl users create --email ada@example.com --first-name Ada --quota 50GB
   printf '%s\n' "$PASSWORD" | photoctl users create --email bob@example.com --password-stdin --superuser`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "email", Usage: "sign-in `EMAIL` (required)"},
		&cli.BoolFlag{Name: "password-stdin", Usage: "read the password from standard input (prompted on a terminal)"},
		&cli.StringFlag{Name: "first-name", Usage: "first `NAME`"},
		&cli.StringFlag{Name: "last-name", Usage: "last `NAME`"},
		&cli.StringFlag{Name: "quota", Usage: "storage allowance `SIZE` (bytes, or 500MB, 50GB, 1TB; default unlimited)"},
		&cli.BoolFlag{Name: "superuser", Usage: "let the account administer the server"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *CreateOptions) error {
		opts.Request = api.AdminUserCreate{Email: strings.TrimSpace(c.String("email")), FirstName: c.String("first-name"),
			LastName: c.String("last-name"), IsSuperuser: c.Bool("superuser")}
		if opts.Request.Email == "" {
			return cmdutil.UsageErrorf(c, "--email is required")
		}
		quota, err := quotaFlag(c)
		opts.Request.QuotaBytes, opts.ReadPassword = quota.Value, passwordReader(c)
		return err
	},
	Run: runCreate,
})

func runCreate(ctx context.Context, conn *cmdutil.APIConn, opts *CreateOptions) error {
	req := opts.Request
	if opts.ReadPassword != nil {
		p, err := opts.ReadPassword()
		if err != nil {
			return err
		}
		req.Password = &p
	}
	u, err := conn.CreateUser(ctx, req)
	if err != nil {
		return err
	}
	return printPassword(opts.IO, opts.JSON, u, fmt.Sprintf("Created user %s (%s).\n", u.ID, u.Email),
		"Generated password (shown once; pass it on now):\n", u.Password)
}
