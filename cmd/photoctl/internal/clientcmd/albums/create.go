package albums

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// CreateOptions are what `photoctl albums create` was asked for.
type CreateOptions struct {
	cmdutil.ClientOptions

	// Library is an id or a name, looked up once connected.
	Library string
	Name    string
	// Description is nil when --description was not given.
	Description *string
	JSON        bool
}

// NewCmdCreate returns `photoctl albums create`; runF, when not nil, gets
// the parsed options instead of runCreate (tests).
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cli.Command {
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
		Flags: append(cmdutil.ClientFlags(), cmdutil.LibraryFlag(),
			&cli.StringFlag{Name: "description", Usage: "the album's `TEXT`"}, cmdutil.JSONFlag()),
		Action: cmdutil.ParseAction(1, 1, "want exactly one argument, the album name", runF, runCreate,
			func(c *cli.Context, args []string) (*CreateOptions, error) {
				opts := &CreateOptions{ClientOptions: f.ClientOptions(c), Library: c.String("library"), Name: args[0],
					JSON: c.Bool("json")}
				if c.IsSet("description") {
					d := c.String("description")
					opts.Description = &d
				}
				return opts, nil
			}),
	}
}

func runCreate(ctx context.Context, conn *cmdutil.APIConn, opts *CreateOptions) error {
	lib, err := cmdutil.ResolveLibrary(ctx, conn, opts.Library)
	if err != nil {
		return err
	}
	req := api.AlbumCreateRequest{LibraryID: cmdutil.Optional(lib), Name: opts.Name, Description: opts.Description}
	a, created, err := conn.CreateAlbumWith(ctx, req)
	if err != nil {
		return err
	}
	verb := "Created"
	if !created {
		verb = "Found existing"
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, a, "%s album %s (%s).", verb, a.ID, a.Name)
}

// EditOptions are what `photoctl albums edit` was asked for: the album
// (an id or a name in Library) and the change to send.
type EditOptions struct {
	cmdutil.ClientOptions

	Library, Album string
	Update         api.AlbumUpdateRequest
	JSON           bool
}

// NewCmdEdit returns `photoctl albums edit`; runF, when not nil, gets the
// parsed options instead of runEdit (tests).
func NewCmdEdit(f *cmdutil.Factory, runF func(*EditOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "Rename an album or change its description",
		ArgsUsage: "ALBUM",
		Description: `Changes what the flags name; the rest stays.

Example:
   photoctl albums edit "Summer 2024" --name "Summer in Brittany"
   photoctl albums edit album_01hx... --description ""   # or --clear-description`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.LibraryFlag(),
			&cli.StringFlag{Name: "name", Usage: "the new `NAME`"},
			&cli.StringFlag{Name: "description", Usage: "the new description `TEXT`"},
			&cli.BoolFlag{Name: "clear-description", Usage: "empty the description"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ParseAction(1, 1, "want exactly one argument, the album id or name", runF, runEdit,
			func(c *cli.Context, args []string) (*EditOptions, error) {
				var u api.AlbumUpdateRequest
				if c.IsSet("name") {
					u.Name = api.Optional[string]{Set: true, Value: cmdutil.Optional(c.String("name"))}
				}
				switch {
				case c.IsSet("description") && c.Bool("clear-description"):
					return nil, cmdutil.UsageErrorf(c, "give --description or --clear-description, not both")
				case c.IsSet("description"):
					u.Description = api.Optional[string]{Set: true, Value: cmdutil.Optional(c.String("description"))}
				case c.Bool("clear-description"):
					u.Description = api.Optional[string]{Set: true}
				}
				if !u.Name.Set && !u.Description.Set {
					return nil, cmdutil.UsageErrorf(c, "nothing to change: give --name, --description or --clear-description")
				}
				return &EditOptions{ClientOptions: f.ClientOptions(c), Library: c.String("library"), Album: args[0],
					Update: u, JSON: c.Bool("json")}, nil
			}),
	}
}

func runEdit(ctx context.Context, conn *cmdutil.APIConn, opts *EditOptions) error {
	id, err := cmdutil.ResolveAlbum(ctx, conn, opts.Library, opts.Album)
	if err != nil {
		return err
	}
	a, err := conn.UpdateAlbum(ctx, id, opts.Update)
	if err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, a, "Updated album %s (%s).", a.ID, a.Name)
}

// CoverOptions are what `photoctl albums cover` was asked for.
type CoverOptions struct {
	cmdutil.ClientOptions

	Library, Album string
	// Asset is the cover's asset id; nil for --auto.
	Asset *string
	JSON  bool
}

// NewCmdCover returns `photoctl albums cover`; runF, when not nil, gets
// the parsed options instead of runCover (tests).
func NewCmdCover(f *cmdutil.Factory, runF func(*CoverOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "cover",
		Usage:     "Choose an album's cover",
		ArgsUsage: "ALBUM [ASSET]",
		Description: `Makes a live asset of the album its cover; with --auto (or no asset) the
cover is chosen automatically again (the most recently captured member).

Example:
   photoctl albums cover "Summer 2024" asset_01hx...
   photoctl albums cover --auto "Summer 2024"`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.LibraryFlag(),
			&cli.BoolFlag{Name: "auto", Usage: "go back to the automatic cover"}, cmdutil.JSONFlag()),
		Action: cmdutil.ParseAction(1, 2, "want the album and the asset of the cover (or --auto)", runF, runCover,
			func(c *cli.Context, args []string) (*CoverOptions, error) {
				if (len(args) == 2) == c.Bool("auto") {
					return nil, cmdutil.UsageErrorf(c, "give the cover's asset id or --auto")
				}
				opts := &CoverOptions{ClientOptions: f.ClientOptions(c), Library: c.String("library"), Album: args[0],
					JSON: c.Bool("json")}
				if len(args) == 2 {
					opts.Asset = &args[1]
				}
				return opts, nil
			}),
	}
}

func runCover(ctx context.Context, conn *cmdutil.APIConn, opts *CoverOptions) error {
	id, err := cmdutil.ResolveAlbum(ctx, conn, opts.Library, opts.Album)
	if err != nil {
		return err
	}
	a, err := conn.SetAlbumCover(ctx, id, opts.Asset)
	if err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, a, "Album %s (%s) cover: %s.", a.ID, a.Name,
		cmdutil.OrDash(cmdutil.Deref(a.CoverAssetID)))
}
