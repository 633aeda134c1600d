package main

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/albums"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/assets"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/auth"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/keys"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/libraries"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/mcp"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/people"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/stacks"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/tasks"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/tui"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/users"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/version"
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
		mcp.NewCmdMCP(f, nil),
		libraries.NewCmdLibraries(f),
		albums.NewCmdAlbums(f),
		people.NewCmdPeople(f),
		people.NewCmdFaces(f),
		stacks.NewCmdStacks(f),
		libraries.NewCmdInvite(f),
		libraries.NewCmdMembers(f),
		tasks.NewCmdTasks(f),
		keys.NewCmdKeys(f),
		users.NewCmdStorage(f, nil),
		users.NewCmdUsers(f),
		tasks.NewCmdEvents(f),
		tui.NewCmdTUI(f, nil),
		version.NewCmdVersion(f, nil),
	})
}
