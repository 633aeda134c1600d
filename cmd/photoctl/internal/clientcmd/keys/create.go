package keys

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// CreateOptions are what `photoctl keys create` was asked for.
type CreateOptions struct {
	cmdutil.ClientOptions

	Name    string
	Actions []string
	// Libraries are ids or names, looked up once connected; none: the key
	// reaches every library of its owner.
	Libraries []string
}

// NewCmdCreate returns `photoctl keys create`; runF, when not nil, gets
// the parsed options instead of runCreate (tests).
var NewCmdCreate = cmdutil.Constructor(cmdutil.Command[CreateOptions]{
	Name:      "create",
	Usage:     "Create an API key and print its secret, once",
	ArgsUsage: "NAME",
	Description: `Creates a key with the given actions (at least one; "all" grants every
action) reaching every library you can reach, or only the --library ones.
The secret is printed once and cannot be shown again. Actions: ` + strings.Join(keyActions, ", ") + `.

Example:
   photoctl keys create nightly-backup --action asset.read --action library.read
   KEY=$(photoctl keys create ci --action all --json | jq -r .secret)`,
	Flags: []cli.Flag{
		&cli.StringSliceFlag{Name: "action", Usage: "grant `ACTION` (repeatable; required)"},
		&cli.StringSliceFlag{Name: "library", Usage: "reach only library `ID or NAME` (repeatable; default: all yours)"},
	},
	JSON: true,
	Args: cmdutil.ExactlyOne("want exactly one argument, the key name"),
	Parse: func(c *cli.Context, args []string, opts *CreateOptions) (err error) {
		opts.Name, opts.Libraries = args[0], cmdutil.SplitList(c.StringSlice("library"))
		opts.Actions, err = actionList(c, "action")
		return err
	},
	Run: runCreate,
})

func runCreate(ctx context.Context, conn *cmdutil.APIConn, opts *CreateOptions) error {
	scope := api.APIKeyScope{Actions: opts.Actions}
	for _, l := range opts.Libraries {
		id, err := cmdutil.LookupLibrary(ctx, conn, l, "")
		if err != nil {
			return err
		}
		scope.LibraryIDs = append(scope.LibraryIDs, id)
	}
	k, err := conn.CreateAPIKey(ctx, opts.Name, scope)
	if err != nil {
		return err
	}
	return cmdutil.PrintSecret(opts.IO, opts.JSON, k,
		fmt.Sprintf("Created key %s (%s). Store the secret now; it is not shown again:\n", k.ID, k.Name), k.Secret+"\n")
}

// OAuthCreateOptions are what `photoctl admin oauth-clients create` was
// asked for: the registration to send.
type OAuthCreateOptions struct {
	cmdutil.ClientOptions

	Request api.OAuthClientCreateRequest
}

// NewCmdOAuthCreate returns `photoctl admin oauth-clients create`; runF,
// when not nil, gets the parsed options instead of runOAuthCreate (tests).
var NewCmdOAuthCreate = cmdutil.Constructor(cmdutil.Command[OAuthCreateOptions]{
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
	Flags: []cli.Flag{
		&cli.StringSliceFlag{Name: "redirect-uri", Usage: "allow redirecting to `URI` (repeatable; required)"},
		&cli.StringSliceFlag{Name: "scope", Usage: "allow asking for `ACTION` (repeatable; required)"},
		&cli.BoolFlag{Name: "public", Usage: "no client secret; PKCE only"},
	},
	JSON: true,
	Args: cmdutil.ExactlyOne("want exactly one argument, the client name"),
	Parse: func(c *cli.Context, args []string, opts *OAuthCreateOptions) (err error) {
		opts.Request = api.OAuthClientCreateRequest{Name: args[0], RedirectURIs: cmdutil.SplitList(c.StringSlice("redirect-uri")),
			Public: c.Bool("public")}
		if len(opts.Request.RedirectURIs) == 0 {
			return cmdutil.UsageErrorf(c, "give at least one --redirect-uri")
		}
		opts.Request.Scopes, err = actionList(c, "scope")
		return err
	},
	Run: runOAuthCreate,
})

func runOAuthCreate(ctx context.Context, conn *cmdutil.APIConn, opts *OAuthCreateOptions) error {
	o, err := conn.CreateOAuthClient(ctx, opts.Request)
	if err != nil {
		return err
	}
	if o.ClientSecret == "" {
		return cmdutil.PrintSecret(opts.IO, opts.JSON, o,
			fmt.Sprintf("Registered public client %s (%s); it authenticates with PKCE alone.\n", o.ID, o.Name),
			fmt.Sprintf("client_id: %s\n", o.ID))
	}
	return cmdutil.PrintSecret(opts.IO, opts.JSON, o,
		fmt.Sprintf("Registered client %s (%s). Store the secret now; it is not shown again:\n", o.ID, o.Name),
		fmt.Sprintf("client_id: %s\nclient_secret: %s\n", o.ID, o.ClientSecret))
}
