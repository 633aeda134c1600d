// Package assets holds the client commands that work on assets: ls (and
// `assets list`), get, edit, bulk-edit, trash, restore, rm, download (and
// export), upload (and import) and search. Each command is an Options
// struct, a cmdutil.Command that declares it and parses the command line
// into it (every refusal a usage error, before connecting), its
// NewCmdX(f, runF), and a runX that does the work with the connection.
// The asset filter flags, library and name lookups they share with other
// nouns' commands live in cmdutil.
package assets

import (
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// NewCmdAssets returns `photoctl assets`, the long form of the asset
// listing; a group whose subcommand is tested on its own.
func NewCmdAssets(f *cmdutil.Factory) *cli.Command {
	return &cli.Command{
		Name:  "assets",
		Usage: "Work with assets (long forms of ls and friends)",
		Description: `The top-level commands ls, get, download, edit, bulk-edit, trash, restore
and rm work on assets; 'assets list' is the same as 'ls'.

Example:
   photoctl assets list --media-type video`,
		Subcommands: []*cli.Command{NewCmdList(f, "list", nil)},
		Action:      cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// synonym is cmd under another name: itself for its own name, else a
// hidden alias kept for old scripts (export for download, import for
// upload).
func synonym[O any](cmd cmdutil.Command[O], name string) cmdutil.Command[O] {
	cmd.Hidden = name != cmd.Name
	cmd.Name = name
	return cmd
}
