// Package libraries holds the client commands about libraries and who
// shares them: `photoctl libraries` (list, create, switch, trash,
// restore), `photoctl invite` (invitations and joining with one) and
// `photoctl members` (roles, removal, leaving). Each command is an Options
// struct, a NewCmdX(f, runF) that parses the command line into it, and a
// runX that does the work.
package libraries

import (
	"context"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdLibraries returns `photoctl libraries`, which only groups its subcommands.
func NewCmdLibraries(f *cmdutil.Factory) *cli.Command {
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
		Subcommands: []*cli.Command{NewCmdList(f, nil), NewCmdCreate(f, nil),
			NewCmdAction(f, "switch", nil), NewCmdAction(f, "trash", nil), NewCmdAction(f, "restore", nil)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// ListOptions are what `photoctl libraries list` was asked for.
type ListOptions struct {
	cmdutil.ClientOptions

	// State is live (""), trashed or all.
	State string
}

// NewCmdList returns `photoctl libraries list`; runF, when not nil, gets
// the parsed options instead of runList (tests).
var NewCmdList = cmdutil.Constructor(cmdutil.Command[ListOptions]{
	Name:  "list",
	Usage: "List your libraries with your role in each",
	Description: `Prints the libraries you own or belong to, newest first; the default of your
profile (photoctl libraries switch) is marked with *.

Example:
   photoctl libraries list --json | jq -r '.[].id'
   photoctl libraries list --state trashed`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "state", Usage: "`live` (default), trashed or all"},
	},
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *ListOptions) error {
		opts.State = c.String("state")
		return nil
	},
	Run: runList,
})

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	libs, err := client.Collect(conn.LibrariesIn(ctx, opts.State))
	if err != nil {
		return err
	}
	def := cmdutil.ProfileLibrary(conn)
	return cmdutil.PrintList(opts.IO, opts.JSON, libs, []string{"", "ID", "NAME", "ROLE", "CREATED", "TRASHED"}, func(l api.Library) []string {
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

// CreateOptions are what `photoctl libraries create` was asked for.
type CreateOptions struct {
	cmdutil.ClientOptions

	Name string
}

// NewCmdCreate returns `photoctl libraries create`; runF, when not nil,
// gets the parsed options instead of runCreate (tests).
var NewCmdCreate = cmdutil.Constructor(cmdutil.Command[CreateOptions]{
	Name:      "create",
	Usage:     "Create a library (or find yours of that name)",
	ArgsUsage: "NAME",
	Description: `Creates a library you own. A library of yours with the same name (ignoring
case) is returned instead of a second one. Needs a signed-in session, not an
API key.

Example:
   photoctl libraries create "Family archive"`,
	JSON: true,
	Args: cmdutil.ExactlyOne("want exactly one argument, the library name"),
	Parse: func(_ *cli.Context, args []string, opts *CreateOptions) error {
		opts.Name = args[0]
		return nil
	},
	Run: runCreate,
})

func runCreate(ctx context.Context, conn *cmdutil.APIConn, opts *CreateOptions) error {
	lib, created, err := conn.CreateLibrary(ctx, opts.Name)
	if err != nil {
		return err
	}
	verb := "Created"
	if !created {
		verb = "Found existing"
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, lib, "%s library %s (%s).", verb, lib.ID, lib.Name)
}
