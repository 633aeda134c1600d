//go:build client

package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"
)

// The client-only build (`make client`, `go build -tags client`) leaves
// out every command that runs or administers the server, and with them
// libvips, SQLite and fiber: it is a static binary that runs where those
// are not installed.

// factory holds nothing in the client-only build: the client commands
// take their dependencies from their flags and the configuration.
type factory struct{}

// newFactory returns the (empty) dependencies of the client-only build.
func newFactory() *factory { return &factory{} }

// errClientBuild is what a server command says in the client-only build.
var errClientBuild = errors.New("this is the client-only build of photoctl; " +
	"run the server with the full photoctl (make build, or go install -tags sqlite_fts5 ./cmd/photoctl)")

// serverCommands are hidden stubs in the client-only build: serve, worker,
// admin and config say where to find them instead of "unknown command".
func serverCommands(*factory) []*cli.Command {
	var out []*cli.Command
	for _, name := range []string{"serve", "worker", "admin", "config"} {
		out = append(out, &cli.Command{
			Name:            name,
			Usage:           "Not in the client-only build",
			Hidden:          true,
			SkipFlagParsing: true,
			Action: func(*cli.Context) error {
				return &usageError{err: fmt.Errorf("%s: %w", name, errClientBuild)}
			},
		})
	}
	return out
}
