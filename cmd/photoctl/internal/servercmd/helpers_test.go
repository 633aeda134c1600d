//go:build !client

package servercmd

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// newFactory returns a Factory with cmdtest's buffered streams and no
// server hooks: a runF test never runs the command.
func newFactory(t *testing.T) *Factory {
	t.Helper()
	f, _ := cmdtest.NewFactory(t, "")
	return &Factory{Factory: f}
}

// parse runs the command newCmd builds on args with a runF that captures
// its Options, and returns them.
func parse[O any](t *testing.T, newCmd func(*Factory, func(*O) error) *cli.Command, args ...string) *O {
	t.Helper()
	var got *O
	require.NoError(t, cmdtest.Run(t, newCmd(newFactory(t), func(o *O) error { got = o; return nil }), args...))
	require.NotNil(t, got, "runF was not called")
	return got
}

// requireRefusals requires a usage error for each command line of cases;
// a command that goes on to its run returns no error and fails the case.
func requireRefusals[O any](t *testing.T, newCmd func(*Factory, func(*O) error) *cli.Command, cases map[string][]string) {
	t.Helper()
	cmdtest.RequireUsageErrors(t, func(f *cmdutil.Factory) *cli.Command {
		return newCmd(&Factory{Factory: f}, func(*O) error { return nil })
	}, cases)
}

// requireNotRun requires that args are refused, with an error that is
// not a usage error (a problem of the configuration, exit 1), before
// runF.
func requireNotRun[O any](t *testing.T, newCmd func(*Factory, func(*O) error) *cli.Command, want string, args ...string) {
	t.Helper()
	err := cmdtest.Run(t, newCmd(newFactory(t), func(*O) error {
		t.Error("runF was called")
		return nil
	}), args...)
	require.ErrorContains(t, err, want)
	var usage *cmdutil.UsageError
	require.False(t, errors.As(err, &usage), "not a usage error: %v", err)
}
