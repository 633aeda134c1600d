package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// LogoutOptions are what `photoctl logout` was asked for. Its Conn
// connects without requiring a credential: a profile whose session is
// gone is still forgotten.
type LogoutOptions struct {
	cmdutil.ClientOptions

	// Help is the command whose --help a usage error names.
	Help string
}

// NewCmdLogout returns `photoctl logout`; runF, when not nil, gets the
// parsed options instead of runLogout (tests).
var NewCmdLogout = cmdutil.Constructor(cmdutil.Command[LogoutOptions]{
	Name:  "logout",
	Usage: "End the session and forget the profile's credential",
	Description: `Ends the current (or --profile) profile's session on the server and removes
its credential from the credentials file; the profile keeps its server, so
'photoctl login' signs in there again. A saved API key is only forgotten
here: revoke it with 'photoctl keys delete'.

Example:
   photoctl logout
   photoctl logout --profile home`,
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *LogoutOptions) error {
		opts.Help = c.Command.HelpName
		return nil
	},
	Run:    runLogout,
	NoAuth: true,
})

func runLogout(ctx context.Context, conn *cmdutil.APIConn, opts *LogoutOptions) error {
	if conn.Profile == "" {
		return &cmdutil.UsageError{Err: fmt.Errorf("no signed-in profile for %s", conn.Server()), Help: opts.Help}
	}
	store, err := cmdutil.NewCredentialsStore()
	if err != nil {
		return err
	}
	if conn.Credential == "session" {
		// A session that already ended (expired, revoked) is fine to forget.
		if err := conn.Logout(ctx); err != nil && !errors.Is(err, client.ErrUnauthenticated) {
			return fmt.Errorf("sign out of %s: %w", conn.Server(), err)
		}
	}
	err = store.Update(func(p *cmdutil.CredentialsFile) error {
		if prof := p.Profiles[conn.Profile]; prof != nil {
			prof.APIKey, prof.Session = "", nil
		}
		return nil
	})
	if err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, map[string]string{"profile": conn.Profile, "server": conn.Server()},
		"Signed out of %s (profile %q).", conn.Server(), conn.Profile)
}
