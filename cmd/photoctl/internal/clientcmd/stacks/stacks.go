// Package stacks holds `photoctl stacks`: list, show, create, edit and
// delete the stacks that group a library's assets into one shown asset.
// Each command is an Options struct, a NewCmdX(f, runF) that parses the
// command line into it, and a runX that does the work; create.go holds
// the commands that send a stack's members (create, edit).
package stacks

import (
	"context"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// NewCmdStacks returns `photoctl stacks`, a group: its subcommands are
// tested one by one, each with its own runF.
func NewCmdStacks(f *cmdutil.Factory) *cli.Command {
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
		Subcommands: []*cli.Command{NewCmdList(f, nil), NewCmdGet(f, nil), NewCmdCreate(f, nil),
			NewCmdEdit(f, nil), NewCmdDelete(f, nil)},
		Action: cmdutil.GroupAction(cli.ShowSubcommandHelp),
	}
}

// ListOptions are what `photoctl stacks list` was asked for.
type ListOptions struct {
	cmdutil.ClientOptions
	cmdutil.InLibrary
}

// NewCmdList returns `photoctl stacks list`; runF, when not nil, gets the
// parsed options instead of runList (tests).
var NewCmdList = cmdutil.Constructor(cmdutil.Command[ListOptions]{
	Name:  "list",
	Usage: "List a library's stacks, newest first",
	Description: `Prints the stacks with their cover and member count, or with --json the
API's Stack records.

Example:
   photoctl stacks list --json | jq -r '.[] | select(.source == "auto") | .id'`,
	Flags: []cli.Flag{cmdutil.LibraryFlag()},
	JSON:  true,
	Run:   runList,
})

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	return cmdutil.PrintAll(opts.IO, opts.JSON, conn.Stacks(ctx, opts.LibraryID),
		[]string{"ID", "COVER", "ASSETS", "SOURCE"},
		func(s api.Stack) []string {
			return []string{s.ID, s.CoverAssetID, strconv.Itoa(s.AssetCount), s.Source}
		})
}

// wantStacks is what get and delete say without a stack.
const wantStacks = "give at least one stack id"

// GetOptions are what `photoctl stacks get` was asked for: the ids of the
// stacks to show.
type GetOptions struct{ cmdutil.EachOptions }

// NewCmdGet returns `photoctl stacks get`; runF, when not nil, gets the
// parsed options instead of runGet (tests).
var NewCmdGet = cmdutil.Constructor(cmdutil.Command[GetOptions]{
	Name:      "get",
	Usage:     "Show stacks with their members",
	ArgsUsage: "STACK...",
	Description: `Prints each stack's fields and members (by capture time, trashed ones
included), or with --json the API's Stack record (one object for one stack,
an array for several).

Example:
   photoctl stacks get stack_01hx... --json | jq -r '.asset_ids[]'`,
	JSON: true,
	Args: cmdutil.AtLeastOne(wantStacks),
	Run:  runGet,
})

func runGet(ctx context.Context, conn *cmdutil.APIConn, opts *GetOptions) error {
	return cmdutil.ShowEach(opts.EachOptions, cmdutil.Fetch(ctx, conn.Stack), func(s *api.Stack) [][]string {
		return [][]string{{"id", s.ID}, {"cover", s.CoverAssetID}, {"assets", strings.Join(s.AssetIDs, " ")},
			{"source", s.Source}, {"library", s.LibraryID}}
	})
}

// DeleteOptions are what `photoctl stacks delete` was asked for: the ids
// of the stacks to dissolve.
type DeleteOptions struct{ cmdutil.EachOptions }

// NewCmdDelete returns `photoctl stacks delete`; runF, when not nil, gets
// the parsed options instead of runDelete (tests).
var NewCmdDelete = cmdutil.Constructor(cmdutil.Command[DeleteOptions]{
	Name:      "delete",
	Usage:     "Unstack: the assets stay, ungrouped",
	ArgsUsage: "STACK...",
	Description: `Deletes stacks; their assets stay in the library and show one by one again.

Example:
   photoctl stacks delete stack_01hx...`,
	JSON: true,
	Args: cmdutil.AtLeastOne(wantStacks),
	Run:  runDelete,
})

func runDelete(ctx context.Context, conn *cmdutil.APIConn, opts *DeleteOptions) error {
	return opts.ForEach("Deleted", "deleted", "stack", func(id string) (string, error) {
		return id, conn.DeleteStack(ctx, id)
	})
}
