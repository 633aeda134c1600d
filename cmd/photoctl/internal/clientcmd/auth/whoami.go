package auth

import (
	"context"
	"strings"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// WhoamiOptions are what `photoctl whoami` was asked for.
type WhoamiOptions struct{ cmdutil.ClientOptions }

// NewCmdWhoami returns `photoctl whoami`; runF, when not nil, gets the
// parsed options instead of runWhoami (tests).
var NewCmdWhoami = cmdutil.Constructor(cmdutil.Command[WhoamiOptions]{
	Name:  "whoami",
	Usage: "Show who the credential in use belongs to",
	Description: `Asks the server who the credential belongs to, and prints the user with the
server, profile and kind of credential in use.

Example:
   photoctl whoami
   PHOTOCTL_SERVER=http://127.0.0.1:2283 PHOTOCTL_API_KEY=apikey_... photoctl whoami --json`,
	JSON: true,
	Run:  runWhoami,
})

func runWhoami(ctx context.Context, conn *cmdutil.APIConn, opts *WhoamiOptions) error {
	u, err := conn.Me(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, LoginJSON{Profile: conn.Profile, Server: conn.Server(), Credential: conn.Credential, User: u})
	}
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	rows := [][]string{{"user", u.Email}, {"name", cmdutil.OrDash(name)}, {"id", u.ID},
		{"server", conn.Server()}, {"profile", cmdutil.OrDash(conn.Profile)}, {"credential", conn.Credential}}
	if u.IsSuperuser {
		rows = append(rows, []string{"role", "superuser"})
	}
	return cmdutil.PrintFields(opts.IO, rows)
}
