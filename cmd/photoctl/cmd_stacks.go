package main

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// newStacksCommand returns `photoctl stacks`.
func newStacksCommand() *cli.Command {
	return &cli.Command{
		Name:  "stacks",
		Usage: "Group assets into stacks shown as one (bursts, RAW+JPEG, edits)",
		Description: `A stack groups 2 to 100 assets of a library that the app shows as one, its
cover. An asset is in at most one stack. The burst detector makes stacks of
its own (source auto); these commands make manual ones and change either.

photoctl ls, download, bulk-edit and albums add see every member of a stack
(ls marks the cover "+N" and the others "in stack"); with --covers-only they
see only each stack's cover, as the app does.

Example:
   photoctl stacks create asset_01hx... asset_01hy... asset_01hz...
   photoctl stacks edit stack_01hx... --cover asset_01hy... --remove asset_01hz...
   photoctl ls --stack stack_01hx...`,
		Subcommands: []*cli.Command{newStacksListCommand(), newStacksGetCommand(), newStacksCreateCommand(),
			newStacksEditCommand(), newStacksDeleteCommand()},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

func newStacksListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "List a library's stacks, newest first",
		Description: `Prints the stacks with their cover and member count, or with --json the
API's Stack records.

Example:
   photoctl stacks list --json | jq -r '.[] | select(.source == "auto") | .id'`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(0, 0, "", func(c *cli.Context, conn *cmdutil.APIConn, _ []string) error {
			lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
			if err != nil {
				return err
			}
			stacks, err := client.Collect(conn.Stacks(c.Context, lib))
			if err != nil {
				return err
			}
			return cmdutil.PrintList(cmdutil.NewStreams(c), c.Bool("json"), stacks, []string{"ID", "COVER", "ASSETS", "SOURCE"},
				func(s api.Stack) []string {
					return []string{s.ID, s.CoverAssetID, strconv.Itoa(s.AssetCount), s.Source}
				})
		}),
	}
}

func newStacksGetCommand() *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "Show stacks with their members",
		ArgsUsage: "STACK...",
		Description: `Prints each stack's fields and members (by capture time, trashed ones
included), or with --json the API's Stack record (one object for one stack,
an array for several).

Example:
   photoctl stacks get stack_01hx... --json | jq -r '.asset_ids[]'`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one stack id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				stacks, err := cmdutil.FetchEach(args, func(id string) (*api.Stack, error) { return conn.Stack(c.Context, id) })
				if err != nil {
					return err
				}
				return cmdutil.PrintRecords(cmdutil.NewStreams(c), c.Bool("json"), stacks, func(s *api.Stack) [][]string {
					return [][]string{{"id", s.ID}, {"cover", s.CoverAssetID}, {"assets", strings.Join(s.AssetIDs, " ")},
						{"source", s.Source}, {"library", s.LibraryID}}
				})
			}),
	}
}

func newStacksCreateCommand() *cli.Command {
	return &cli.Command{
		Name:      "create",
		Usage:     "Stack assets",
		ArgsUsage: "ASSET... | -",
		Description: `Stacks 2 to 100 live assets of the library; the cover is the first one
unless --cover names another of them. An asset already in a stack is a
conflict (exit 1). Asset ids come from the arguments, or from standard input
with "-".

Example:
   photoctl stacks create --cover asset_01hy... asset_01hx... asset_01hy...`,
		Flags: append(cmdutil.ClientFlags(), libraryFlag(),
			&cli.StringFlag{Name: "cover", Usage: "the cover, asset `ID` (one of the stacked assets)"}, cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give the asset ids to stack (or - to read them from stdin)",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				ids, err := idsOrStdin(c, args)
				if err != nil {
					return err
				}
				lib, err := cmdutil.ResolveLibrary(c.Context, conn, c.String("library"))
				if err != nil {
					return err
				}
				s, err := conn.CreateStack(c.Context, lib, ids, c.String("cover"))
				if err != nil {
					return err
				}
				return cmdutil.PrintDone(cmdutil.NewStreams(c), c.Bool("json"), s, "Created stack %s of %d asset(s), cover %s.", s.ID,
					s.AssetCount, s.CoverAssetID)
			}),
	}
}

func newStacksEditCommand() *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "Change a stack's cover, add and remove assets",
		ArgsUsage: "STACK",
		Description: `Changes the cover (a live member after the change), adds assets (not in
another stack) and removes members. A stack left with fewer than two members
is dissolved; with --json it then prints {"id": ..., "dissolved": true}.

Example:
   photoctl stacks edit stack_01hx... --cover asset_01hy...
   photoctl stacks edit stack_01hx... --add asset_01hq... --remove asset_01hz...`,
		Flags: append(cmdutil.ClientFlags(),
			&cli.StringFlag{Name: "cover", Usage: "make member asset `ID` the cover"},
			&cli.StringSliceFlag{Name: "add", Usage: "add asset `ID`s (repeat or comma-separate)"},
			&cli.StringSliceFlag{Name: "remove", Usage: "remove member `ID`s (repeat or comma-separate)"},
			cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, 1, "want exactly one argument, the stack id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				u := api.StackUpdateRequest{CoverAssetID: optional(c.String("cover")), AddAssetIDs: cmdutil.SplitList(c.StringSlice("add")),
					RemoveAssetIDs: cmdutil.SplitList(c.StringSlice("remove"))}
				if u.CoverAssetID == nil && u.AddAssetIDs == nil && u.RemoveAssetIDs == nil {
					return cmdutil.UsageErrorf(c, "nothing to change: give --cover, --add or --remove")
				}
				s, dissolved, err := conn.UpdateStack(c.Context, args[0], u)
				if err != nil {
					return err
				}
				io := cmdutil.NewStreams(c)
				if dissolved {
					return cmdutil.PrintDone(io, c.Bool("json"), map[string]any{"id": args[0], "dissolved": true},
						"Stack %s dissolved: fewer than two members were left.", args[0])
				}
				return cmdutil.PrintDone(io, c.Bool("json"), s, "Stack %s: %d asset(s), cover %s.", s.ID, s.AssetCount, s.CoverAssetID)
			}),
	}
}

func newStacksDeleteCommand() *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "Unstack: the assets stay, ungrouped",
		ArgsUsage: "STACK...",
		Description: `Deletes stacks; their assets stay in the library and show one by one again.

Example:
   photoctl stacks delete stack_01hx...`,
		Flags: append(cmdutil.ClientFlags(), cmdutil.JSONFlag()),
		Action: cmdutil.ClientAction(1, -1, "give at least one stack id",
			func(c *cli.Context, conn *cmdutil.APIConn, args []string) error {
				return cmdutil.ActOnEach(cmdutil.NewStreams(c), c.Bool("json"), args, "Deleted", "deleted", "stack", func(id string) (string, error) {
					return id, conn.DeleteStack(c.Context, id)
				})
			}),
	}
}
