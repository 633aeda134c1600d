package cmdtest

import (
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// Parse runs the command newCmd builds, with a test Factory whose standard
// input reads stdin, on the command line args, and returns the Options its
// runF got; the command failing, or not reaching its runF, fails the test.
func Parse[O any](t *testing.T, newCmd func(*cmdutil.Factory, func(*O) error) *cli.Command, stdin string, args ...string) *O {
	t.Helper()
	f, _ := NewFactory(t, stdin)
	var got *O
	if err := Run(t, newCmd(f, func(o *O) error { got = o; return nil }), args...); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	if got == nil {
		t.Fatalf("%q: the command did not reach its run", args)
	}
	return got
}

// WithoutRunF adapts a NewCmdX to RequireUsageErrors: the command it
// builds has no runF, so one that wrongly went on would connect and fail.
func WithoutRunF[O any](newCmd func(*cmdutil.Factory, func(O) error) *cli.Command) func(*cmdutil.Factory) *cli.Command {
	return func(f *cmdutil.Factory) *cli.Command { return newCmd(f, nil) }
}
