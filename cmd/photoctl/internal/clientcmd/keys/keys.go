// Package keys holds the client commands about credentials for programs:
// `photoctl keys` (API keys) and `photoctl admin oauth-clients` (the
// third-party apps that may ask users for access). Each command is an
// Options struct, a NewCmdX(f, runF) that parses the command line into it,
// and a runX that does the work. The two groups share their verbs, so the
// files go by verb: create.go, list.go, delete.go (delete and revoke);
// this one holds the groups and the actions they grant.
package keys

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// keyActions are the actions an API key can be granted (decisions.md); an
// OAuth client's scopes are the same.
var keyActions = []string{"asset.read", "asset.upload", "asset.update", "asset.trash", "asset.delete",
	"album.read", "album.write", "person.read", "person.write", "stack.read", "stack.write", "search",
	"library.read", "event.read", "task.read", "user.read", "user.update", "all"}

// NewCmdKeys returns `photoctl keys`, a group: its subcommands are tested
// one by one, each with its own runF.
func NewCmdKeys(f *cmdutil.Factory) *cli.Command {
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
		Subcommands: []*cli.Command{NewCmdCreate(f, nil), NewCmdList(f, nil), NewCmdDelete(f, nil)},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// actionList is the repeated, comma-separated values of flag, each checked
// against keyActions; none is a usage error.
func actionList(c *cli.Context, flag string) ([]string, error) {
	list := cmdutil.SplitList(c.StringSlice(flag))
	if len(list) == 0 {
		return nil, cmdutil.UsageErrorf(c, "give at least one --%s (%s)", flag, strings.Join(keyActions, ", "))
	}
	for _, a := range list {
		if !slices.Contains(keyActions, a) {
			return nil, cmdutil.UsageErrorf(c, "unknown %s %q: want %s", flag, a, strings.Join(keyActions, ", "))
		}
	}
	return list, nil
}

// NewCmdOAuthClients returns `photoctl admin oauth-clients`. Unlike its
// siblings under admin it talks to the running server, with a superuser's
// session, so it is a client command that servercmd's admin group lists.
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
