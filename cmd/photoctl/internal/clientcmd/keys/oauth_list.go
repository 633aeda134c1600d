package keys

import (
	"context"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// OAuthListOptions are what `photoctl admin oauth-clients list` was asked
// for.
type OAuthListOptions struct {
	cmdutil.ClientOptions

	JSON bool
}

// NewCmdOAuthList returns `photoctl admin oauth-clients list`; runF, when
// not nil, gets the parsed options instead of runOAuthList (tests).
func NewCmdOAuthList(f *cmdutil.Factory, runF func(*OAuthListOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List OAuth clients (never their secrets)",
		Description: `Lists registered clients, newest first, revoked ones included.

Example:
   photoctl admin oauth-clients list --json`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			if err := cmdutil.NoArgs(c); err != nil {
				return err
			}
			opts := &OAuthListOptions{ClientOptions: f.ClientOptions(c), JSON: c.Bool("json")}
			return cmdutil.Run(c.Context, opts, runF, runOAuthList)
		},
	}
}

func runOAuthList(ctx context.Context, opts *OAuthListOptions) error {
	conn, err := opts.Conn()
	if err != nil {
		return err
	}
	list, err := client.Collect(conn.OAuthClients(ctx))
	if err != nil {
		return err
	}
	return cmdutil.PrintList(opts.IO, opts.JSON, list, []string{"ID", "NAME", "TYPE", "SCOPES", "REDIRECT URIS", "CREATED", "REVOKED"},
		func(o api.OAuthClient) []string {
			kind, revoked := "confidential", "-"
			if o.Public {
				kind = "public"
			}
			if o.RevokedAt != nil {
				revoked = o.RevokedAt.Local().Format("2006-01-02 15:04")
			}
			return []string{o.ID, o.Name, kind, strings.Join(o.Scopes, ","), strings.Join(o.RedirectURIs, " "),
				o.CreatedAt.Local().Format(time.DateOnly), revoked}
		})
}

// OAuthRevokeOptions are what `photoctl admin oauth-clients revoke` was
// asked for: the ids of the clients to revoke.
type OAuthRevokeOptions struct{ cmdutil.EachOptions }

// NewCmdOAuthRevoke returns `photoctl admin oauth-clients revoke`; runF,
// when not nil, gets the parsed options instead of runOAuthRevoke (tests).
func NewCmdOAuthRevoke(f *cmdutil.Factory, runF func(*OAuthRevokeOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "revoke",
		Usage:     "Revoke OAuth clients and every token issued to them",
		ArgsUsage: "ID...",
		Description: `Revokes clients at once: their access tokens get 401 from then on, and
they can no longer authorize or refresh.

Example:
   photoctl admin oauth-clients revoke oauthclient_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			each, err := cmdutil.ParseEach(f, c, "give at least one client id")
			if err != nil {
				return err
			}
			return cmdutil.Run(c.Context, &OAuthRevokeOptions{each}, runF, runOAuthRevoke)
		},
	}
}

func runOAuthRevoke(ctx context.Context, opts *OAuthRevokeOptions) error {
	return opts.Act("Revoked", "revoked", "client", func(conn *cmdutil.APIConn, id string) (string, error) {
		return id, conn.RevokeOAuthClient(ctx, id)
	})
}
