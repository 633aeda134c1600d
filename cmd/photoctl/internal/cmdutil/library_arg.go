package cmdutil

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
)

// LibraryFlag is --library, taking an id or a name: the flag of every
// command that works in one library.
func LibraryFlag() cli.Flag {
	return &cli.StringFlag{Name: "library", Usage: "library `ID or NAME` (or $PHOTOCTL_LIBRARY); needed when you have several and no default (libraries switch)"}
}

// LibraryArg is the --library of a command whose route names a library
// in its path, kept in its Options for its run, which has no cli.Context.
type LibraryArg struct {
	// Value is the flag as given: an id, a name, or "" for the default.
	Value string
	// Help is the command whose --help a usage error names.
	Help string
}

// LibraryArgOf reads the --library of c's command.
func LibraryArgOf(c *cli.Context) LibraryArg {
	return LibraryArg{Value: c.String("library"), Help: c.Command.HelpName}
}

// ID is the library l names: --library, else the profile's default, else
// the caller's only library.
func (l LibraryArg) ID(ctx context.Context, conn *APIConn) (string, error) {
	id, err := ResolveLibrary(ctx, conn, l.Value)
	if err != nil || id != "" {
		return id, err
	}
	libs, err := client.Collect(conn.Libraries(ctx))
	if err != nil {
		return "", err
	}
	if len(libs) != 1 {
		return "", &UsageError{Err: fmt.Errorf("you have %d libraries: name one with --library (or 'photoctl libraries switch')", len(libs)), Help: l.Help}
	}
	return libs[0].ID, nil
}
