package assets

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// ListOptions are what `photoctl ls` was asked for.
type ListOptions struct {
	cmdutil.ClientOptions

	Filter cmdutil.AssetFilter
	Limit  int // 0: all
}

var listCmd = cmdutil.Command[ListOptions]{
	Name:  "ls",
	Usage: "List assets, newest first, with filters",
	Description: `Lists the assets of a library: by default the 50 most recently captured
live ones (a line on standard error says when more match; --all or --limit
shows them). Filters combine. Capture-time bounds are both without an offset
(wall clock) or both with one; --after is inclusive, --before exclusive.
With --json the output is a JSON array of the API's Asset records.

Every member of a stack (a burst, or one made with photoctl stacks) is
listed as an asset of its own, so that a pipeline into trash, albums add or
bulk-edit acts on all of them. The STACK column shows "+N" on a stack's
cover (N other members), "in stack" on its other members and "-" outside
stacks. --covers-only lists a stack as one asset, its cover, as the app's
timeline does. The PLACE column names where a photo with a GPS position was
taken: the nearest town, else the state or country ("-" for none).

Example:
   photoctl ls --after 2024-05-01 --before 2024-06-01 --media-type image
   photoctl ls --bbox 2.2,48.8,2.5,48.9 --all --json | jq -r '.[].id'
   photoctl ls --covers-only --all
   photoctl ls --state trashed --library "Family archive"`,
	Flags: append(cmdutil.AssetFilterFlags(),
		&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 50, Usage: "show at most `N` assets"},
		&cli.BoolFlag{Name: "all", Usage: "show every matching asset (pages through them all)"}),
	JSON: true,
	Parse: func(c *cli.Context, _ []string, opts *ListOptions) (err error) {
		opts.Filter = cmdutil.ParseAssetFilter(c)
		opts.Limit, err = cmdutil.ListLimit(c)
		return err
	},
	Run: runList,
}

// NewCmdList returns `photoctl ls`, or under the name "list" `photoctl
// assets list`; runF, when not nil, gets the parsed options instead of
// runList (tests).
func NewCmdList(f *cmdutil.Factory, name string, runF func(*ListOptions) error) *cli.Command {
	cmd := listCmd
	cmd.Name = name
	return cmdutil.New(f, cmd, runF)
}

func runList(ctx context.Context, conn *cmdutil.APIConn, opts *ListOptions) error {
	q, err := opts.Filter.Resolve(ctx, conn)
	if err != nil {
		return err
	}
	pageSize := cmdutil.PageSizeFor(opts.Limit)
	out := &cmdutil.JSONArray{W: opts.IO.Out}
	var assets []api.Asset
	n, more := 0, false
	for a, err := range conn.Assets(ctx, q, pageSize) {
		if err != nil {
			if opts.JSON && out.Count > 0 {
				_ = out.Close()
			}
			return err
		}
		if opts.Limit > 0 && n == opts.Limit {
			more = true
			break
		}
		n++
		if !opts.JSON {
			assets = append(assets, a)
		} else if err := out.Add(a); err != nil {
			return err
		}
	}
	if opts.JSON {
		return out.Close()
	}
	if len(assets) == 0 {
		_, err := fmt.Fprintln(opts.IO.Err, "No assets match.")
		return err
	}
	rows := make([][]string, len(assets))
	for i := range assets {
		rows[i] = lsRow(&assets[i])
	}
	if err := cmdutil.PrintTable(opts.IO, []string{"ID", "TAKEN", "TYPE", "SIZE", "RATING", "STACK", "PLACE", "NAME"}, rows); err != nil {
		return err
	}
	return cmdutil.PrintMoreHint(opts.IO, false, more, n, "assets")
}
