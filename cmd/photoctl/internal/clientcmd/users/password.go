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
	JSON         bool
}

// NewCmdResetPassword returns `photoctl users reset-password`; runF, when
// not nil, gets the parsed options instead of runResetPassword (tests).
func NewCmdResetPassword(f *cmdutil.Factory, runF func(*ResetPasswordOptions) error) *cli.Command {
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
		Action: cmdutil.OneArgAction(wantUserID, func(c *cli.Context, id string) *ResetPasswordOptions {
			return &ResetPasswordOptions{ClientOptions: f.ClientOptions(c), ID: id, ReadPassword: passwordReader(c),
				JSON: c.Bool("json")}
		}, runF, runResetPassword),
	}
}

func runResetPassword(ctx context.Context, opts *ResetPasswordOptions) error {
	conn, err := opts.Conn()
	if err != nil {
		return err
	}
	var password string
	generated := opts.ReadPassword == nil
	if generated {
		b := make([]byte, 18)
		if _, err := rand.Read(b); err != nil {
			return err
		}
		password = base64.RawURLEncoding.EncodeToString(b)
	} else if password, err = opts.ReadPassword(); err != nil {
		return err
	}
	u, err := conn.UpdateUser(ctx, opts.ID, api.AdminUserUpdate{Password: &password})
	if err != nil {
		return err
	}
	if opts.JSON {
		out := map[string]any{"id": u.ID, "email": u.Email, "password": nil}
		if generated {
			out["password"] = password
		}
		return cmdutil.PrintJSON(opts.IO.Out, out)
	}
	fmt.Fprintf(opts.IO.Err, "Reset the password of %s (%s); its sessions have ended.\n", u.ID, u.Email)
	if generated {
		fmt.Fprintln(opts.IO.Err, "New password (shown once):")
		_, err = fmt.Fprintln(opts.IO.Out, password)
	}
	return err
}
