package main

import (
	"fmt"
	"iter"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
)

// clientCommands are the commands that talk to a server through the client
// package, in the order the help lists them; their shell completion offers
// library, album and person names (withNameCompletion).
func clientCommands() []*cli.Command {
	return withNameCompletion([]*cli.Command{
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
		newMCPCommand(),
		newLibrariesCommand(),
		newAlbumsCommand(),
		newPeopleCommand(),
		newFacesCommand(),
		newStacksCommand(),
		newInviteCommand(),
		newMembersCommand(),
		newTasksCommand(),
		newKeysCommand(),
		newStorageCommand(),
		newUsersCommand(),
		newEventsCommand(),
		newTUICommand(),
		newVersionCommand(),
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
		Action:      groupAction(cli.ShowSubcommandHelp),
	}
}

// needArgs returns the positional arguments when there are from least to
// most of them (most < 0: no limit), else a usage error with msg.
func needArgs(c *cli.Context, least, most int, msg string) ([]string, error) {
	args := c.Args().Slice()
	if len(args) < least || (most >= 0 && len(args) > most) {
		return nil, usageErrorf(c, "%s", msg)
	}
	return args, nil
}

// eachID runs fn for every id in order and stops at the first failure,
// which is a partial failure (exit 3) once some ids succeeded. what names
// the ids in the error ("album", "disable invitation").
func eachID(ids []string, what string, fn func(id string) error) error {
	for i, id := range ids {
		if err := fn(id); err != nil {
			if i > 0 {
				return fmt.Errorf("%s %s: %w (%w)", what, id, err, errPartialFailure)
			}
			return fmt.Errorf("%s %s: %w", what, id, err)
		}
	}
	return nil
}

// actOnEach runs fn for every argument in order (fn returns the id it
// acted on) and reports `{key: [ids...]}` with --json, else "Done N
// noun(s)." with done the past participle ("Deleted"); a failure after some
// successes is a partial failure.
func actOnEach(c *cli.Context, args []string, done, key, noun string, fn func(arg string) (string, error)) error {
	ids := []string{}
	if err := eachID(args, noun, func(arg string) error {
		id, err := fn(arg)
		if err == nil {
			ids = append(ids, id)
		}
		return err
	}); err != nil {
		return err
	}
	return printDone(newStreams(c), c.Bool("json"), map[string][]string{key: ids}, "%s %d %s(s).", done, len(ids), noun)
}

// fetchEach reads the record of every argument in order (`get ID...`),
// stopping at the first failure.
func fetchEach[T any](args []string, get func(arg string) (T, error)) ([]T, error) {
	out := make([]T, 0, len(args))
	for _, arg := range args {
		v, err := get(arg)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// clientAction is the action of a command that talks to the server: it
// checks that there are from least to most positional arguments (none when
// both are 0; msg says what is wanted), connects with the credential in
// use, and runs run.
func clientAction(least, most int, msg string, run func(c *cli.Context, conn *apiConn, args []string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		var args []string
		var err error
		if least == 0 && most == 0 {
			err = noArgs(c)
		} else {
			args, err = needArgs(c, least, most, msg)
		}
		if err != nil {
			return err
		}
		conn, err := connect(c, true)
		if err != nil {
			return err
		}
		return run(c, conn, args)
	}
}

// limitFlags are --limit (default 50) and --all, for listings that may be
// long; noun names the items in the help.
func limitFlags(noun string) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 50, Usage: "show at most `N` " + noun},
		&cli.BoolFlag{Name: "all", Usage: "show every matching one (pages through them all)"},
	}
}

// listLimit reads limitFlags: the most items to show, 0 for all.
func listLimit(c *cli.Context) (int, error) {
	switch limit := c.Int("limit"); {
	case c.Bool("all"):
		return 0, nil
	case limit <= 0:
		return 0, usageErrorf(c, "--limit must be at least 1 (or use --all)")
	default:
		return limit, nil
	}
}

// take collects the first limit items of seq (every item for 0), stopping
// at the first error; more says whether seq held another after them.
func take[T any](seq iter.Seq2[T, error], limit int) (items []T, more bool, err error) {
	for item, err := range seq {
		if err != nil {
			return nil, false, err
		}
		if limit > 0 && len(items) == limit {
			return items, true, nil
		}
		items = append(items, item)
	}
	return items, false, nil
}

// printMoreHint says on the error stream, after a table cut at its
// --limit, that more match and how to see them; nothing with --json.
func printMoreHint(s *streams, asJSON, more bool, n int, noun string) error {
	if asJSON || !more {
		return nil
	}
	_, err := fmt.Fprintf(s.Err, "Showing the first %d %s; more match (--all lists them all, --limit N the first N).\n", n, noun)
	return err
}

// pageSizeFor is the page to ask for when showing limit items (0: all):
// one more than limit, which tells whether more match.
func pageSizeFor(limit int) int {
	if limit <= 0 {
		return client.MaxPageSize
	}
	return min(limit+1, client.MaxPageSize)
}
