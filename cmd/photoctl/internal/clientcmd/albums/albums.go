// Package albums holds `photoctl albums`: list, show, create, edit and
// delete albums, choose their cover, add and remove their assets. Each
// command is an Options struct, a NewCmdX(f, runF) that parses the command
// line into it, and a runX that does the work: this file holds the group
// and the reading commands, create.go the writing ones, assets.go add and
// remove.
package albums

import (
	"context"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdAlbums returns `photoctl albums`, a group: its subcommands are
// tested one by one, each with its own runF.
func NewCmdAlbums(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "albums",
		Usage: "List, create, edit and delete albums; add and remove their assets",
		Description: `An album is a named selection of a library's assets. Albums are named by id
(album_…) or by name within the library (--library, or your default).

Example:
   photoctl albums create "Summer 2024" --description "Brittany and back"
   photoctl ls --after 2024-07-01 --before 2024-09-01 --all --json | jq -r '.[].id' | photoctl albums add "Summer 2024" -
   photoctl albums list`,
		Subcommands: []*cli.Command{NewCmdList(f, nil), NewCmdGet(f, nil), NewCmdCreate(f, nil),
			NewCmdEdit(f, nil), NewCmdDelete(f, nil), NewCmdAdd(f, nil), NewCmdRemove(f, nil),
			NewCmdCover(f, nil)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// ListOptions are what `photoctl albums list` was asked for.
type ListOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	Asset string
}

// NewCmdList returns `photoctl albums list`; runF, when not nil, gets the
// parsed options instead of runList (tests).
var NewCmdList = cmdutil.Constructor(cmdutil.Command[ListOptions]{
	Name:  "list",
	Usage: "List a library's albums, newest first",
	Description: `Prints the albums with their asset count and the span of their capture
times, or with --json the API's Album records.

Example:
   photoctl albums list --asset asset_01hx...   # the albums showing that asset
   photoctl albums list --json | jq -r '.[] | select(.asset_count == 0) | .id'`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "asset", Usage: "only the albums that show asset `ID`"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *ListOptions) error {
		opts.Asset = c.String("asset")
		return nil
	},
	Run: runList,
})

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	return cmdutil.PrintAll(opts.IO, opts.JSON, conn.AlbumsWhere(ctx, client.AlbumQuery{LibraryID: opts.LibraryID, AssetID: opts.Asset}),
		[]string{"ID", "NAME", "ASSETS", "FROM", "TO"},
		func(a api.Album) []string {
			return []string{a.ID, a.Name, strconv.Itoa(a.AssetCount), day(a.StartDate), day(a.EndDate)}
		})
}

// EachOptions are the options of a command that acts on albums named by
// id or by name (get, delete): names are looked up in Library.
type EachOptions struct {
	cmdutil.EachOptions

	// Library is an id or a name, looked up once connected when an album
	// is named by its name.
	Library string
}

// wantAlbums is what get and delete say without an album.
const wantAlbums = "give at least one album id or name"

// GetOptions are what `photoctl albums get` was asked for.
type GetOptions struct{ EachOptions }

// NewCmdGet returns `photoctl albums get`; runF, when not nil, gets the
// parsed options instead of runGet (tests).
var NewCmdGet = cmdutil.Constructor(cmdutil.Command[GetOptions]{
	Name:      "get",
	Usage:     "Show albums in full",
	ArgsUsage: "ALBUM...",
	Description: `Prints each album's fields, or with --json the API's Album record (one
object for one album, an array for several).

Example:
   photoctl albums get "Summer 2024"
   photoctl albums get album_01hx... --json | jq .asset_count`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Args:  cmdutil.AtLeastOne(wantAlbums),
	Parse: func(c *cli.Context, _ []string, opts *GetOptions) error {
		opts.Library = c.String("library")
		return nil
	},
	Run: runGet,
})

func runGet(ctx context.Context, conn *cmdutil.APIConn, opts *GetOptions) error {
	return cmdutil.ShowEach(opts.EachOptions.EachOptions, cmdutil.FetchNamed(ctx, conn, opts.Library, cmdutil.ResolveAlbum, conn.Album),
		albumFields)
}

// DeleteOptions are what `photoctl albums delete` was asked for.
type DeleteOptions struct{ EachOptions }

// NewCmdDelete returns `photoctl albums delete`; runF, when not nil, gets
// the parsed options instead of runDelete (tests).
var NewCmdDelete = cmdutil.Constructor(cmdutil.Command[DeleteOptions]{
	Name:      "delete",
	Usage:     "Delete albums (their assets stay)",
	ArgsUsage: "ALBUM...",
	Description: `Deletes albums and their links to assets; the assets themselves stay in the
library.

Example:
   photoctl albums delete "Screenshots" album_01hx...`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Args:  cmdutil.AtLeastOne(wantAlbums),
	Parse: func(c *cli.Context, _ []string, opts *DeleteOptions) error {
		opts.Library = c.String("library")
		return nil
	},
	Run: runDelete,
})

func runDelete(ctx context.Context, conn *cmdutil.APIConn, opts *DeleteOptions) error {
	return opts.ForEach("Deleted", "deleted", "album", func(arg string) (string, error) {
		id, err := cmdutil.ResolveAlbum(ctx, conn, opts.Library, arg)
		if err != nil {
			return "", err
		}
		return id, conn.DeleteAlbum(ctx, id)
	})
}

// albumFields are the label/value lines of `photoctl albums get`.
func albumFields(a *api.Album) [][]string {
	return [][]string{{"id", a.ID}, {"name", a.Name}, {"description", cmdutil.OrDash(a.Description)},
		{"assets", strconv.Itoa(a.AssetCount)}, {"from", cmdutil.OrDash(cmdutil.Deref(a.StartDate))}, {"to", cmdutil.OrDash(cmdutil.Deref(a.EndDate))},
		{"cover", cmdutil.OrDash(cmdutil.Deref(a.CoverAssetID))}, {"library", a.LibraryID},
		{"updated", a.UpdatedAt.Local().Format(time.DateTime)}}
}

// day is the date of a local_datetime, "-" for none.
func day(t *string) string {
	if t == nil || len(*t) < 10 {
		return "-"
	}
	return (*t)[:10]
}
