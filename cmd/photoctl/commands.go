package main

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/albums"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/keys"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/mcp"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/people"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/stacks"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/tasks"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/tui"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/version"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// clientCommands are the commands that talk to a server through the client
// package, in the order the help lists them; their shell completion offers
// library, album and person names (cmdutil.WithNameCompletion).
func clientCommands(f *cmdutil.Factory) []*cli.Command {
	return cmdutil.WithNameCompletion([]*cli.Command{
		newLoginCommand(),
		newLogoutCommand(),
		newWhoamiCommand(),
		newProfilesCommand(),
		newUploadCommand("upload"),
		newUploadCommand("import"),
		newListCommand("ls"),
		newGetCommand(),
		newDownloadCommand("download"),
		newDownloadCommand("export"),
		newEditCommand(),
		newBulkEditCommand(),
		newTrashCommand(),
		newRestoreCommand(),
		newRemoveCommand(),
		newAssetsCommand(),
		newSearchCommand(),
		mcp.NewCmdMCP(f, nil),
		newLibrariesCommand(),
		albums.NewCmdAlbums(f),
		people.NewCmdPeople(f),
		people.NewCmdFaces(f),
		stacks.NewCmdStacks(f),
		newInviteCommand(),
		newMembersCommand(),
		tasks.NewCmdTasks(f),
		keys.NewCmdKeys(f),
		newStorageCommand(),
		newUsersCommand(),
		tasks.NewCmdEvents(f),
		tui.NewCmdTUI(f, nil),
		version.NewCmdVersion(f, nil),
	})
}

// newAssetsCommand returns `photoctl assets`, the long form of the asset
// listing.
func newAssetsCommand() *cli.Command {
	return &cli.Command{
		Name:  "assets",
		Usage: "Work with assets (long forms of ls and friends)",
		Description: `The top-level commands ls, get, download, edit, bulk-edit, trash, restore
and rm work on assets; 'assets list' is the same as 'ls'.

Example:
   photoctl assets list --media-type video`,
		Subcommands: []*cli.Command{newListCommand("list")},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}
