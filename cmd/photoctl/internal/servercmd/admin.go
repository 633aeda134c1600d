//go:build !client

package servercmd

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/keys"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// NewCmdAdmin returns `photoctl admin`, the group of commands that work
// on the library's store directly, with or without a running server.
func NewCmdAdmin(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "admin",
		Usage: "Administer the library directly, without the server",
		Description: `Commands that open the store in the data directory directly. They work
whether or not the server is running.

Example:
   photoctl admin create-user --email you@example.com --password-stdin --superuser`,
		Subcommands: []*cli.Command{NewCmdCreateUser(f, nil), NewCmdMigrate(f, nil), NewCmdBackup(f, nil),
			NewCmdRestore(f, nil), NewCmdCopyBlobs(f, nil), keys.NewCmdOAuthClients(f.Factory),
			NewCmdRegeocode(f, nil), NewCmdRemeasure(f, nil)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}
