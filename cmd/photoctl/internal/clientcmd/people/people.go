// Package people holds `photoctl people` (list, show, create, rename,
// merge, hide and favorite people) and `photoctl faces` (list, draw,
// assign and delete the faces that make them). Each command is an Options
// struct, a NewCmdX(f, runF) that parses the command line into it, and a
// runX that does the work: this file holds the people group and its
// reading commands, edit.go the writing ones, faces.go and
// faces_create.go the faces.
package people

import (
	"context"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdPeople returns `photoctl people`, a group: its subcommands are
// tested one by one, each with its own runF.
func NewCmdPeople(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "people",
		Usage: "List, name, merge, hide and favorite people",
		Description: `A person groups faces (see 'photoctl faces'). People are named by id
(person_…) or by name within the library (--library, or your default).

Example:
   photoctl people list --named
   photoctl people rename person_01hx... "Ann"
   photoctl people merge Ann person_01hy... person_01hz...
   photoctl people hide person_01hq...`,
		Subcommands: []*cli.Command{NewCmdList(f, nil), NewCmdGet(f, nil), NewCmdCreate(f, nil),
			NewCmdRename(f, nil), NewCmdMerge(f, nil),
			NewCmdSetFlag(f, nil, "hide", "Hide people from the people views", "is_hidden", true),
			NewCmdSetFlag(f, nil, "unhide", "Show hidden people again", "is_hidden", false),
			NewCmdSetFlag(f, nil, "favorite", "Mark people as favorites", "is_favorite", true),
			NewCmdSetFlag(f, nil, "unfavorite", "Unmark favorite people", "is_favorite", false)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// ListOptions are what `photoctl people list` was asked for.
type ListOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	// Album is an album's id or name in the library, looked up once
	// connected into Query.
	Album    string
	Query    client.PersonQuery
	NoHidden bool
}

// NewCmdList returns `photoctl people list`; runF, when not nil, gets the
// parsed options instead of runList (tests).
var NewCmdList = cmdutil.Constructor(cmdutil.Command[ListOptions]{
	Name:  "list",
	Usage: "List people, newest first, with filters",
	Description: `Lists the people of a library with how many assets show them. Filters
combine. Hidden people are listed (marked in the table) unless --no-hidden.
With --json the output is a JSON array of the API's Person records.

Example:
   photoctl people list --named --name ann
   photoctl people list --album "Summer 2024"
   photoctl people list --include-unverified --unnamed --json | jq -r '.[].id'`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringSliceFlag{Name: "id", Usage: "only these person `ID`s (repeat or comma-separate; at most 100)"},
		&cli.StringFlag{Name: "name", Usage: "only people whose name contains `TEXT` (ignoring case)"},
		&cli.BoolFlag{Name: "named", Usage: "only people with a name"},
		&cli.BoolFlag{Name: "unnamed", Usage: "only people without a name"},
		&cli.StringFlag{Name: "asset", Usage: "only people with a face in asset `ID`"},
		&cli.StringFlag{Name: "album", Usage: "only people with a face in album `ID or NAME`"},
		&cli.BoolFlag{Name: "include-unverified", Usage: "add machine clusters with too few faces to be sure"},
		&cli.BoolFlag{Name: "no-hidden", Usage: "leave hidden people out"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *ListOptions) error {
		if c.Bool("named") && c.Bool("unnamed") {
			return cmdutil.UsageErrorf(c, "give --named or --unnamed, not both")
		}
		opts.Query = client.PersonQuery{IDs: cmdutil.SplitList(c.StringSlice("id")), Name: c.String("name"),
			AssetID: c.String("asset"), IncludeUnverified: c.Bool("include-unverified")}
		if c.Bool("named") || c.Bool("unnamed") {
			named := c.Bool("named")
			opts.Query.Named = &named
		}
		opts.Album, opts.NoHidden = c.String("album"), c.Bool("no-hidden")
		return nil
	},
	Run: runList,
})

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	q := opts.Query
	q.LibraryID = opts.LibraryID
	if opts.Album != "" {
		var err error
		if q.AlbumID, err = cmdutil.ResolveAlbum(ctx, conn, opts.LibraryID, opts.Album); err != nil {
			return err
		}
	}
	var people []api.Person
	for p, err := range conn.People(ctx, q) {
		if err != nil {
			return err
		}
		if !p.IsHidden || !opts.NoHidden {
			people = append(people, p)
		}
	}
	if err := cmdutil.PrintList(opts.IO, opts.JSON, people, []string{"ID", "NAME", "ASSETS", "BIRTH DATE", "FLAGS"},
		func(p api.Person) []string {
			return []string{p.ID, cmdutil.OrDash(cmdutil.Deref(p.Name)), strconv.Itoa(p.AssetCount), cmdutil.OrDash(cmdutil.Deref(p.BirthDate)), personFlags(&p)}
		}); err != nil {
		return err
	}
	if len(people) == 0 && !q.IncludeUnverified && !opts.JSON {
		return hintUnverified(ctx, conn, q, opts.IO)
	}
	return nil
}

// GetOptions are what `photoctl people get` was asked for: people named
// by id or by name (looked up in Library).
type GetOptions struct {
	cmdutil.EachOptions

	Library string
}

// NewCmdGet returns `photoctl people get`; runF, when not nil, gets the
// parsed options instead of runGet (tests).
var NewCmdGet = cmdutil.Constructor(cmdutil.Command[GetOptions]{
	Name:      "get",
	Usage:     "Show people in full",
	ArgsUsage: "PERSON...",
	Description: `Prints each person's fields, or with --json the API's Person record (one
object for one person, an array for several).

Example:
   photoctl people get Ann
   photoctl people get person_01hx... --json | jq .asset_count`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Args:  cmdutil.AtLeastOne("give at least one person id or name"),
	Parse: func(c *cli.Context, _ []string, opts *GetOptions) error {
		opts.Library = c.String("library")
		return nil
	},
	Run: runGet,
})

func runGet(ctx context.Context, conn *cmdutil.APIConn, opts *GetOptions) error {
	return cmdutil.ShowEach(opts.EachOptions, cmdutil.FetchNamed(ctx, conn, opts.Library, cmdutil.ResolvePerson, conn.Person),
		personFields)
}

// personFlags shows is_hidden and is_favorite in the table.
func personFlags(p *api.Person) string {
	var flags []string
	if p.IsFavorite {
		flags = append(flags, "favorite")
	}
	if p.IsHidden {
		flags = append(flags, "hidden")
	}
	return cmdutil.OrDash(strings.Join(flags, ","))
}

// personFields are the label/value lines of `photoctl people get`.
func personFields(p *api.Person) [][]string {
	return [][]string{{"id", p.ID}, {"name", cmdutil.OrDash(cmdutil.Deref(p.Name))}, {"birth date", cmdutil.OrDash(cmdutil.Deref(p.BirthDate))},
		{"assets", strconv.Itoa(p.AssetCount)}, {"flags", personFlags(p)},
		{"featured face", cmdutil.OrDash(cmdutil.Deref(p.ThumbnailFaceID))}, {"library", p.LibraryID}}
}
