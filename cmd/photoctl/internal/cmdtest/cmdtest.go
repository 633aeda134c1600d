// Package cmdtest runs one client command in-process for its tests: a
// cmdutil.Factory whose streams are buffers and whose connection fails the
// test, and a runner that parses a command line as photoctl would. With it
// a command's runF test checks the parsed Options with no process and no
// server.
package cmdtest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// Streams are the buffers a test Factory's commands write to.
type Streams struct {
	Out, Err bytes.Buffer
}

// NewFactory returns a Factory for tests: standard input reads stdin,
// output goes to the returned buffers, and connecting fails the test (a
// runF test never connects).
func NewFactory(t testing.TB, stdin string) (*cmdutil.Factory, *Streams) {
	t.Helper()
	s := &Streams{}
	return &cmdutil.Factory{
		Streams: func(*cli.Context) *cmdutil.Streams {
			return &cmdutil.Streams{In: strings.NewReader(stdin), Out: &s.Out, Err: &s.Err}
		},
		Connect: func(*cli.Context, bool) (*cmdutil.APIConn, error) {
			t.Error("unexpected connection to a server")
			return nil, errors.New("no server in this test")
		},
	}, s
}

// Run parses args (flags first, then arguments) as cmd's command line
// under a bare root command, and runs it; it returns what the command's
// Action returned. urfave's own output (help, flag errors) is discarded.
func Run(t testing.TB, cmd *cli.Command, args ...string) error {
	t.Helper()
	a := &cli.App{
		Name:           "photoctl",
		Commands:       []*cli.Command{cmd},
		Writer:         io.Discard,
		ErrWriter:      io.Discard,
		ExitErrHandler: func(*cli.Context, error) {},
	}
	return a.RunContext(context.Background(), append([]string{"photoctl", cmd.Name}, args...))
}

// RequireUsageErrors runs the command newCmd builds once per case (a name
// and a command line) and requires a usage error (exit 2) each time. The
// command gets a test Factory, so one that wrongly went on to its run
// fails the test when it connects.
func RequireUsageErrors(t *testing.T, newCmd func(*cmdutil.Factory) *cli.Command, cases map[string][]string) {
	t.Helper()
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			f, _ := NewFactory(t, "")
			var usage *cmdutil.UsageError
			if err := Run(t, newCmd(f), args...); !errors.As(err, &usage) {
				t.Errorf("%q: got %v, want a usage error", args, err)
			}
		})
	}
}
