package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newPeopleCommand returns `photoctl people`.
func newPeopleCommand() *cli.Command {
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
		Subcommands: []*cli.Command{newPeopleListCommand(), newPeopleGetCommand(), newPeopleCreateCommand(),
			newPeopleRenameCommand(), newPeopleMergeCommand(),
			newPersonFlagCommand("hide", "Hide people from the people views", "is_hidden", true),
			newPersonFlagCommand("unhide", "Show hidden people again", "is_hidden", false),
			newPersonFlagCommand("favorite", "Mark people as favorites", "is_favorite", true),
			newPersonFlagCommand("unfavorite", "Unmark favorite people", "is_favorite", false)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newPeopleListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List people, newest first, with filters",
		Description: `Lists the people of a library with how many assets show them. Filters
combine. Hidden people are listed (marked in the table) unless --no-hidden.
With --json the output is a JSON array of the API's Person records.

Example:
   photoctl people list --named --name ann
   photoctl people list --album "Summer 2024"
   photoctl people list --include-unverified --unnamed --json | jq -r '.[].id'`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringSliceFlag{Name: "id", Usage: "only these person `ID`s (repeat or comma-separate; at most 100)"},
			&cli.StringFlag{Name: "name", Usage: "only people whose name contains `TEXT` (ignoring case)"},
			&cli.BoolFlag{Name: "named", Usage: "only people with a name"},
			&cli.BoolFlag{Name: "unnamed", Usage: "only people without a name"},
			&cli.StringFlag{Name: "asset", Usage: "only people with a face in asset `ID`"},
			&cli.StringFlag{Name: "album", Usage: "only people with a face in album `ID or NAME`"},
			&cli.BoolFlag{Name: "include-unverified", Usage: "add machine clusters with too few faces to be sure"},
			&cli.BoolFlag{Name: "no-hidden", Usage: "leave hidden people out"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "",
			func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
				if c.Bool("named") && c.Bool("unnamed") {
					return cmdutil.UsageErrorf(c, "give --named or --unnamed, not both")
				}
				lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
				if err != nil {
					return err
				}
				q := client.PersonQuery{LibraryID: lib, IDs: cmdutil.SplitList(c.StringSlice("id")), Name: c.String("name"),
					AssetID: c.String("asset"), IncludeUnverified: c.Bool("include-unverified")}
				if c.Bool("named") || c.Bool("unnamed") {
					named := c.Bool("named")
					q.Named = &named
				}
				if c.String("album") != "" {
					if q.AlbumID, err = resolveAlbum(c, conn, c.String("album")); err != nil {
						return err
					}
				}
				var people []api.Person
				for p, err := range conn.People(c.Context, q) {
					if err != nil {
						return err
					}
					if !p.IsHidden || !c.Bool("no-hidden") {
						people = append(people, p)
					}
				}
				io := cmdutil.NewStreams(c)
				if err := cmdutil.PrintList(io, c.Bool("json"), people, []string{"ID", "NAME", "ASSETS", "BIRTH DATE", "FLAGS"},
					func(p api.Person) []string {
						return []string{p.ID, cmdutil.OrDash(cmdutil.Deref(p.Name)), strconv.Itoa(p.AssetCount), cmdutil.OrDash(cmdutil.Deref(p.BirthDate)), personFlags(&p)}
					}); err != nil {
					return err
				}
				if len(people) == 0 && !q.IncludeUnverified && !c.Bool("json") {
					return hintUnverified(c, conn, q, io)
				}
				return nil
			}),
	}
}

func newPeopleGetCommand() *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "Show people in full",
		ArgsUsage: "PERSON...",
		Description: `Prints each person's fields, or with --json the API's Person record (one
object for one person, an array for several).

Example:
   photoctl people get Ann
   photoctl people get person_01hx... --json | jq .asset_count`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one person id or name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				people, err := cmdutil.FetchEach(args, func(arg string) (*api.Person, error) {
					id, err := resolvePerson(c, conn, arg)
					if err != nil {
						return nil, err
					}
					return conn.Person(c.Context, id)
				})
				if err != nil {
					return err
				}
				return cmdutil.PrintRecords(cmdutil.NewStreams(c), c.Bool("json"), people, personFields)
			}),
	}
}

func newPeopleCreateCommand() *cli.Command {
	return &cli.Command{
		Name:      "create",
		Usage:     "Create a person (or find the library's person of that name)",
		ArgsUsage: "NAME",
		Description: `Creates a named person, to give faces to (photoctl faces create --person). A
person with the same name (ignoring case) is returned instead of a second
one, unless --birth-date differs from theirs (a conflict, exit 1).

Example:
   photoctl people create "Ann" --birth-date 1990-04-01`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "birth-date", Usage: "born on `YYYY-MM-DD`"}, cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the person's name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
				if err != nil {
					return err
				}
				p, created, err := conn.CreatePerson(c.Context, api.PersonCreateRequest{Name: args[0], LibraryID: optional(lib),
					BirthDate: optional(c.String("birth-date"))})
				if err != nil {
					return err
				}
				verb := "Created"
				if !created {
					verb = "Found existing"
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), p, "%s person %s (%s).", verb, p.ID, cmdutil.Deref(p.Name))
			}),
	}
}

func newPeopleRenameCommand() *cli.Command {
	return &cli.Command{
		Name:      "rename",
		Usage:     "Name or rename a person",
		ArgsUsage: "PERSON NAME",
		Description: `Gives a person a name (another person of the library may not have it), or
with --clear takes it away.

Example:
   photoctl people rename person_01hx... "Ann"
   photoctl people rename --clear person_01hx...`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.BoolFlag{Name: "clear", Usage: "remove the name"}, cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 2, "want the person and the new name (or --clear and the person)",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				name := api.Optional[string]{Set: true}
				switch {
				case len(args) == 2 && !c.Bool("clear"):
					name.Value = &args[1]
				case len(args) != 1 || !c.Bool("clear"):
					return cmdutil.UsageErrorf(c, "want the person and the new name (or --clear and the person)")
				}
				return updatePeople(c, conn, args[:1], api.PersonUpdateRequest{Name: name}, "Renamed")
			}),
	}
}

func newPeopleMergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "Merge people into one",
		ArgsUsage: "PERSON OTHER...",
		Description: `Moves the faces of the OTHER people (up to 100, of the same library) to
PERSON and deletes them; PERSON keeps its own name and fields.

Example:
   photoctl people merge Ann person_01hy... person_01hz...`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(2, -1, "want the person to keep and at least one to merge into it",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				ids, err := cmdutil.FetchEach(args, func(arg string) (string, error) { return resolvePerson(c, conn, arg) })
				if err != nil {
					return err
				}
				p, err := conn.MergePeople(c.Context, ids[0], ids[1:])
				if err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), p, "Merged %d person(s) into %s (%s); it shows in %d asset(s).",
					len(ids)-1, p.ID, cmdutil.OrDash(cmdutil.Deref(p.Name)), p.AssetCount)
			}),
	}
}

// newPersonFlagCommand returns hide, unhide, favorite or unfavorite: a
// command that sets one boolean field of people.
func newPersonFlagCommand(name, usage, field string, value bool) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     usage,
		ArgsUsage: "PERSON...",
		Description: fmt.Sprintf(`Sets %s to %t on each person.

Example:
   photoctl people %s person_01hx... Ann`, field, value, name),
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one person id or name",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				set := api.Optional[bool]{Set: true, Value: &value}
				var u api.PersonUpdateRequest
				if field == "is_hidden" {
					u.IsHidden = set
				} else {
					u.IsFavorite = set
				}
				return updatePeople(c, conn, args, u, "Updated")
			}),
	}
}

// updatePeople applies u to each person named by args; with --json it
// prints the people after the change (one object for one).
func updatePeople(c *cli.Context, conn *cmdutil.APIConn, args []string, u api.PersonUpdateRequest, verb string) error {
	var people []*api.Person
	err := cmdutil.EachID(args, "update person", func(arg string) error {
		id, err := resolvePerson(c, conn, arg)
		if err != nil {
			return err
		}
		p, err := conn.UpdatePerson(c.Context, id, u)
		if err == nil {
			people = append(people, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	io := cmdutil.NewStreams(c)
	if c.Bool("json") {
		return cmdutil.PrintRecords(io, true, people, personFields)
	}
	for _, p := range people {
		fmt.Fprintf(io.Out, "%s person %s (%s).\n", verb, p.ID, cmdutil.Sanitize(cmdutil.OrDash(cmdutil.Deref(p.Name))))
	}
	return nil
}

// resolvePerson turns a person id or name into an id among the people of
// --library (cmdutil.ResolvePerson).
func resolvePerson(c *cli.Context, conn *cmdutil.APIConn, value string) (string, error) {
	return cmdutil.ResolvePerson(c.Context, conn, c.String("library"), value)
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
