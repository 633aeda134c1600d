package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newOAuthClientsCommand returns `photoctl admin oauth-clients`. Unlike its
// siblings it talks to the running server, with a superuser's session.
func newOAuthClientsCommand() *cli.Command {
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
		Subcommands: []*cli.Command{newOAuthClientsCreateCommand(), newOAuthClientsListCommand(), newOAuthClientsRevokeCommand()},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newOAuthClientsCreateCommand() *cli.Command {
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
			if _, err := cmdutil.NeedArgs(c, 1, 1, "want exactly one argument, the client name"); err != nil {
				return err
			}
			req := api.OAuthClientCreateRequest{Name: c.Args().First(), RedirectURIs: cmdutil.SplitList(c.StringSlice("redirect-uri")),
				Scopes: cmdutil.SplitList(c.StringSlice("scope")), Public: c.Bool("public")}
			if len(req.RedirectURIs) == 0 {
				return cmdutil.UsageErrorf(c, "give at least one --redirect-uri")
			}
			if len(req.Scopes) == 0 {
				return cmdutil.UsageErrorf(c, "give at least one --scope (%s)", strings.Join(keyActions, ", "))
			}
			for _, s := range req.Scopes {
				if !slices.Contains(keyActions, s) {
					return cmdutil.UsageErrorf(c, "unknown scope %q: want %s", s, strings.Join(keyActions, ", "))
				}
			}
			conn, err := cmdutil.Connect(c, true)
			if err != nil {
				return err
			}
			return runOAuthClientsCreate(c.Context, conn, req, c.Bool("json"), cmdutil.NewStreams(c))
		},
	}
}

func runOAuthClientsCreate(ctx context.Context, conn *cmdutil.APIConn, req api.OAuthClientCreateRequest, asJSON bool, io *cmdutil.Streams) error {
	o, err := conn.CreateOAuthClient(ctx, req)
	if err != nil {
		return err
	}
	if asJSON {
		return cmdutil.PrintJSON(io.Out, o)
	}
	if o.ClientSecret == "" {
		fmt.Fprintf(io.Err, "Registered public client %s (%s); it authenticates with PKCE alone.\n", o.ID, o.Name)
		_, err = fmt.Fprintf(io.Out, "client_id: %s\n", o.ID)
		return err
	}
	fmt.Fprintf(io.Err, "Registered client %s (%s). Store the secret now; it is not shown again:\n", o.ID, o.Name)
	_, err = fmt.Fprintf(io.Out, "client_id: %s\nclient_secret: %s\n", o.ID, o.ClientSecret)
	return err
}

func newOAuthClientsListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List OAuth clients (never their secrets)",
		Description: `Lists registered clients, newest first, revoked ones included.

Example:
   photoctl admin oauth-clients list --json`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "",
			func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
				return runOAuthClientsList(c.Context, conn, c.Bool("json"), cmdutil.NewStreams(c))
			}),
	}
}

func runOAuthClientsList(ctx context.Context, conn *cmdutil.APIConn, asJSON bool, io *cmdutil.Streams) error {
	list, err := client.Collect(conn.OAuthClients(ctx))
	if err != nil {
		return err
	}
	return cmdutil.PrintList(io, asJSON, list, []string{"ID", "NAME", "TYPE", "SCOPES", "REDIRECT URIS", "CREATED", "REVOKED"},
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

func newOAuthClientsRevokeCommand() *cli.Command {
	return &cli.Command{
		Name:      "revoke",
		Usage:     "Revoke OAuth clients and every token issued to them",
		ArgsUsage: "ID...",
		Description: `Revokes clients at once: their access tokens get 401 from then on, and
they can no longer authorize or refresh.

Example:
   photoctl admin oauth-clients revoke oauthclient_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one client id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				return cmdutil.ActOnEach(cmdutil.NewStreams(c), c.Bool("json"), args, "Revoked", "revoked", "client", func(id string) (string, error) {
					return id, conn.RevokeOAuthClient(c.Context, id)
				})
			}),
	}
}
