//go:build !client

package main

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/servercmd"
)

// serverCommands are the commands that run or administer the server
// itself, in the order the help lists them (the hidden ones last). The
// client build (commands_client.go) hands them to photoctl-server.
func serverCommands(f *factory) []*cli.Command {
	return []*cli.Command{
		servercmd.NewCmdServe(f.server, nil),
		servercmd.NewCmdWorker(f.server, nil),
		servercmd.NewCmdAdmin(f.server),
		servercmd.NewCmdConfig(f.server),
		newGenDocsCommand(f),
		servercmd.NewCmdDev(f.server),
	}
}
