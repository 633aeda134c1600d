package assets

import (
	"context"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// GetOptions are what `photoctl get` was asked for: the ids of the assets
// to show.
type GetOptions struct{ cmdutil.EachOptions }

// NewCmdGet returns `photoctl get`; runF, when not nil, gets the parsed
// options instead of runGet (tests).
var NewCmdGet = cmdutil.Constructor(cmdutil.Command[GetOptions]{
	Name:      "get",
	Usage:     "Show assets in full",
	ArgsUsage: "ID...",
	Description: `Prints the main fields of each asset, with the text OCR read in it, or with
--json the API's record of one asset (an Asset with ocr_text; one object for
one id, an array for several).

Example:
   photoctl get asset_01hx...
   photoctl get asset_01hx... --json | jq .metadata`,
	JSON: true,
	Args: cmdutil.AtLeastOne("give at least one asset id"),
	Run:  runGet,
})

func runGet(ctx context.Context, conn *cmdutil.APIConn, opts *GetOptions) error {
	return cmdutil.ShowEach(opts.EachOptions, func(id string) (*api.AssetDetail, error) { return conn.AssetDetail(ctx, id) },
		detailFields)
}
