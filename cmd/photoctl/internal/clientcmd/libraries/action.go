package libraries

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// actionHelp is the usage and description of each of `photoctl libraries
// switch|trash|restore`, which differ only in the call and the words.
var actionHelp = map[string][2]string{
	"switch": {"Make a library the default of your profile",
		`Makes the library the default of the profile in use: commands that work in
a library use it when --library and $PHOTOCTL_LIBRARY are left out. The
server records it as your default_library_id too, which is what commands
use with an API key and no profile. Signing in again starts without a
default. The config file's library key is a default below this one.

Example:
   photoctl libraries switch "Family archive"
   photoctl ls   # lists the Family archive`},
	"trash": {"Move a library you own to the trash",
		`Hides the library and all its content from every member until it is
restored. Your last live library of your own cannot be trashed. Needs a
signed-in session.

Example:
   photoctl libraries trash "Old imports"`},
	"restore": {"Restore a library from the trash",
		`Brings a trashed library back with its content. A name is looked up among
your trashed libraries. Needs a signed-in session.

Example:
   photoctl libraries restore "Old imports"`},
}

// wantLibrary is the usage error of the commands that take one library
// when they are not given exactly one argument.
const wantLibrary = "want exactly one argument, the library id or name"

// ActionOptions are what `photoctl libraries switch`, `trash` or
// `restore` was asked for.
type ActionOptions struct {
	cmdutil.ClientOptions

	// Action is switch, trash or restore; Library the id or name.
	Action, Library string
}

// actionCmd is each of `photoctl libraries switch|trash|restore` but for
// its name, help and Parse, which NewCmdAction fills in.
var actionCmd = cmdutil.Command[ActionOptions]{
	ArgsUsage: "LIBRARY",
	JSON:      true,
	Args:      cmdutil.ExactlyOne(wantLibrary),
	Run:       runAction,
}

// NewCmdAction returns `photoctl libraries switch|trash|restore` (name);
// runF, when not nil, gets the parsed options instead of runAction
// (tests).
func NewCmdAction(f *cmdutil.Factory, name string, runF func(*ActionOptions) error) *cli.Command {
	cmd := actionCmd
	cmd.Name, cmd.Usage, cmd.Description = name, actionHelp[name][0], actionHelp[name][1]
	cmd.Parse = func(_ *cli.Context, args []string, opts *ActionOptions) error {
		opts.Action, opts.Library = name, args[0]
		return nil
	}
	return cmdutil.New(f, cmd, runF)
}

func runAction(ctx context.Context, conn *cmdutil.APIConn, opts *ActionOptions) error {
	state := ""
	if opts.Action == "restore" {
		state = "trashed"
	}
	id, err := cmdutil.LookupLibrary(ctx, conn, opts.Library, state)
	if err != nil {
		return err
	}
	var lib *api.Library
	switch opts.Action {
	case "switch":
		if lib, err = conn.SwitchLibrary(ctx, id); err == nil {
			err = cmdutil.SaveProfileLibrary(conn, func(string) string { return lib.ID })
		}
	case "trash":
		if lib, err = conn.TrashLibrary(ctx, id); err == nil {
			err = cmdutil.SaveProfileLibrary(conn, func(cur string) string { return forget(cur, lib.ID) })
		}
	default:
		lib, err = conn.RestoreLibrary(ctx, id)
	}
	if err != nil {
		return err
	}
	done := map[string]string{"switch": "is now the default", "trash": "moved to the trash", "restore": "restored"}[opts.Action]
	if opts.Action == "switch" && conn.Profile == "" {
		done += " on the server (used without a profile when the key may read your preferences, user.read)"
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, lib, "Library %s (%s) %s.", lib.ID, lib.Name, done)
}

// forget returns cur, or "" when cur is the library that went away.
func forget(cur, gone string) string {
	if cur == gone {
		return ""
	}
	return cur
}
