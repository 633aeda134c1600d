package people

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// CreateOptions are what `photoctl people create` was asked for.
type CreateOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary

	Name, BirthDate string
}

// NewCmdCreate returns `photoctl people create`; runF, when not nil, gets
// the parsed options instead of runCreate (tests).
var NewCmdCreate = cmdutil.Constructor(cmdutil.Command[CreateOptions]{
	Name:      "create",
	Usage:     "Create a person (or find the library's person of that name)",
	ArgsUsage: "NAME",
	Description: `Creates a named person, to give faces to (photoctl faces create --person). A
person with the same name (ignoring case) is returned instead of a second
one, unless --birth-date differs from theirs (a conflict, exit 1).

Example:
   photoctl people create "Ann" --birth-date 1990-04-01`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "birth-date", Usage: "born on `YYYY-MM-DD`"},
	},
	JSON: true,
	Args: cmdutil.ExactlyOne("want exactly one argument, the person's name"),
	Parse: func(c *cli.Context, args []string, opts *CreateOptions) error {
		opts.Name, opts.BirthDate = args[0], c.String("birth-date")
		return nil
	},
	Run: runCreate,
})

func runCreate(ctx context.Context, conn *cmdutil.APIConn, opts *CreateOptions) error {
	p, created, err := conn.CreatePerson(ctx, api.PersonCreateRequest{Name: opts.Name, LibraryID: cmdutil.Optional(opts.LibraryID),
		BirthDate: cmdutil.Optional(opts.BirthDate)})
	if err != nil {
		return err
	}
	verb := "Created"
	if !created {
		verb = "Found existing"
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, p, "%s person %s (%s).", verb, p.ID, cmdutil.Deref(p.Name))
}

// UpdateOptions are what rename, hide, unhide, favorite and unfavorite
// were asked for: the people (ids or names in Library), the change to
// apply to each, and the verb of the report.
type UpdateOptions struct {
	cmdutil.ClientOptions

	Library string
	People  []string
	Update  api.PersonUpdateRequest
	Verb    string
}

// renameWant is the usage error of `photoctl people rename`.
const renameWant = "want the person and the new name (or --clear and the person)"

// NewCmdRename returns `photoctl people rename`; runF, when not nil, gets
// the parsed options instead of runUpdate (tests).
var NewCmdRename = cmdutil.Constructor(cmdutil.Command[UpdateOptions]{
	Name:      "rename",
	Usage:     "Name or rename a person",
	ArgsUsage: "PERSON NAME",
	Description: `Gives a person a name (another person of the library may not have it), or
with --clear takes it away.

Example:
   photoctl people rename person_01hx... "Ann"
   photoctl people rename --clear person_01hx...`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.BoolFlag{Name: "clear", Usage: "remove the name"},
	},
	JSON: true,
	Args: cmdutil.Between(1, 2, renameWant),
	Parse: func(c *cli.Context, args []string, opts *UpdateOptions) error {
		name := api.Optional[string]{Set: true}
		switch {
		case len(args) == 2 && !c.Bool("clear"):
			name.Value = &args[1]
		case len(args) != 1 || !c.Bool("clear"):
			return cmdutil.UsageErrorf(c, renameWant)
		}
		parseUpdate(c, opts, args[:1], api.PersonUpdateRequest{Name: name}, "Renamed")
		return nil
	},
	Run: runUpdate,
})

// setFlagCmd is what hide, unhide, favorite and unfavorite share;
// NewCmdSetFlag names each and says what it sets.
var setFlagCmd = cmdutil.Command[UpdateOptions]{
	ArgsUsage: "PERSON...",
	Flags:     []cli.Flag{cmdutil.LibraryFlag()},
	JSON:      true,
	Args:      cmdutil.AtLeastOne("give at least one person id or name"),
	Run:       runUpdate,
}

// NewCmdSetFlag returns hide, unhide, favorite or unfavorite: a command
// named name that sets field (is_hidden or is_favorite) of people to
// value; runF, when not nil, gets the parsed options instead of runUpdate
// (tests).
func NewCmdSetFlag(f *cmdutil.Factory, runF func(*UpdateOptions) error, name, usage, field string, value bool) *cli.Command {
	cmd := setFlagCmd
	cmd.Name, cmd.Usage = name, usage
	cmd.Description = fmt.Sprintf(`Sets %s to %t on each person.

Example:
   photoctl people %s person_01hx... Ann`, field, value, name)
	cmd.Parse = func(c *cli.Context, args []string, opts *UpdateOptions) error {
		set := api.Optional[bool]{Set: true, Value: &value}
		var u api.PersonUpdateRequest
		if field == "is_hidden" {
			u.IsHidden = set
		} else {
			u.IsFavorite = set
		}
		parseUpdate(c, opts, args, u, "Updated")
		return nil
	}
	return cmdutil.New(f, cmd, runF)
}

// parseUpdate fills the options of an update of people.
func parseUpdate(c *cli.Context, opts *UpdateOptions, people []string, u api.PersonUpdateRequest, verb string) {
	opts.Library, opts.People, opts.Update, opts.Verb = c.String("library"), people, u, verb
}

// runUpdate applies the change to each person; with --json it prints the
// people after the change (one object for one).
func runUpdate(ctx context.Context, conn *cmdutil.APIConn, opts *UpdateOptions) error {
	var people []*api.Person
	err := cmdutil.EachID(opts.People, "update person", func(arg string) error {
		id, err := cmdutil.ResolvePerson(ctx, conn, opts.Library, arg)
		if err != nil {
			return err
		}
		p, err := conn.UpdatePerson(ctx, id, opts.Update)
		if err == nil {
			people = append(people, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintRecords(opts.IO, true, people, personFields)
	}
	for _, p := range people {
		fmt.Fprintf(opts.IO.Out, "%s person %s (%s).\n", opts.Verb, p.ID, cmdutil.Sanitize(cmdutil.OrDash(cmdutil.Deref(p.Name))))
	}
	return nil
}

// MergeOptions are what `photoctl people merge` was asked for: the person
// to keep, then those to merge into it (ids or names in Library).
type MergeOptions struct {
	cmdutil.ClientOptions

	Library string
	People  []string
}

// NewCmdMerge returns `photoctl people merge`; runF, when not nil, gets
// the parsed options instead of runMerge (tests).
var NewCmdMerge = cmdutil.Constructor(cmdutil.Command[MergeOptions]{
	Name:      "merge",
	Usage:     "Merge people into one",
	ArgsUsage: "PERSON OTHER...",
	Description: `Moves the faces of the OTHER people (up to 100, of the same library) to
PERSON and deletes them; PERSON keeps its own name and fields.

Example:
   photoctl people merge Ann person_01hy... person_01hz...`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Args:  cmdutil.Between(2, -1, "want the person to keep and at least one to merge into it"),
	Parse: func(c *cli.Context, args []string, opts *MergeOptions) error {
		opts.Library, opts.People = c.String("library"), args
		return nil
	},
	Run: runMerge,
})

func runMerge(ctx context.Context, conn *cmdutil.APIConn, opts *MergeOptions) error {
	ids, err := cmdutil.FetchEach(opts.People, func(arg string) (string, error) {
		return cmdutil.ResolvePerson(ctx, conn, opts.Library, arg)
	})
	if err != nil {
		return err
	}
	p, err := conn.MergePeople(ctx, ids[0], ids[1:])
	if err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, p, "Merged %d person(s) into %s (%s); it shows in %d asset(s).",
		len(ids)-1, p.ID, cmdutil.OrDash(cmdutil.Deref(p.Name)), p.AssetCount)
}
