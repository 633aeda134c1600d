package main

import (
	"context"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// libraryFlag is --library, taking an id or a name (cmdutil.LibraryFlag).
func libraryFlag() cli.Flag { return cmdutil.LibraryFlag() }

// newLibrariesCommand returns `photoctl libraries`.
func newLibrariesCommand() *cli.Command {
	return &cli.Command{
		Name:  "libraries",
		Usage: "List, create, switch, trash and restore libraries",
		Description: `A library holds assets, albums and people. Commands that work in a library
take --library with its id or name; it may be left out while you have one,
or after 'photoctl libraries switch' chose the default of your profile.

Example:
   photoctl libraries list
   photoctl libraries create "Family archive"
   photoctl libraries switch "Family archive"`,
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "List your libraries with your role in each",
				Description: `Prints the libraries you own or belong to, newest first; the default of your
profile (photoctl libraries switch) is marked with *.

Example:
   photoctl libraries list --json | jq -r '.[].id'
   photoctl libraries list --state trashed`,
				Flags: append(cmdutil.ClientFlags(),
					&cli.StringFlag{Name: "state", Usage: "`live` (default), trashed or all"},
					cmdutil.JSONFlag()),
				Action: cmdutil.ClientAction(0, 0, "",
					func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
						return runLibrariesList(c.Context, conn, c.String("state"), c.Bool("json"), cmdutil.NewStreams(c))
					}),
			},
			{
				Name:      "create",
				Usage:     "Create a library (or find yours of that name)",
				ArgsUsage: "NAME",
				Description: `Creates a library you own. A library of yours with the same name (ignoring
case) is returned instead of a second one. Needs a signed-in session, not an
API key.

Example:
   photoctl libraries create "Family archive"`,
				Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
				Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the library name",
					func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
						lib, created, err := conn.CreateLibrary(c.Context, args[0])
						if err != nil {
							return err
						}
						verb := "Created"
						if !created {
							verb = "Found existing"
						}
						return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), lib, "%s library %s (%s).", verb, lib.ID, lib.Name)
					}),
			},
			newLibraryActionCommand("switch", "Make a library the default of your profile",
				`Makes the library the default of the profile in use: commands that work in
a library use it when --library and $PHOTOCTL_LIBRARY are left out. The
server records it as your default_library_id too, which is what commands
use with an API key and no profile. Signing in again starts without a
default. The config file's library key is a default below this one.

Example:
   photoctl libraries switch "Family archive"
   photoctl ls   # lists the Family archive`),
			newLibraryActionCommand("trash", "Move a library you own to the trash",
				`Hides the library and all its content from every member until it is
restored. Your last live library of your own cannot be trashed. Needs a
signed-in session.

Example:
   photoctl libraries trash "Old imports"`),
			newLibraryActionCommand("restore", "Restore a library from the trash",
				`Brings a trashed library back with its content. A name is looked up among
your trashed libraries. Needs a signed-in session.

Example:
   photoctl libraries restore "Old imports"`),
		},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// newLibraryActionCommand returns `photoctl libraries switch|trash|restore`.
func newLibraryActionCommand(name, usage, description string) *cli.Command {
	return &cli.Command{
		Name:        name,
		Usage:       usage,
		ArgsUsage:   "LIBRARY",
		Description: description,
		Flags:       append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the library id or name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				return runLibraryAction(c.Context, conn, name, args[0], c.Bool("json"), cmdutil.NewStreams(c))
			}),
	}
}

func runLibraryAction(ctx context.Context, conn *cmdutil.APIConn, action, value string, asJSON bool, io *cmdutil.Streams) error {
	state := ""
	if action == "restore" {
		state = "trashed"
	}
	id, err := cmdutil.LookupLibrary(ctx, conn, value, state)
	if err != nil {
		return err
	}
	var lib *api.Library
	switch action {
	case "switch":
		if lib, err = conn.SwitchLibrary(ctx, id); err == nil {
			err = cmdutil.SaveProfileLibrary(conn, func(string) string { return lib.ID })
		}
	case "trash":
		if lib, err = conn.TrashLibrary(ctx, id); err == nil {
			err = cmdutil.SaveProfileLibrary(conn, func(cur string) string { return forget(cur, lib.ID) })
		}
	default:
		lib, err = conn.RestoreLibrary(ctx, id)
	}
	if err != nil {
		return err
	}
	done := map[string]string{"switch": "is now the default", "trash": "moved to the trash", "restore": "restored"}[action]
	if action == "switch" && conn.Profile == "" {
		done += " on the server (used without a profile when the key may read your preferences, user.read)"
	}
	return cmdutil.PrintDone(io, asJSON, lib, "Library %s (%s) %s.", lib.ID, lib.Name, done)
}

// forget returns cur, or "" when cur is the library that went away.
func forget(cur, gone string) string {
	if cur == gone {
		return ""
	}
	return cur
}

func runLibrariesList(ctx context.Context, conn *cmdutil.APIConn, state string, asJSON bool, io *cmdutil.Streams) error {
	libs, err := client.Collect(conn.LibrariesIn(ctx, state))
	if err != nil {
		return err
	}
	def := cmdutil.ProfileLibrary(conn)
	return cmdutil.PrintList(io, asJSON, libs, []string{"", "ID", "NAME", "ROLE", "CREATED", "TRASHED"}, func(l api.Library) []string {
		mark, trashed := "", "-"
		if l.ID == def {
			mark = "*"
		}
		if l.TrashedAt != nil {
			trashed = l.TrashedAt.Local().Format(time.DateOnly)
		}
		return []string{mark, l.ID, l.Name, l.Role, l.CreatedAt.Local().Format(time.DateOnly), trashed}
	})
}
