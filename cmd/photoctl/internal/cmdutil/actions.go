package cmdutil

import (
	"context"

	"github.com/urfave/cli/v2"
)

// NoArgsAction is the Action of a command that takes flags only: it
// refuses an argument (a usage error), then hands the options opts reads
// from the command line to runF (tests) or run. Commands whose flags can
// be wrong check them in their own Action instead.
func NoArgsAction[O any](opts func(c *cli.Context) O, runF func(O) error, run func(context.Context, O) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := NoArgs(c); err != nil {
			return err
		}
		return Run(c.Context, opts(c), runF, run)
	}
}

// OneArgAction is the Action of a command that takes exactly one
// argument, a name or an id: anything else is a usage error with msg;
// then the options opts reads from the command line and the argument go
// to runF (tests) or run.
func OneArgAction[O any](msg string, opts func(c *cli.Context, arg string) O, runF func(O) error, run func(context.Context, O) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		args, err := NeedArgs(c, 1, 1, msg)
		if err != nil {
			return err
		}
		return Run(c.Context, opts(c, args[0]), runF, run)
	}
}
