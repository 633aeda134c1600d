package users

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// ResetPasswordOptions are what `photoctl users reset-password` was asked
// for.
type ResetPasswordOptions struct {
	cmdutil.ClientOptions

	ID string
	// ReadPassword reads the password of --password-stdin; nil without
	// it (a generated password is printed once).
	ReadPassword func() (string, error)
}

// NewCmdResetPassword returns `photoctl users reset-password`; runF, when
// not nil, gets the parsed options instead of runResetPassword (tests).
var NewCmdResetPassword = cmdutil.Constructor(cmdutil.Command[ResetPasswordOptions]{
	Name:      "reset-password",
	Usage:     "Set a new password for an account and end all its sessions",
	ArgsUsage: "ID",
	Description: `Sets the password from --password-stdin, or a generated one printed once on
standard output. Every session of the account ends.

Example:
   photoctl users reset-password intuser_01hx...
   printf '%s\n' "$PASSWORD" | photoctl users reset-password --password-stdin intuser_01hx...`,
	Flags: []cli.Flag{
		&cli.BoolFlag{Name: "password-stdin", Usage: "read the password from standard input (prompted on a terminal)"},
	},
	JSON: true,
	Args: cmdutil.ExactlyOne(wantUserID),
	Parse: func(c *cli.Context, args []string, opts *ResetPasswordOptions) error {
		opts.ID, opts.ReadPassword = args[0], passwordReader(c)
		return nil
	},
	Run: runResetPassword,
})

func runResetPassword(ctx context.Context, conn *cmdutil.APIConn, opts *ResetPasswordOptions) error {
	var password string
	var shown *string // printed once: only a generated password
	if opts.ReadPassword == nil {
		b := make([]byte, 18)
		if _, err := rand.Read(b); err != nil {
			return err
		}
		password = base64.RawURLEncoding.EncodeToString(b)
		shown = &password
	} else {
		p, err := opts.ReadPassword()
		if err != nil {
			return err
		}
		password = p
	}
	u, err := conn.UpdateUser(ctx, opts.ID, api.AdminUserUpdate{Password: &password})
	if err != nil {
		return err
	}
	return printPassword(opts.IO, opts.JSON, map[string]any{"id": u.ID, "email": u.Email, "password": shown},
		fmt.Sprintf("Reset the password of %s (%s); its sessions have ended.\n", u.ID, u.Email),
		"New password (shown once):\n", shown)
}
