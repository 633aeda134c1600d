package stacks

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// CreateOptions are what `photoctl stacks create` was asked for.
type CreateOptions struct {
	cmdutil.ClientOptions

	// Library is an id or a name, looked up once connected.
	Library string
	// Assets are the ids to stack, or "-" for standard input.
	Assets cmdutil.IDArgs
	Cover  string
}

// NewCmdCreate returns `photoctl stacks create`; runF, when not nil, gets
// the parsed options instead of runCreate (tests).
var NewCmdCreate = cmdutil.Constructor(cmdutil.Command[CreateOptions]{
	Name:      "create",
	Usage:     "Stack assets",
	ArgsUsage: "ASSET... | -",
	Description: `Stacks 2 to 100 live assets of the library; the cover is the first one
unless --cover names another of them. An asset already in a stack is a
conflict (exit 1). Asset ids come from the arguments, or from standard input
with "-".

Example:
   photoctl stacks create --cover asset_01hy... asset_01hx... asset_01hy...`,
	Flags: []cli.Flag{
		cmdutil.LibraryFlag(),
		&cli.StringFlag{Name: "cover", Usage: "the cover, asset `ID` (one of the stacked assets)"},
	},
	JSON: true,
	Args: cmdutil.AtLeastOne("give the asset ids to stack (or - to read them from stdin)"),
	Parse: func(c *cli.Context, args []string, opts *CreateOptions) error {
		opts.Library, opts.Cover = c.String("library"), c.String("cover")
		opts.Assets = cmdutil.NewIDArgs(c, opts.IO.In, args)
		return nil
	},
	Run: runCreate,
})

func runCreate(ctx context.Context, conn *cmdutil.APIConn, opts *CreateOptions) error {
	ids, err := opts.Assets.IDs()
	if err != nil {
		return err
	}
	lib, err := cmdutil.ResolveLibrary(ctx, conn, opts.Library)
	if err != nil {
		return err
	}
	s, err := conn.CreateStack(ctx, lib, ids, opts.Cover)
	if err != nil {
		return err
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, s, "Created stack %s of %d asset(s), cover %s.", s.ID,
		s.AssetCount, s.CoverAssetID)
}

// EditOptions are what `photoctl stacks edit` was asked for: the stack and
// the change to send.
type EditOptions struct {
	cmdutil.ClientOptions

	ID     string
	Update api.StackUpdateRequest
}

// NewCmdEdit returns `photoctl stacks edit`; runF, when not nil, gets the
// parsed options instead of runEdit (tests).
var NewCmdEdit = cmdutil.Constructor(cmdutil.Command[EditOptions]{
	Name:      "edit",
	Usage:     "Change a stack's cover, add and remove assets",
	ArgsUsage: "STACK",
	Description: `Changes the cover (a live member after the change), adds assets (not in
another stack) and removes members. A stack left with fewer than two members
is dissolved; with --json it then prints {"id": ..., "dissolved": true}.

Example:
   photoctl stacks edit stack_01hx... --cover asset_01hy...
   photoctl stacks edit stack_01hx... --add asset_01hq... --remove asset_01hz...`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "cover", Usage: "make member asset `ID` the cover"},
		&cli.StringSliceFlag{Name: "add", Usage: "add asset `ID`s (repeat or comma-separate)"},
		&cli.StringSliceFlag{Name: "remove", Usage: "remove member `ID`s (repeat or comma-separate)"},
	},
	JSON: true,
	Args: cmdutil.ExactlyOne("want exactly one argument, the stack id"),
	Parse: func(c *cli.Context, args []string, opts *EditOptions) error {
		opts.ID, opts.Update = args[0], api.StackUpdateRequest{CoverAssetID: cmdutil.Optional(c.String("cover")),
			AddAssetIDs: cmdutil.SplitList(c.StringSlice("add")), RemoveAssetIDs: cmdutil.SplitList(c.StringSlice("remove"))}
		if u := opts.Update; u.CoverAssetID == nil && u.AddAssetIDs == nil && u.RemoveAssetIDs == nil {
			return cmdutil.UsageErrorf(c, "nothing to change: give --cover, --add or --remove")
		}
		return nil
	},
	Run: runEdit,
})

func runEdit(ctx context.Context, conn *cmdutil.APIConn, opts *EditOptions) error {
	s, dissolved, err := conn.UpdateStack(ctx, opts.ID, opts.Update)
	if err != nil {
		return err
	}
	if dissolved {
		return cmdutil.PrintDone(opts.IO, opts.JSON, map[string]any{"id": opts.ID, "dissolved": true},
			"Stack %s dissolved: fewer than two members were left.", opts.ID)
	}
	return cmdutil.PrintDone(opts.IO, opts.JSON, s, "Stack %s: %d asset(s), cover %s.", s.ID, s.AssetCount, s.CoverAssetID)
}
