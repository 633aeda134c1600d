package cmdtest

import (
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// Parse runs the command newCmd builds, with a runF that keeps its
// options, on args (stdin is its standard input), requires that it ran,
// and returns the options: a runF test in one line.
func Parse[O any](t testing.TB, newCmd func(*cmdutil.Factory, func(O) error) *cli.Command, stdin string, args ...string) O {
	t.Helper()
	f, _ := NewFactory(t, stdin)
	var got O
	ran := false
	cmd := newCmd(f, func(o O) error { got, ran = o, true; return nil })
	if err := Run(t, cmd, args...); err != nil || !ran {
		t.Fatalf("%q: got %v, want the options parsed", args, err)
	}
	return got
}

// WithoutRun is newCmd with no runF, as RequireUsageErrors builds it.
func WithoutRun[O any](newCmd func(*cmdutil.Factory, func(O) error) *cli.Command) func(*cmdutil.Factory) *cli.Command {
	return func(f *cmdutil.Factory) *cli.Command { return newCmd(f, nil) }
}
