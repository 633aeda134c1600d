package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// libraryFlag is --library, taking an id or a name.
func libraryFlag() cli.Flag {
	return &cli.StringFlag{Name: "library", Usage: "library `ID or NAME` (or $PHOTOCTL_LIBRARY); needed when you have several and no default (libraries switch)"}
}

// resolveLibrary turns --library into an id for a command that follows
// the library selection rule. The first of these that names a library
// wins: --library, $PHOTOCTL_LIBRARY, the profile's default (photoctl
// libraries switch), the config file's library key, and without a
// profile (an API key from --api-key or $PHOTOCTL_API_KEY) the account's
// default_library_id on the server, which switch sets. Names are looked up
// (lookupLibrary). None of them: "", and the server applies its rule
// (fine with one library, a 422 with several, which execute turns into a
// hint).
func resolveLibrary(ctx context.Context, conn *apiConn, value string) (string, error) {
	if strings.TrimSpace(value) != "" {
		return lookupLibrary(ctx, conn, value, "")
	}
	if conn.LibraryFromEnv {
		return lookupLibrary(ctx, conn, conn.Library, "")
	}
	if id := profileLibrary(conn); id != "" {
		return id, nil
	}
	if strings.TrimSpace(conn.Library) != "" {
		return lookupLibrary(ctx, conn, conn.Library, "")
	}
	if conn.Profile == "" && conn.Credential == "api_key" {
		// A key without the user.read action cannot tell; the server's
		// rule then decides, as without a default.
		if prefs, err := conn.Preferences(ctx); err == nil && prefs.DefaultLibraryID != nil {
			return *prefs.DefaultLibraryID, nil
		}
	}
	return "", nil
}

// lookupLibrary turns a library id or name into an id: an id (lib_…) is
// used as given, a name is looked up among the caller's libraries in state
// ("" is live; ignoring case and surrounding spaces). "" stays "".
func lookupLibrary(ctx context.Context, conn *apiConn, value, state string) (string, error) {
	value = strings.TrimSpace(value)
	if value == "" || strings.HasPrefix(value, "lib_") {
		return value, nil
	}
	var names []string
	for l, err := range conn.LibrariesIn(ctx, state) {
		if err != nil {
			return "", fmt.Errorf("look up library %q: %w", value, err)
		}
		if strings.EqualFold(strings.TrimSpace(l.Name), value) {
			return l.ID, nil
		}
		names = append(names, l.Name)
	}
	return "", &usageError{err: fmt.Errorf("no library named %q (yours: %s)", value, strings.Join(names, ", "))}
}

// pathLibrary is the library of a command whose route names one in its
// path (members, invitations): --library, else the profile's default, else
// the caller's only library.
func pathLibrary(c *cli.Context, conn *apiConn) (string, error) {
	id, err := resolveLibrary(c.Context, conn, c.String("library"))
	if err != nil || id != "" {
		return id, err
	}
	libs, err := client.Collect(conn.Libraries(c.Context))
	if err != nil {
		return "", err
	}
	if len(libs) != 1 {
		return "", usageErrorf(c, "you have %d libraries: name one with --library (or 'photoctl libraries switch')", len(libs))
	}
	return libs[0].ID, nil
}

// profileLibrary is the default library of the profile conn uses, "" when
// none is set or the credential came from --api-key/$PHOTOCTL_API_KEY.
func profileLibrary(conn *apiConn) string {
	if conn.Profile == "" {
		return ""
	}
	store, err := newCredentialsStore()
	if err != nil {
		return ""
	}
	file, err := store.load()
	if err != nil || file.Profiles[conn.Profile] == nil {
		return "" // connect read the same file a moment ago
	}
	return file.Profiles[conn.Profile].Library
}

// saveProfileLibrary sets the default library of conn's profile to
// next(current); nothing happens without a profile.
func saveProfileLibrary(conn *apiConn, next func(current string) string) error {
	if conn.Profile == "" {
		return nil
	}
	store, err := newCredentialsStore()
	if err != nil {
		return err
	}
	return store.update(func(p *profiles) error {
		prof := p.Profiles[conn.Profile]
		if prof == nil || next(prof.Library) == prof.Library {
			return errSkipSave
		}
		prof.Library = next(prof.Library)
		return nil
	})
}

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
				Flags: append(clientFlags(),
					&cli.StringFlag{Name: "state", Usage: "`live` (default), trashed or all"},
					jsonFlag()),
				Action: clientAction(0, 0, "",
					func(c *cli.Context, conn *apiConn, _ []string) error {
						return runLibrariesList(c.Context, conn, c.String("state"), c.Bool("json"), newStreams(c))
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
				Flags: append(clientFlags(), jsonFlag()),
				Action: clientAction(1, 1, "want exactly one argument, the library name",
					func(c *cli.Context, conn *apiConn, args []string) error {
						lib, created, err := conn.CreateLibrary(c.Context, args[0])
						if err != nil {
							return err
						}
						verb := "Created"
						if !created {
							verb = "Found existing"
						}
						return printDone(newStreams(c), c.Bool("json"), lib, "%s library %s (%s).", verb, lib.ID, lib.Name)
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
		Action: groupAction(cli.ShowSubcommandHelp),
	}
}

// newLibraryActionCommand returns `photoctl libraries switch|trash|restore`.
func newLibraryActionCommand(name, usage, description string) *cli.Command {
	return &cli.Command{
		Name:        name,
		Usage:       usage,
		ArgsUsage:   "LIBRARY",
		Description: description,
		Flags:       append(clientFlags(), jsonFlag()),
		Action: clientAction(1, 1, "want exactly one argument, the library id or name",
			func(c *cli.Context, conn *apiConn, args []string) error {
				return runLibraryAction(c.Context, conn, name, args[0], c.Bool("json"), newStreams(c))
			}),
	}
}

func runLibraryAction(ctx context.Context, conn *apiConn, action, value string, asJSON bool, io *streams) error {
	state := ""
	if action == "restore" {
		state = "trashed"
	}
	id, err := lookupLibrary(ctx, conn, value, state)
	if err != nil {
		return err
	}
	var lib *api.Library
	switch action {
	case "switch":
		if lib, err = conn.SwitchLibrary(ctx, id); err == nil {
			err = saveProfileLibrary(conn, func(string) string { return lib.ID })
		}
	case "trash":
		if lib, err = conn.TrashLibrary(ctx, id); err == nil {
			err = saveProfileLibrary(conn, func(cur string) string { return forget(cur, lib.ID) })
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
	return printDone(io, asJSON, lib, "Library %s (%s) %s.", lib.ID, lib.Name, done)
}

// forget returns cur, or "" when cur is the library that went away.
func forget(cur, gone string) string {
	if cur == gone {
		return ""
	}
	return cur
}

func runLibrariesList(ctx context.Context, conn *apiConn, state string, asJSON bool, io *streams) error {
	libs, err := client.Collect(conn.LibrariesIn(ctx, state))
	if err != nil {
		return err
	}
	def := profileLibrary(conn)
	return printList(io, asJSON, libs, []string{"", "ID", "NAME", "ROLE", "CREATED", "TRASHED"}, func(l api.Library) []string {
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
