//go:build !client

package main

import "github.com/urfave/cli/v2"

// serverCommands are the commands that run or administer the server
// itself, in the order the help lists them (the hidden ones last). The
// client build (commands_client.go) hands them to photoctl-server.
func serverCommands(f *factory) []*cli.Command {
	return []*cli.Command{
		newServeCommand(f),
		newWorkerCommand(f),
		newAdminCommand(f),
		newConfigCommand(f),
		newGenDocsCommand(f),
		newDevCommand(f),
	}
}
