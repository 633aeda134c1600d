package cmdutil

import (
	"context"

	"github.com/urfave/cli/v2"
)

// connector is what a command's Options have through ClientOptions: the
// lazy connection. RunConnected takes any of them.
type connector interface{ connect() (*APIConn, error) }

func (o ClientOptions) connect() (*APIConn, error) { return o.Conn() }

// RunConnected is Run for a command whose work starts by connecting (most
// of them): it connects once the options are parsed and hands run the
// connection, so that runs do not each open with the same four lines.
func RunConnected[O connector](ctx context.Context, opts O, runF func(O) error,
	run func(context.Context, *APIConn, O) error) error {
	if runF != nil {
		return runF(opts)
	}
	conn, err := opts.connect()
	if err != nil {
		return err
	}
	return run(ctx, conn, opts)
}

// ParseAction is the action of a client command: it takes from least to
// most arguments (none when both are 0; msg says what is wanted), builds
// the options from the command line with parse (its errors are usage
// errors, before any connection), and runs them as RunConnected does.
func ParseAction[O connector](least, most int, msg string, runF func(O) error,
	run func(context.Context, *APIConn, O) error, parse func(c *cli.Context, args []string) (O, error)) cli.ActionFunc {
	return func(c *cli.Context) error {
		args, err := Args(c, least, most, msg)
		if err != nil {
			return err
		}
		opts, err := parse(c, args)
		if err != nil {
			return err
		}
		return RunConnected(c.Context, opts, runF, run)
	}
}

// EachAction is the action of a command that acts on every id it is
// given (ParseEach; msg says what is wanted): wrap makes the command's
// options of them, which run as Run does (EachOptions.Act connects).
func EachAction[O any](f *Factory, msg string, wrap func(c *cli.Context, each EachOptions) O, runF func(O) error,
	run func(context.Context, O) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		each, err := ParseEach(f, c, msg)
		if err != nil {
			return err
		}
		return Run(c.Context, wrap(c, each), runF, run)
	}
}
