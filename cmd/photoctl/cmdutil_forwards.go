package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// Helpers that the commands still in package main share with the moved
// ones went to cmdutil with their first users; these forward to them, and
// each goes when its last caller here moves to a clientcmd package.

// libraryFlag is cmdutil.LibraryFlag.
func libraryFlag() cli.Flag { return cmdutil.LibraryFlag() }

// readStdinIDs is cmdutil.ReadStdinIDs on the command's standard input;
// the true says the ids came from there.
func readStdinIDs(c *cli.Context) ([]string, bool, error) {
	ids, err := cmdutil.ReadStdinIDs(c.App.Reader)
	return ids, true, err
}

// idsOrStdin is cmdutil.IDsOrStdin on the command's standard input.
func idsOrStdin(c *cli.Context, args []string) ([]string, error) {
	return cmdutil.IDsOrStdin(c, c.App.Reader, args)
}

// confirm is cmdutil.Confirm.
func confirm(in io.Reader, s *cmdutil.Streams, question string) (bool, error) {
	return cmdutil.Confirm(in, s, question)
}
