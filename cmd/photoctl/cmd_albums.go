package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newAlbumsCommand returns `photoctl albums`.
func newAlbumsCommand() *cli.Command {
	return &cli.Command{
		Name:  "albums",
		Usage: "List, create, edit and delete albums; add and remove their assets",
		Description: `An album is a named selection of a library's assets. Albums are named by id
(album_…) or by name within the library (--library, or your default).

Example:
   photoctl albums create "Summer 2024" --description "Brittany and back"
   photoctl ls --after 2024-07-01 --before 2024-09-01 --all --json | jq -r '.[].id' | photoctl albums add "Summer 2024" -
   photoctl albums list`,
		Subcommands: []*cli.Command{newAlbumsListCommand(), newAlbumsGetCommand(), newAlbumsCreateCommand(),
			newAlbumsEditCommand(), newAlbumsDeleteCommand(), newAlbumAssetsCommand("add"), newAlbumAssetsCommand("remove"),
			newAlbumsCoverCommand()},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newAlbumsListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List a library's albums, newest first",
		Description: `Prints the albums with their asset count and the span of their capture
times, or with --json the API's Album records.

Example:
   photoctl albums list --asset asset_01hx...   # the albums showing that asset
   photoctl albums list --json | jq -r '.[] | select(.asset_count == 0) | .id'`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "asset", Usage: "only the albums that show asset `ID`"}, cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
			if err != nil {
				return err
			}
			albums, err := client.Collect(conn.AlbumsWhere(c.Context, client.AlbumQuery{LibraryID: lib, AssetID: c.String("asset")}))
			if err != nil {
				return err
			}
			return cmdutil.PrintList(cmdutil.NewStreams(c), c.Bool("json"), albums, []string{"ID", "NAME", "ASSETS", "FROM", "TO"},
				func(a api.Album) []string {
					return []string{a.ID, a.Name, strconv.Itoa(a.AssetCount), day(a.StartDate), day(a.EndDate)}
				})
		}),
	}
}

func newAlbumsGetCommand() *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "Show albums in full",
		ArgsUsage: "ALBUM...",
		Description: `Prints each album's fields, or with --json the API's Album record (one
object for one album, an array for several).

Example:
   photoctl albums get "Summer 2024"
   photoctl albums get album_01hx... --json | jq .asset_count`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one album id or name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				albums, err := cmdutil.FetchEach(args, func(arg string) (*api.Album, error) {
					id, err := resolveAlbum(c, conn, arg)
					if err != nil {
						return nil, err
					}
					return conn.Album(c.Context, id)
				})
				if err != nil {
					return err
				}
				return cmdutil.PrintRecords(cmdutil.NewStreams(c), c.Bool("json"), albums, albumFields)
			}),
	}
}

func newAlbumsCreateCommand() *cli.Command {
	return &cli.Command{
		Name:      "create",
		Usage:     "Create an album (or find the library's album of that name)",
		ArgsUsage: "NAME",
		Description: `Creates an album in the library. An album with the same name (ignoring case)
is returned instead of a second one, unless --description differs from its
own (a conflict, exit 1).

Example:
   photoctl albums create "Summer 2024" --description "Brittany and back"
   ID=$(photoctl albums create Birthdays --json | jq -r .id)`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "description", Usage: "the album's `TEXT`"}, cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the album name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
				if err != nil {
					return err
				}
				req := api.AlbumCreateRequest{LibraryID: optional(lib), Name: args[0]}
				if c.IsSet("description") {
					d := c.String("description")
					req.Description = &d
				}
				a, created, err := conn.CreateAlbumWith(c.Context, req)
				if err != nil {
					return err
				}
				verb := "Created"
				if !created {
					verb = "Found existing"
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), a, "%s album %s (%s).", verb, a.ID, a.Name)
			}),
	}
}

func newAlbumsEditCommand() *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "Rename an album or change its description",
		ArgsUsage: "ALBUM",
		Description: `Changes what the flags name; the rest stays.

Example:
   photoctl albums edit "Summer 2024" --name "Summer in Brittany"
   photoctl albums edit album_01hx... --description ""   # or --clear-description`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "name", Usage: "the new `NAME`"},
			&cli.StringFlag{Name: "description", Usage: "the new description `TEXT`"},
			&cli.BoolFlag{Name: "clear-description", Usage: "empty the description"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the album id or name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				var u api.AlbumUpdateRequest
				if c.IsSet("name") {
					u.Name = api.Optional[string]{Set: true, Value: optional(c.String("name"))}
				}
				switch {
				case c.IsSet("description") && c.Bool("clear-description"):
					return cmdutil.UsageErrorf(c, "give --description or --clear-description, not both")
				case c.IsSet("description"):
					u.Description = api.Optional[string]{Set: true, Value: optional(c.String("description"))}
				case c.Bool("clear-description"):
					u.Description = api.Optional[string]{Set: true}
				}
				if !u.Name.Set && !u.Description.Set {
					return cmdutil.UsageErrorf(c, "nothing to change: give --name, --description or --clear-description")
				}
				id, err := resolveAlbum(c, conn, args[0])
				if err != nil {
					return err
				}
				a, err := conn.UpdateAlbum(c.Context, id, u)
				if err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), a, "Updated album %s (%s).", a.ID, a.Name)
			}),
	}
}

func newAlbumsDeleteCommand() *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "Delete albums (their assets stay)",
		ArgsUsage: "ALBUM...",
		Description: `Deletes albums and their links to assets; the assets themselves stay in the
library.

Example:
   photoctl albums delete "Screenshots" album_01hx...`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one album id or name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				return cmdutil.ActOnEach(cmdutil.NewStreams(c), c.Bool("json"), args, "Deleted", "deleted", "album", func(arg string) (string, error) {
					id, err := resolveAlbum(c, conn, arg)
					if err != nil {
						return "", err
					}
					return id, conn.DeleteAlbum(c.Context, id)
				})
			}),
	}
}

func newAlbumsCoverCommand() *cli.Command {
	return &cli.Command{
		Name:      "cover",
		Usage:     "Choose an album's cover",
		ArgsUsage: "ALBUM [ASSET]",
		Description: `Makes a live asset of the album its cover; with --auto (or no asset) the
cover is chosen automatically again (the most recently captured member).

Example:
   photoctl albums cover "Summer 2024" asset_01hx...
   photoctl albums cover --auto "Summer 2024"`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.BoolFlag{Name: "auto", Usage: "go back to the automatic cover"}, cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 2, "want the album and the asset of the cover (or --auto)",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				if (len(args) == 2) == c.Bool("auto") {
					return cmdutil.UsageErrorf(c, "give the cover's asset id or --auto")
				}
				id, err := resolveAlbum(c, conn, args[0])
				if err != nil {
					return err
				}
				var asset *string
				if len(args) == 2 {
					asset = &args[1]
				}
				a, err := conn.SetAlbumCover(c.Context, id, asset)
				if err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), a, "Album %s (%s) cover: %s.", a.ID, a.Name,
					cmdutil.OrDash(cmdutil.Deref(a.CoverAssetID)))
			}),
	}
}

// resolveAlbum turns an album id or name into an id: an id (album_…) is
// used as given; a name is looked up among the albums of --library (or the
// default library), ignoring case.
func resolveAlbum(c *cli.Context, conn *cmdutil.APIConn, value string) (string, error) {
	if strings.HasPrefix(value, "album_") {
		return value, nil
	}
	lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
	if err != nil {
		return "", err
	}
	for a, err := range conn.Albums(c.Context, lib) {
		if err != nil {
			return "", fmt.Errorf("look up album %q: %w", value, err)
		}
		if strings.EqualFold(strings.TrimSpace(a.Name), strings.TrimSpace(value)) {
			return a.ID, nil
		}
	}
	return "", fmt.Errorf("no album named %q: %w", value, client.ErrNotFound)
}

// albumFields are the label/value lines of `photoctl albums get`.
func albumFields(a *api.Album) [][]string {
	return [][]string{{"id", a.ID}, {"name", a.Name}, {"description", cmdutil.OrDash(a.Description)},
		{"assets", strconv.Itoa(a.AssetCount)}, {"from", cmdutil.OrDash(cmdutil.Deref(a.StartDate))}, {"to", cmdutil.OrDash(cmdutil.Deref(a.EndDate))},
		{"cover", cmdutil.OrDash(cmdutil.Deref(a.CoverAssetID))}, {"library", a.LibraryID},
		{"updated", a.UpdatedAt.Local().Format(time.DateTime)}}
}

// idsOrStdin returns the ids (or a token) given as arguments, or read
// from standard input, one a line or separated by spaces, when the only
// argument is "-".
func idsOrStdin(c *cli.Context, args []string) ([]string, error) {
	if len(args) != 1 || args[0] != "-" {
		return args, nil
	}
	ids, _, err := cmdutil.ReadStdinIDs(c.App.Reader)
	if err == nil && len(ids) == 0 {
		err = cmdutil.UsageErrorf(c, "nothing on standard input")
	}
	return ids, err
}

// optional is nil for "", else a pointer to s.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// day is the date of a local_datetime, "-" for none.
func day(t *string) string {
	if t == nil || len(*t) < 10 {
		return "-"
	}
	return (*t)[:10]
}
