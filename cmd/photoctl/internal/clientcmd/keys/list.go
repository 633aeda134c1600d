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

// ListOptions are what `photoctl keys list` was asked for.
type ListOptions struct {
	cmdutil.ClientOptions

	Name string
	// Library is an id or a name, looked up once connected; "" for all.
	Library        string
	OrderBy, Order string
}

// NewCmdList returns `photoctl keys list`; runF, when not nil, gets the
// parsed options instead of runList (tests).
var NewCmdList = cmdutil.Constructor(cmdutil.Command[ListOptions]{
	Name:  "list",
	Usage: "List your API keys (never their secrets)",
	Description: `Lists your keys, newest first, with their scope and last use.

Example:
   photoctl keys list --order-by last_used_at --order asc
   photoctl keys list --name backup --json`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "name", Usage: "only keys whose name contains `TEXT`"},
		&cli.StringFlag{Name: "library", Usage: "only keys that reach library `ID or NAME`"},
		&cli.StringFlag{Name: "order-by", Usage: "`FIELD`: created_at (default), last_used_at or name"},
		&cli.StringFlag{Name: "order", Usage: "`desc` (default) or asc"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *ListOptions) error {
		opts.Name, opts.Library = c.String("name"), c.String("library")
		opts.OrderBy, opts.Order = c.String("order-by"), c.String("order")
		return nil
	},
	Run: runList,
})

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	lib, err := cmdutil.LookupLibrary(ctx, conn, opts.Library, "")
	if err != nil {
		return err
	}
	q := client.APIKeyQuery{Name: opts.Name, LibraryID: lib, OrderBy: opts.OrderBy, Order: opts.Order}
	return cmdutil.PrintAll(opts.IO, opts.JSON, conn.APIKeys(ctx, q),
		[]string{"ID", "NAME", "ACTIONS", "LIBRARIES", "LAST USED", "CREATED"},
		func(k api.APIKey) []string {
			libs := "all"
			if k.Scope.LibraryIDs != nil {
				libs = strings.Join(k.Scope.LibraryIDs, ",")
			}
			used := "never"
			if k.LastUsedAt != nil {
				used = k.LastUsedAt.Local().Format("2006-01-02 15:04")
			}
			return []string{k.ID, k.Name, strings.Join(k.Scope.Actions, ","), libs, used,
				k.CreatedAt.Local().Format(time.DateOnly)}
		})
}

// OAuthListOptions are what `photoctl admin oauth-clients list` was asked
// for.
type OAuthListOptions struct{ cmdutil.ClientOptions }

// NewCmdOAuthList returns `photoctl admin oauth-clients list`; runF, when
// not nil, gets the parsed options instead of runOAuthList (tests).
var NewCmdOAuthList = cmdutil.Constructor(cmdutil.Command[OAuthListOptions]{
	Name:  "list",
	Usage: "List OAuth clients (never their secrets)",
	Description: `Lists registered clients, newest first, revoked ones included.

Example:
   photoctl admin oauth-clients list --json`,
	JSON: true,
	Run:  runOAuthList,
})

func runOAuthList(ctx context.Context, conn *cmdutil.APIConn, opts *OAuthListOptions) error {
	return cmdutil.PrintAll(opts.IO, opts.JSON, conn.OAuthClients(ctx),
		[]string{"ID", "NAME", "TYPE", "SCOPES", "REDIRECT URIS", "CREATED", "REVOKED"},
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
