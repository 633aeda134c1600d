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
	cmdutil.InLibrary

	Name string
	// Description is nil when --description was not given.
	Description *string
}

// NewCmdCreate returns `photoctl albums create`; runF, when not nil, gets
// the parsed options instead of runCreate (tests).
var NewCmdCreate = cmdutil.Constructor(cmdutil.Command[CreateOptions]{
	Name:      "create",
	Usage:     "Create an album (or find the library's album of that name)",
	ArgsUsage: "NAME",
	Description: `Creates an album in the library. An album with the same name (ignoring case)
is returned instead of a second one, unless --description differs from its
own (a conflict, exit 1).

Example:
   photoctl albums create "Summer 2024" --description "Brittany and back"
   ID=$(photoctl albums create Birthdays --json | jq -r .id)`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "description", Usage: "the album's `TEXT`"},
	},
	JSON: true,
	Args: cmdutil.ExactlyOne("want exactly one argument, the album name"),
	Parse: func(c *cli.Context, args []string, opts *CreateOptions) error {
		opts.Name = args[0]
		if c.IsSet("description") {
			d := c.String("description")
			opts.Description = &d
		}
		return nil
	},
	Run: runCreate,
})

func runCreate(ctx context.Context, conn *cmdutil.APIConn, opts *CreateOptions) error {
	req := api.AlbumCreateRequest{LibraryID: cmdutil.Optional(opts.LibraryID), Name: opts.Name, Description: opts.Description}
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
}

// NewCmdEdit returns `photoctl albums edit`; runF, when not nil, gets the
// parsed options instead of runEdit (tests).
var NewCmdEdit = cmdutil.Constructor(cmdutil.Command[EditOptions]{
	Name:      "edit",
	Usage:     "Rename an album or change its description",
	ArgsUsage: "ALBUM",
	Description: `Changes what the flags name; the rest stays.

Example:
   photoctl albums edit "Summer 2024" --name "Summer in Brittany"
   photoctl albums edit album_01hx... --description ""   # or --clear-description`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "name", Usage: "the new `NAME`"},
		&cli.StringFlag{Name: "description", Usage: "the new description `TEXT`"},
		&cli.BoolFlag{Name: "clear-description", Usage: "empty the description"},
	},
	JSON: true,
	Args: cmdutil.ExactlyOne("want exactly one argument, the album id or name"),
	Parse: func(c *cli.Context, args []string, opts *EditOptions) error {
		u := &opts.Update
		if c.IsSet("name") {
			u.Name = api.Optional[string]{Set: true, Value: cmdutil.Optional(c.String("name"))}
		}
		switch {
		case c.IsSet("description") && c.Bool("clear-description"):
			return cmdutil.UsageErrorf(c, "give --description or --clear-description, not both")
		case c.IsSet("description"):
			u.Description = api.Optional[string]{Set: true, Value: cmdutil.Optional(c.String("description"))}
		case c.Bool("clear-description"):
			u.Description = api.Optional[string]{Set: true}
		}
		if !u.Name.Set && !u.Description.Set {
			return cmdutil.UsageErrorf(c, "nothing to change: give --name, --description or --clear-description")
		}
		opts.Library, opts.Album = c.String("library"), args[0]
		return nil
	},
	Run: runEdit,
})

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
}

// NewCmdCover returns `photoctl albums cover`; runF, when not nil, gets
// the parsed options instead of runCover (tests).
var NewCmdCover = cmdutil.Constructor(cmdutil.Command[CoverOptions]{
	Name:      "cover",
	Usage:     "Choose an album's cover",
	ArgsUsage: "ALBUM [ASSET]",
	Description: `Makes a live asset of the album its cover; with --auto (or no asset) the
cover is chosen automatically again (the most recently captured member).

Example:
   photoctl albums cover "Summer 2024" asset_01hx...
   photoctl albums cover --auto "Summer 2024"`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.BoolFlag{Name: "auto", Usage: "go back to the automatic cover"},
	},
	JSON: true,
	Args: cmdutil.Between(1, 2, "want the album and the asset of the cover (or --auto)"),
	Parse: func(c *cli.Context, args []string, opts *CoverOptions) error {
		if (len(args) == 2) == c.Bool("auto") {
			return cmdutil.UsageErrorf(c, "give the cover's asset id or --auto")
		}
		opts.Library, opts.Album = c.String("library"), args[0]
		if len(args) == 2 {
			opts.Asset = &args[1]
		}
		return nil
	},
	Run: runCover,
})

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
