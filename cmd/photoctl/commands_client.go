//go:build client

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// The client build (`make build`'s bin/photoctl, `go build -tags client`)
// leaves out every command that runs or administers the server, and with
// them libvips, SQLite and fiber: it is a static binary that starts in a
// few milliseconds and runs where those are not installed. Its server
// commands hand the whole command line to photoctl-server.

// factory holds only the client commands' dependencies in the client build.
type factory struct{ *cmdutil.Factory }

// newFactory returns the dependencies of the client build.
func newFactory() *factory { return &factory{cmdutil.NewFactory()} }

// serverBinaryEnv names the full build explicitly, before the lookups.
const serverBinaryEnv = "PHOTOCTL_SERVER_BINARY"

// errNoServerBinary is what a server command says when photoctl-server is
// nowhere to be found.
var errNoServerBinary = errors.New("runs in " + serverBinaryName + ", which is neither beside photoctl nor on PATH; " +
	"install both with 'make install' (or build everything into one binary with go install -tags sqlite_fts5 ./cmd/photoctl)")

// serverCommands are the server commands as the help lists them; each
// passes the command line, as typed, to photoctl-server.
func serverCommands(*factory) []*cli.Command {
	var out []*cli.Command
	for _, s := range serverCommandSummaries {
		out = append(out, &cli.Command{
			Name:            s.name,
			Usage:           s.usage,
			Hidden:          s.hidden,
			SkipFlagParsing: true, // --help included: photoctl-server answers it
			Action: func(c *cli.Context) error {
				path, err := findServerBinary()
				if err != nil {
					return &cmdutil.UsageError{Err: fmt.Errorf("%s %w", s.name, err)}
				}
				return runServerBinary(path, os.Args[1:])
			},
			// The shell's completions of its subcommands and flags come from
			// photoctl-server too; none when it is missing.
			BashComplete: func(*cli.Context) {
				if path, err := findServerBinary(); err == nil {
					_ = runServerBinary(path, os.Args[1:])
				}
			},
		})
	}
	return out
}

// findServerBinary is $PHOTOCTL_SERVER_BINARY, else photoctl-server beside
// this executable (symbolic links followed: a link in ~/bin to a build
// still finds its sibling), else on PATH.
func findServerBinary() (string, error) {
	if path := os.Getenv(serverBinaryEnv); path != "" {
		if !isExecutable(path) {
			return "", fmt.Errorf("cannot run %s=%s", serverBinaryEnv, path)
		}
		return path, nil
	}
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		if path := filepath.Join(filepath.Dir(self), serverBinaryName); isExecutable(path) {
			return path, nil
		}
	}
	if path, err := exec.LookPath(serverBinaryName); err == nil {
		return path, nil
	}
	return "", errNoServerBinary
}

// isExecutable reports whether path is a regular file someone may run.
func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// runServerBinary replaces this process with photoctl-server (same pid,
// signals, standard streams and exit status: systemd and scripts see one
// process); where exec(2) is missing it runs it as a child and exits with
// its status.
func runServerBinary(path string, args []string) error {
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	if !errors.Is(err, errors.ErrUnsupported) { // Windows: EWINDOWS
		return fmt.Errorf("run %s: %w", path, err)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("run %s: %w", path, err)
	}
	os.Exit(0)
	return nil
}
