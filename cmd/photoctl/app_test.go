package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/servercmd"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/catalog"
)

// cliResult is what one run of the CLI produced.
type cliResult struct {
	stdout, stderr string
	code           int
}

// isolate gives the test a clean environment: no PHOTOCTL_* variables, and
// XDG config and data homes in fresh temporary directories, which it returns.
// Tests that call isolate cannot run in parallel (t.Setenv).
func isolate(t *testing.T) (configHome, dataHome string) {
	t.Helper()
	return cmdtest.Isolate(t)
}

// stubFactory returns a factory whose server side fails the test if used;
// tests replace the functions they expect to be called.
func stubFactory(t *testing.T) *factory {
	t.Helper()
	cf := cmdutil.NewFactory()
	return &factory{Factory: cf, server: &servercmd.Factory{
		Factory: cf,
		RunServer: func(context.Context, app.Config, *slog.Logger) error {
			t.Error("unexpected call to runServer")
			return errors.New("not stubbed")
		},
		CreateUser: func(context.Context, app.Config, app.NewUser) (*catalog.User, error) {
			t.Error("unexpected call to createUser")
			return nil, errors.New("not stubbed")
		},
	}}
}

// runCLI runs the real command tree with args (without the program name),
// stdin as standard input, and captures both output streams.
func runCLI(t *testing.T, f *factory, stdin string, args ...string) cliResult {
	t.Helper()
	return runCLIContext(context.Background(), t, f, stdin, args...)
}

// runCLIContext is runCLI with a context, for tests that cancel the run.
func runCLIContext(ctx context.Context, t *testing.T, f *factory, stdin string, args ...string) cliResult {
	t.Helper()
	if f == nil {
		f = stubFactory(t)
	}
	a := newApp(f)
	var out, errOut bytes.Buffer
	a.Reader, a.Writer, a.ErrWriter = strings.NewReader(stdin), &out, &errOut
	code := execute(ctx, a, append([]string{"photoctl"}, args...))
	return cliResult{stdout: out.String(), stderr: errOut.String(), code: code}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"no error is success", nil, exitOK},
		{"an unknown error is a failure", errors.New("boom"), exitFailure},
		{"a usage error exits 2", &cmdutil.UsageError{Err: errors.New("bad flag")}, exitUsage},
		{"a wrapped usage error exits 2", fmt.Errorf("run: %w", &cmdutil.UsageError{Err: errors.New("x")}), exitUsage},
		{"an urfave exit error is a usage error", cli.Exit("No help topic for 'x'", 3), exitUsage},
		{"a rejected argument is a usage error", fmt.Errorf("create user: %w", catalog.InvalidField("value_error", "not a valid e-mail address", "x", "body", "email")), exitUsage},
		{"a partial failure exits 3", fmt.Errorf("upload: 2 of 5 failed: %w", cmdutil.ErrPartialFailure), exitPartial},
		{"unauthenticated exits 4", fmt.Errorf("list: %w", catalog.ErrUnauthenticated), exitAuth},
		{"forbidden exits 4", catalog.Coded(catalog.ErrForbidden, "not_owner", "not yours"), exitAuth},
		{"a conflict is a plain failure", fmt.Errorf("create: %w", catalog.ErrConflict), exitFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, exitCode(tt.err))
		})
	}
}

// commandPaths lists the argument paths of every command in the tree.
func commandPaths(prefix []string, cmds []*cli.Command) [][]string {
	var out [][]string
	for _, c := range cmds {
		path := append(append([]string{}, prefix...), c.Name)
		out = append(out, path)
		out = append(out, commandPaths(path, c.Subcommands)...)
	}
	return out
}

func TestEveryCommandHasHelpWithAnExample(t *testing.T) {
	isolate(t)
	a := newApp(stubFactory(t))
	require.NotEmpty(t, a.Usage)
	require.Contains(t, a.Description, "Example:")
	for _, path := range commandPaths(nil, a.Commands) {
		t.Run(strings.Join(path, " "), func(t *testing.T) {
			r := runCLI(t, nil, "", append(path, "--help")...)
			require.Equal(t, exitOK, r.code, r.stderr)
			require.Empty(t, r.stderr)
			require.Contains(t, r.stdout, "photoctl "+strings.Join(path, " ")+" - ")
			require.Contains(t, r.stdout, "DESCRIPTION:")
			require.Contains(t, r.stdout, "Example:")
		})
	}
}

func TestRootHelpListsExitStatus(t *testing.T) {
	isolate(t)
	r := runCLI(t, nil, "", "--help")
	require.Equal(t, exitOK, r.code)
	require.Contains(t, r.stdout, "EXIT STATUS:")
	for _, code := range []string{"0  success", "1  failure", "2  usage", "3  partial failure", "4  authentication"} {
		require.Contains(t, r.stdout, code)
	}
	require.Contains(t, r.stdout, "--config FILE")
	require.Contains(t, r.stdout, "$PHOTOCTL_CONFIG")
}

func TestVersion(t *testing.T) {
	isolate(t)
	r := runCLI(t, nil, "", "--version")
	require.Equal(t, exitOK, r.code)
	require.Equal(t, "photoctl version "+cmdutil.Version+"\n"+dataCredits+"\n", r.stdout)
	require.Contains(t, r.stdout, "GeoNames (geonames.org), CC BY 4.0", "the towns' licence asks for credit")
}

func TestUsageErrorsExit2OnStderr(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantStderr string
	}{
		{"an unknown command", []string{"bogus"}, `unknown command "bogus"`},
		{"an unknown admin command", []string{"admin", "bogus"}, "Run 'photoctl admin --help' for usage."},
		{"an unknown help topic", []string{"help", "bogus"}, "No help topic for 'bogus'"},
		{"an unknown flag", []string{"serve", "--bogus"}, "flag provided but not defined: -bogus"},
		{"a flag without its value", []string{"serve", "--listen"}, "flag needs an argument: -listen"},
		{"a non-numeric upload limit", []string{"serve", "--max-upload-bytes", "ten"}, `invalid value "ten"`},
		{"a stray argument", []string{"config", "show", "extra"}, `unexpected argument "extra"`},
		{"an unknown global flag", []string{"--bogus", "serve"}, "Run 'photoctl --help' for usage."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			r := runCLI(t, nil, "", tt.args...)
			require.Equal(t, exitUsage, r.code)
			require.Empty(t, r.stdout, "usage errors must not write to stdout")
			require.Contains(t, r.stderr, tt.wantStderr)
			require.True(t, strings.HasPrefix(r.stderr, "photoctl: "), r.stderr)
		})
	}
}

func TestGroupWithoutSubcommandShowsHelp(t *testing.T) {
	isolate(t)
	for _, group := range []string{"admin", "config"} {
		r := runCLI(t, nil, "", group)
		require.Equal(t, exitOK, r.code)
		require.Contains(t, r.stdout, "COMMANDS:")
	}
}
