package keys

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdOAuthClients returns `photoctl admin oauth-clients`. Unlike its
// siblings under admin it talks to the running server, with a superuser's
// session, so it is a client command that main's admin group lists.
func NewCmdOAuthClients(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "oauth-clients",
		Usage: "Register, list and revoke third-party OAuth apps (through the server)",
		Description: `Third-party apps reach the library through OAuth 2 (authorization code
with PKCE) once an administrator registers them. These commands use the
running server and need a superuser's signed-in session (photoctl login).

Example:
   photoctl admin oauth-clients create "Photo frame" --redirect-uri https://frame.example.com/cb --scope asset.read --scope album.read
   photoctl admin oauth-clients list
   photoctl admin oauth-clients revoke oauthclient_01hx...`,
		Subcommands: []*cli.Command{NewCmdOAuthCreate(f, nil), NewCmdOAuthList(f, nil), NewCmdOAuthRevoke(f, nil)},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// OAuthCreateOptions are what `photoctl admin oauth-clients create` was
// asked for: the registration to send.
type OAuthCreateOptions struct {
	cmdutil.ClientOptions

	Request api.OAuthClientCreateRequest
	JSON    bool
}

// NewCmdOAuthCreate returns `photoctl admin oauth-clients create`; runF,
// when not nil, gets the parsed options instead of runOAuthCreate (tests).
func NewCmdOAuthCreate(f *cmdutil.Factory, runF func(*OAuthCreateOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "create",
		Usage:     "Register an OAuth client and print its secret, once",
		ArgsUsage: "NAME",
		Description: `Registers a client that may ask users for the given scopes (API-key
actions; "all" allows any) and redirect to the given URIs (matched
exactly). Prints the client id and, for a confidential client, the secret,
which cannot be shown again. --public registers a client without a secret
(native and browser apps), which must use PKCE alone. Scopes: ` + strings.Join(keyActions, ", ") + `.

Example:
   photoctl admin oauth-clients create "Photo frame" --redirect-uri https://frame.example.com/cb --scope asset.read
   photoctl admin oauth-clients create "Desktop app" --public --redirect-uri http://127.0.0.1:8765/cb --scope all --json`,
		Flags: append(cmdutil.ClientFlags(),
			&cli.StringSliceFlag{Name: "redirect-uri", Usage: "allow redirecting to `URI` (repeatable; required)"},
			&cli.StringSliceFlag{Name: "scope", Usage: "allow asking for `ACTION` (repeatable; required)"},
			&cli.BoolFlag{Name: "public", Usage: "no client secret; PKCE only"},
			cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			args, err := cmdutil.NeedArgs(c, 1, 1, "want exactly one argument, the client name")
			if err != nil {
				return err
			}
			req := api.OAuthClientCreateRequest{Name: args[0], RedirectURIs: cmdutil.SplitList(c.StringSlice("redirect-uri")),
				Public: c.Bool("public")}
			if len(req.RedirectURIs) == 0 {
				return cmdutil.UsageErrorf(c, "give at least one --redirect-uri")
			}
			if req.Scopes, err = actionList(c, "scope", "scope"); err != nil {
				return err
			}
			opts := &OAuthCreateOptions{ClientOptions: f.ClientOptions(c), Request: req, JSON: c.Bool("json")}
			return cmdutil.Run(c.Context, opts, runF, runOAuthCreate)
		},
	}
}

func runOAuthCreate(ctx context.Context, opts *OAuthCreateOptions) error {
	conn, err := opts.Conn()
	if err != nil {
		return err
	}
	o, err := conn.CreateOAuthClient(ctx, opts.Request)
	if err != nil {
		return err
	}
	if o.ClientSecret == "" {
		return printCreated(opts.IO, opts.JSON, o,
			fmt.Sprintf("Registered public client %s (%s); it authenticates with PKCE alone.\n", o.ID, o.Name),
			fmt.Sprintf("client_id: %s\n", o.ID))
	}
	return printCreated(opts.IO, opts.JSON, o,
		fmt.Sprintf("Registered client %s (%s). Store the secret now; it is not shown again:\n", o.ID, o.Name),
		fmt.Sprintf("client_id: %s\nclient_secret: %s\n", o.ID, o.ClientSecret))
}
