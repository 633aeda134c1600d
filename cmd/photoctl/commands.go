package main

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/auth"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/assets"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/keys"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/libraries"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/users"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// clientCommands are the commands that talk to a server through the client
// package, in the order the help lists them; their shell completion offers
// library, album and person names (cmdutil.WithNameCompletion).
func clientCommands(f *cmdutil.Factory) []*cli.Command {
	return cmdutil.WithNameCompletion([]*cli.Command{
		auth.NewCmdLogin(f, nil),
		auth.NewCmdLogout(f, nil),
		auth.NewCmdWhoami(f, nil),
		auth.NewCmdProfiles(f),
		assets.NewCmdUpload(f, "upload", nil),
		assets.NewCmdUpload(f, "import", nil),
		assets.NewCmdList(f, "ls", nil),
		assets.NewCmdGet(f, nil),
		assets.NewCmdDownload(f, "download", nil),
		assets.NewCmdDownload(f, "export", nil),
		assets.NewCmdEdit(f, nil),
		assets.NewCmdBulkEdit(f, nil),
		assets.NewCmdTrash(f, nil),
		assets.NewCmdRestore(f, nil),
		assets.NewCmdRemove(f, nil),
		assets.NewCmdAssets(f),
		assets.NewCmdSearch(f, nil),
		newMCPCommand(),
		libraries.NewCmdLibraries(f),
		newAlbumsCommand(),
		newPeopleCommand(),
		newFacesCommand(),
		newStacksCommand(),
		libraries.NewCmdInvite(f),
		libraries.NewCmdMembers(f),
		newTasksCommand(),
		keys.NewCmdKeys(f),
		users.NewCmdStorage(f, nil),
		users.NewCmdUsers(f),
		newEventsCommand(),
		newTUICommand(),
		newVersionCommand(),
	})
}
