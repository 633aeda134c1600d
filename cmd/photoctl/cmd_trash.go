package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// readIDs returns the ids of the arguments; a lone "-" reads them from
// standard input instead (cmdutil.ReadStdinIDs).
func readIDs(c *cli.Context) ([]string, bool, error) {
	args := c.Args().Slice()
	if len(args) == 1 && args[0] == "-" {
		return cmdutil.ReadStdinIDs(c.App.Reader)
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

// newTrashCommand returns `photoctl trash`.
func newTrashCommand() *cli.Command {
	return lifecycle(lifecycleCommand{name: "trash", usage: "Move assets to the trash",
		description: `Moves assets to the trash, where they stay until restored or purged after the
server's retention period. Ids come from the arguments, or from standard
input with "-" (ids, or the JSON that ls --json prints), sent in batches of
100. photoctl ls lists every member of a stack, so the pipeline below
trashes whole bursts (ls --covers-only would give only each stack's cover).

Example:
   photoctl trash asset_01hx... asset_01hy...
   photoctl ls --before 2010-01-01 --all --json | photoctl trash -`,
		done: "Moved %d asset(s) to the trash.\n", jsonKey: "ids",
		call: func(c *cmdutil.APIConn, ctx context.Context, lib string, ids []string) ([]string, error) {
			return c.TrashAssets(ctx, lib, ids)
		}})
}

// newRestoreCommand returns `photoctl restore`.
func newRestoreCommand() *cli.Command {
	return lifecycle(lifecycleCommand{name: "restore", usage: "Restore assets from the trash",
		description: `Restores trashed assets. Ids come from the arguments, or from standard input
with "-", sent in batches of 100.

Example:
   photoctl ls --state trashed --all --json | jq -r '.[].id' | photoctl restore -`,
		done: "Restored %d asset(s).\n", jsonKey: "ids",
		call: func(c *cmdutil.APIConn, ctx context.Context, lib string, ids []string) ([]string, error) {
			return c.RestoreAssets(ctx, lib, ids)
		}})
}

// newRemoveCommand returns `photoctl rm`.
func newRemoveCommand() *cli.Command {
	return lifecycle(lifecycleCommand{name: "rm", usage: "Delete assets permanently",
		description: `Deletes assets, their files and everything linked to them, irreversibly
(library owner only). Asks for confirmation unless --yes is given. Ids come
from the arguments, or from standard input with "-" (which needs --yes),
sent in batches of 100.

Example:
   photoctl rm asset_01hx...
   photoctl ls --state trashed --all --json | jq -r '.[].id' | photoctl rm --yes -`,
		done: "Deleted %d asset(s) permanently.\n", jsonKey: "deleted", confirm: true,
		call: func(c *cmdutil.APIConn, ctx context.Context, lib string, ids []string) ([]string, error) {
			return c.DeleteAssets(ctx, lib, ids)
		}})
}

func lifecycle(lc lifecycleCommand) *cli.Command {
	flags := append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag())
	if lc.confirm {
		flags = append(flags, &cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation"})
	}
	return &cli.Command{
		Name:        lc.name,
		Usage:       lc.usage,
		ArgsUsage:   "ID... | -",
		Description: lc.description,
		Flags:       flags,
		Action: func(c *cli.Context) error {
			ids, fromStdin, err := readIDs(c)
			if err != nil {
				return err
			}
			if len(ids) == 0 {
				return cmdutil.UsageErrorf(c, "give at least one asset id, or - to read them from standard input")
			}
			io := cmdutil.NewStreams(c)
			if lc.confirm && !c.Bool("yes") {
				if fromStdin {
					return cmdutil.UsageErrorf(c, "reading ids from standard input needs --yes")
				}
				ok, err := confirm(c.App.Reader, io, fmt.Sprintf("Permanently delete %d asset(s)? This cannot be undone. [y/N] ", len(ids)))
				if err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("not confirmed; nothing deleted")
				}
			}
			conn, err := cmdutil.Connect(c, true)
			if err != nil {
				return err
			}
			lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
			if err != nil {
				return err
			}
			return runLifecycle(c.Context, conn, lc, lib, ids, c.Bool("json"), io)
		},
	}
}

// runLifecycle sends ids in batches of at most client.MaxBulkIDs. Each
// batch is atomic on the server; a failed batch after successful ones is a
// partial failure.
func runLifecycle(ctx context.Context, conn *cmdutil.APIConn, lc lifecycleCommand, lib string, ids []string, asJSON bool, io *cmdutil.Streams) error {
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
	if asJSON {
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

// confirm asks question on the error stream and reads a yes or no.
func confirm(in io.Reader, s *cmdutil.Streams, question string) (bool, error) {
	fmt.Fprint(s.Err, question)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(s.Err)
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	default:
		return false, nil
	}
}
