package cmdutil

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"
)

// ErrPartialFailure is wrapped by commands that did part of their work
// (for example an upload where some files failed); it exits 3.
var ErrPartialFailure = errors.New("partial failure")

// UsageError is a command line or configuration the user has to fix; it
// exits 2. Help names the command whose --help explains the usage.
type UsageError struct {
	Err  error
	Help string
}

func (e *UsageError) Error() string { return e.Err.Error() }

func (e *UsageError) Unwrap() error { return e.Err }

// UsageErrorf returns a UsageError that points at the help of c's command.
func UsageErrorf(c *cli.Context, format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...), Help: c.Command.HelpName}
}

// GroupAction returns the action of a command that only groups
// subcommands: it shows the help, or fails with a usage error on an unknown
// subcommand (urfave would otherwise print "No help topic" to stdout).
func GroupAction(showHelp func(*cli.Context) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.Args().Present() {
			return UsageErrorf(c, "unknown command %q", c.Args().First())
		}
		return showHelp(c)
	}
}

// NoArgs rejects positional arguments on commands that take none.
func NoArgs(c *cli.Context) error {
	if c.Args().Present() {
		return UsageErrorf(c, "unexpected argument %q", c.Args().First())
	}
	return nil
}
