package cmdutil

import "github.com/urfave/cli/v2"

// LibraryFlag is --library, taking an id or a name: the flag of every
// command that works in one library (albums, people, stacks, tasks, the
// asset filters, ...).
func LibraryFlag() cli.Flag {
	return &cli.StringFlag{Name: "library", Usage: "library `ID or NAME` (or $PHOTOCTL_LIBRARY); needed when you have several and no default (libraries switch)"}
}

// Optional is nil for "", else a pointer to s: the optional strings of
// create and update requests.
func Optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
