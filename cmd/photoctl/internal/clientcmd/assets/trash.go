package assets

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// readIDs returns the ids of the arguments; a lone "-" reads them from in,
// standard input, instead (cmdutil.ReadStdinIDs), and says so.
func readIDs(args []string, in io.Reader) ([]string, bool, error) {
	if len(args) == 1 && args[0] == "-" {
		ids, err := cmdutil.ReadStdinIDs(in)
		return ids, true, err
	}
	return args, false, nil
}

// lifecycleCommand describes trash, restore and rm, which differ only in
// the call and the words.
type lifecycleCommand struct {
	name, usage, description string
	done                     string // "Moved %d assets to the trash."
	jsonKey                  string
	call                     func(*cmdutil.APIConn, context.Context, string, []string) ([]string, error)
	confirm                  bool
}

var trashCmd = lifecycleCmd(lifecycleCommand{name: "trash", usage: "Move assets to the trash",
	description: `Moves assets to the trash, where they stay until restored or purged after the
server's retention period. Ids come from the arguments, or from standard
input with "-" (ids, or the JSON that ls --json prints), sent in batches of
100. photoctl ls lists every member of a stack, so the pipeline below
trashes whole bursts (ls --covers-only would give only each stack's cover).

Example:
   photoctl trash asset_01hx... asset_01hy...
   photoctl ls --before 2010-01-01 --all --json | photoctl trash -`,
	done: "Moved %d asset(s) to the trash.\n", jsonKey: "ids", call: (*cmdutil.APIConn).TrashAssets})

// NewCmdTrash returns `photoctl trash`; runF, when not nil, gets the
// parsed options instead of runLifecycle (tests).
func NewCmdTrash(f *cmdutil.Factory, runF func(*LifecycleOptions) error) *cli.Command {
	return cmdutil.New(f, trashCmd, runF)
}

var restoreCmd = lifecycleCmd(lifecycleCommand{name: "restore", usage: "Restore assets from the trash",
	description: `Restores trashed assets. Ids come from the arguments, or from standard input
with "-", sent in batches of 100.

Example:
   photoctl ls --state trashed --all --json | jq -r '.[].id' | photoctl restore -`,
	done: "Restored %d asset(s).\n", jsonKey: "ids", call: (*cmdutil.APIConn).RestoreAssets})

// NewCmdRestore returns `photoctl restore`; runF as for NewCmdTrash.
func NewCmdRestore(f *cmdutil.Factory, runF func(*LifecycleOptions) error) *cli.Command {
	return cmdutil.New(f, restoreCmd, runF)
}

var removeCmd = lifecycleCmd(lifecycleCommand{name: "rm", usage: "Delete assets permanently",
	description: `Deletes assets, their files and everything linked to them, irreversibly
(library owner only). Asks for confirmation unless --yes is given. Ids come
from the arguments, or from standard input with "-" (which needs --yes),
sent in batches of 100.

Example:
   photoctl rm asset_01hx...
   photoctl ls --state trashed --all --json | jq -r '.[].id' | photoctl rm --yes -`,
	done: "Deleted %d asset(s) permanently.\n", jsonKey: "deleted", confirm: true, call: (*cmdutil.APIConn).DeleteAssets})

// NewCmdRemove returns `photoctl rm`; runF as for NewCmdTrash.
func NewCmdRemove(f *cmdutil.Factory, runF func(*LifecycleOptions) error) *cli.Command {
	return cmdutil.New(f, removeCmd, runF)
}

// LifecycleOptions are what `photoctl trash`, `restore` or `rm` was
// asked for: the assets, from the arguments or standard input.
type LifecycleOptions struct {
	cmdutil.ClientOptions

	Library   string
	IDs       []string
	FromStdin bool // the ids came from standard input
	Yes       bool // rm: do not ask for confirmation
	lc        lifecycleCommand
}

// lifecycleCmd declares the command lc describes. Its --json comes before
// rm's --yes, so it is one of the command's own flags. The run connects
// itself, once rm has its confirmation.
func lifecycleCmd(lc lifecycleCommand) cmdutil.Command[LifecycleOptions] {
	flags := []cli.Flag{cmdutil.LibraryFlag(), cmdutil.JSONFlag()}
	if lc.confirm {
		flags = append(flags, &cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation"})
	}
	return cmdutil.Command[LifecycleOptions]{
		Name:        lc.name,
		Usage:       lc.usage,
		ArgsUsage:   "ID... | -",
		Description: lc.description,
		Flags:       flags,
		Args:        cmdutil.Between(0, -1, ""),
		Parse: func(c *cli.Context, args []string, opts *LifecycleOptions) (err error) {
			opts.Library, opts.Yes, opts.lc = c.String("library"), c.Bool("yes"), lc
			if opts.IDs, opts.FromStdin, err = readIDs(args, opts.IO.In); err != nil {
				return err
			}
			if len(opts.IDs) == 0 {
				return cmdutil.UsageErrorf(c, "give at least one asset id, or - to read them from standard input")
			}
			if lc.confirm && !opts.Yes && opts.FromStdin {
				return cmdutil.UsageErrorf(c, "reading ids from standard input needs --yes")
			}
			return nil
		},
		Offline: runLifecycle,
	}
}

// runLifecycle asks for confirmation where the command wants it, then
// sends the ids in batches of at most client.MaxBulkIDs. Each batch is
// atomic on the server; a failed batch after successful ones is a partial
// failure.
func runLifecycle(ctx context.Context, opts *LifecycleOptions) error {
	lc, ids, io := opts.lc, opts.IDs, opts.IO
	if lc.confirm && !opts.Yes {
		ok, err := cmdutil.Confirm(io.In, io, fmt.Sprintf("Permanently delete %d asset(s)? This cannot be undone. [y/N] ", len(ids)))
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("not confirmed; nothing deleted")
		}
	}
	conn, err := opts.Conn()
	if err != nil {
		return err
	}
	lib, err := cmdutil.ResolveLibrary(ctx, conn, opts.Library)
	if err != nil {
		return err
	}
	done := []string{}
	var failure error
	for start := 0; start < len(ids); start += client.MaxBulkIDs {
		batch := ids[start:min(start+client.MaxBulkIDs, len(ids))]
		got, err := lc.call(conn, ctx, lib, batch)
		if err != nil {
			failure = err
			break
		}
		done = append(done, got...)
	}
	if opts.JSON {
		if err := cmdutil.PrintJSON(io.Out, map[string][]string{lc.jsonKey: done}); err != nil {
			return err
		}
	} else if len(done) > 0 || failure == nil {
		fmt.Fprintf(io.Out, lc.done, len(done))
	}
	switch {
	case failure == nil:
		return nil
	case len(done) > 0:
		return fmt.Errorf("%s stopped after %d of %d assets: %w (%w)", lc.name, len(done), len(ids), failure, cmdutil.ErrPartialFailure)
	default:
		return failure
	}
}
