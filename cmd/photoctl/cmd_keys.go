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

// keyActions are the actions an API key can be granted (decisions.md).
var keyActions = []string{"asset.read", "asset.upload", "asset.update", "asset.trash", "asset.delete",
	"album.read", "album.write", "person.read", "person.write", "stack.read", "stack.write", "search",
	"library.read", "event.read", "task.read", "user.read", "user.update", "all"}

// newKeysCommand returns `photoctl keys`.
func newKeysCommand() *cli.Command {
	return &cli.Command{
		Name:  "keys",
		Usage: "Create, list and revoke API keys",
		Description: `API keys let scripts and other programs act for you within a scope: the
actions they may take and, optionally, the libraries they reach. Managing
keys needs a signed-in session (photoctl login), not a key.

Example:
   photoctl keys create backup --action asset.read --action library.read
   photoctl keys create camera-upload --action asset.upload --library "Family archive"
   photoctl keys list
   photoctl keys delete key_01hx...`,
		Subcommands: []*cli.Command{newKeysCreateCommand(), newKeysListCommand(), newKeysDeleteCommand()},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newKeysCreateCommand() *cli.Command {
	return &cli.Command{
		Name:      "create",
		Usage:     "Create an API key and print its secret, once",
		ArgsUsage: "NAME",
		Description: `Creates a key with the given actions (at least one; "all" grants every
action) reaching every library you can reach, or only the --library ones.
The secret is printed once and cannot be shown again. Actions: ` + strings.Join(keyActions, ", ") + `.

Example:
   photoctl keys create nightly-backup --action asset.read --action library.read
   KEY=$(photoctl keys create ci --action all --json | jq -r .secret)`,
		Flags: append(cmdutil.ClientFlags(),
			&cli.StringSliceFlag{Name: "action", Usage: "grant `ACTION` (repeatable; required)"},
			&cli.StringSliceFlag{Name: "library", Usage: "reach only library `ID or NAME` (repeatable; default: all yours)"},
			cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			if _, err := cmdutil.NeedArgs(c, 1, 1, "want exactly one argument, the key name"); err != nil {
				return err
			}
			actions := cmdutil.SplitList(c.StringSlice("action"))
			if len(actions) == 0 {
				return cmdutil.UsageErrorf(c, "give at least one --action (%s)", strings.Join(keyActions, ", "))
			}
			for _, a := range actions {
				if !slices.Contains(keyActions, a) {
					return cmdutil.UsageErrorf(c, "unknown action %q: want %s", a, strings.Join(keyActions, ", "))
				}
			}
			conn, err := cmdutil.Connect(c, true)
			if err != nil {
				return err
			}
			scope := api.APIKeyScope{Actions: actions}
			for _, l := range cmdutil.SplitList(c.StringSlice("library")) {
				id, err := cmdutil.LookupLibrary(c.Context, conn, l, "")
				if err != nil {
					return err
				}
				scope.LibraryIDs = append(scope.LibraryIDs, id)
			}
			k, err := conn.CreateAPIKey(c.Context, c.Args().First(), scope)
			if err != nil {
				return err
			}
			io := cmdutil.NewStreams(c)
			if c.Bool("json") {
				return cmdutil.PrintJSON(io.Out, k)
			}
			fmt.Fprintf(io.Err, "Created key %s (%s). Store the secret now; it is not shown again:\n", k.ID, k.Name)
			_, err = fmt.Fprintln(io.Out, k.Secret)
			return err
		},
	}
}

func newKeysListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List your API keys (never their secrets)",
		Description: `Lists your keys, newest first, with their scope and last use.

Example:
   photoctl keys list --order-by last_used_at --order asc
   photoctl keys list --name backup --json`,
		Flags: append(cmdutil.ClientFlags(),
			&cli.StringFlag{Name: "name", Usage: "only keys whose name contains `TEXT`"},
			&cli.StringFlag{Name: "library", Usage: "only keys that reach library `ID or NAME`"},
			&cli.StringFlag{Name: "order-by", Usage: "`FIELD`: created_at (default), last_used_at or name"},
			&cli.StringFlag{Name: "order", Usage: "`desc` (default) or asc"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "",
			func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
				lib, err := cmdutil.LookupLibrary(c.Context, conn, c.String("library"), "")
				if err != nil {
					return err
				}
				q := client.APIKeyQuery{Name: c.String("name"), LibraryID: lib, OrderBy: c.String("order-by"), Order: c.String("order")}
				return runKeysList(c.Context, conn, q, c.Bool("json"), cmdutil.NewStreams(c))
			}),
	}
}

func runKeysList(ctx context.Context, conn *cmdutil.APIConn, q client.APIKeyQuery, asJSON bool, io *cmdutil.Streams) error {
	keys, err := client.Collect(conn.APIKeys(ctx, q))
	if err != nil {
		return err
	}
	return cmdutil.PrintList(io, asJSON, keys, []string{"ID", "NAME", "ACTIONS", "LIBRARIES", "LAST USED", "CREATED"},
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

func newKeysDeleteCommand() *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "Revoke API keys",
		ArgsUsage: "ID...",
		Description: `Revokes keys at once: programs using them get 401 from then on.

Example:
   photoctl keys delete key_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one key id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				return cmdutil.ActOnEach(cmdutil.NewStreams(c), c.Bool("json"), args, "Revoked", "deleted", "key", func(id string) (string, error) {
					return id, conn.DeleteAPIKey(c.Context, id)
				})
			}),
	}
}
