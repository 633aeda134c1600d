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
	return &cli.StringFlag{Name: "library", Usage: "library `ID or NAME`; needed when you have several libraries"}
}

// resolveLibrary turns --library into an id: an id (lib_…) is used as
// given, a name is looked up among the caller's libraries (ignoring case
// and surrounding spaces). "" stays "": the server then applies its rule
// (fine with one library, a 422 with several).
func resolveLibrary(ctx context.Context, conn *apiConn, value string) (string, error) {
	value = strings.TrimSpace(value)
	if value == "" || strings.HasPrefix(value, "lib_") {
		return value, nil
	}
	var names []string
	for l, err := range conn.Libraries(ctx) {
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

// newLibrariesCommand returns `photoctl libraries`.
func newLibrariesCommand() *cli.Command {
	return &cli.Command{
		Name:  "libraries",
		Usage: "List and create libraries",
		Description: `A library holds assets, albums and people. Commands that work in a library
take --library with its id or name; it may be left out while you have one.

Example:
   photoctl libraries list
   photoctl libraries create "Family archive"`,
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "List your libraries with your role in each",
				Description: `Prints the libraries you own or belong to, newest first.

Example:
   photoctl libraries list --json | jq -r '.[].id'`,
				Flags: append(clientFlags(), jsonFlag()),
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					conn, err := connect(c, true)
					if err != nil {
						return err
					}
					return runLibrariesList(c.Context, conn, c.Bool("json"), newStreams(c))
				},
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
				Action: func(c *cli.Context) error {
					if args, err := positional(c); err != nil || len(args) != 1 {
						if err != nil {
							return err
						}
						return usageErrorf(c, "want exactly one argument, the library name")
					}
					conn, err := connect(c, true)
					if err != nil {
						return err
					}
					lib, created, err := conn.CreateLibrary(c.Context, c.Args().First())
					if err != nil {
						return err
					}
					io := newStreams(c)
					if c.Bool("json") {
						return printJSON(io.Out, lib)
					}
					verb := "Created"
					if !created {
						verb = "Found existing"
					}
					_, err = fmt.Fprintf(io.Out, "%s library %s (%s).\n", verb, lib.ID, lib.Name)
					return err
				},
			},
		},
		Action: groupAction(cli.ShowSubcommandHelp),
	}
}

func runLibrariesList(ctx context.Context, conn *apiConn, asJSON bool, io *streams) error {
	libs, err := client.Collect(conn.Libraries(ctx))
	if err != nil {
		return err
	}
	if asJSON {
		if libs == nil {
			libs = []api.Library{}
		}
		return printJSON(io.Out, libs)
	}
	rows := make([][]string, 0, len(libs))
	for _, l := range libs {
		rows = append(rows, []string{l.ID, l.Name, l.Role, l.CreatedAt.Local().Format(time.DateOnly)})
	}
	return printTable(io, []string{"ID", "NAME", "ROLE", "CREATED"}, rows)
}
