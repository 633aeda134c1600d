package assets

import (
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// BulkEditOptions are what `photoctl bulk-edit` was asked for: the rows
// of FILE, or without one the change to make to every asset Filter
// selects. Filter.Library is also where --dry-run reads the assets.
type BulkEditOptions struct {
	cmdutil.ClientOptions

	Rows      []editRow // from FILE; nil: Change on every asset of Filter
	Filter    cmdutil.AssetFilter
	Change    api.AssetChange
	BatchSize int
	DryRun    bool
}

// BatchJSON reports one batch in --json.
type BatchJSON struct {
	FirstLine int            `json:"first_line"`
	LastLine  int            `json:"last_line"`
	Status    string         `json:"status"` // applied, rejected, not_sent
	Errors    []RowErrorJSON `json:"errors,omitempty"`
}

// RowErrorJSON is one rejected row of a batch, in --json.
type RowErrorJSON struct {
	Line    int    `json:"line"`
	ID      string `json:"id,omitempty"`
	Message string `json:"message"`
}

// BulkEditJSON is the --json output of bulk-edit.
type BulkEditJSON struct {
	Updated  int         `json:"updated"`
	Rejected int         `json:"rejected"`
	Batches  []BatchJSON `json:"batches"`
	DryRun   []DiffJSON  `json:"dry_run,omitempty"`
}

// NewCmdBulkEdit returns `photoctl bulk-edit`; runF, when not nil, gets
// the parsed options instead of runBulkEdit (tests).
var NewCmdBulkEdit = cmdutil.Constructor(cmdutil.Command[BulkEditOptions]{
	Name:      "bulk-edit",
	Usage:     "Edit many assets from a CSV, JSON or JSONL file, or every asset a filter selects",
	ArgsUsage: "[FILE | -]",
	Description: `With FILE (or - for standard input), applies one edit per row. Columns or
fields: id, rating, description, latitude, longitude, original_datetime. In
CSV an empty cell leaves a field alone and the word null clears it; in JSON
(an array of objects) and JSONL (an object per line) an absent field stays
and null clears.

Without FILE, applies the edit flags (--rating, --description, ...) to every
asset the filter flags select (at least one filter, or --all-assets): every
member of a stack, or with --covers-only only each stack's cover.

Edits go in batches of up to 200 (--batch-size), each atomic: one invalid
row rejects its whole batch, and the others still apply (exit status 3).
--dry-run prints what would change, field by field, and sends nothing.
With -q (--quiet) only the rejected batches are printed, on standard error,
without the summary line.

Example:
   photoctl bulk-edit ratings.csv --dry-run
   photoctl bulk-edit ratings.csv
   jq -c '.[] | {id, rating: 5}' picks.json | photoctl bulk-edit --format jsonl -
   photoctl bulk-edit --after 2023-07-01 --before 2023-07-15 --description "Summer in Brittany"`,
	Flags: append(append(cmdutil.AssetFilterFlags(), editFlags()...),
		&cli.StringFlag{Name: "format", Usage: "`FORMAT` of FILE: csv, json or jsonl (default: from the extension)"},
		&cli.IntFlag{Name: "batch-size", Value: client.MaxBulkUpdate, Usage: "edits per atomic batch, `N` from 1 to 200"},
		&cli.BoolFlag{Name: "all-assets", Usage: "without FILE or filters, edit every asset of the library"},
		&cli.BoolFlag{Name: "dry-run", Usage: "print the changes without making them"},
		cmdutil.QuietFlag()),
	JSON: true,
	Args: cmdutil.Between(0, 1, "want at most one argument, the file"),
	Parse: func(c *cli.Context, args []string, opts *BulkEditOptions) (err error) {
		n := c.Int("batch-size")
		if n < 1 || n > client.MaxBulkUpdate {
			return cmdutil.UsageErrorf(c, "--batch-size must be from 1 to %d", client.MaxBulkUpdate)
		}
		opts.Filter, opts.BatchSize, opts.DryRun = cmdutil.ParseAssetFilter(c), n, c.Bool("dry-run")
		switch {
		case len(args) == 1:
			opts.Rows, err = rowsFromFile(c, args[0], opts.IO.In)
		case !opts.Filter.Set && !c.Bool("all-assets"):
			err = cmdutil.UsageErrorf(c, "give a FILE, a filter (--after, --id, ...) or --all-assets")
		default:
			opts.Change, err = changeFromFlags(c)
		}
		return err
	},
	Run: runBulkEdit,
})

// rowsFromFile reads the rows of path, or of in (standard input) for "-".
func rowsFromFile(c *cli.Context, path string, in io.Reader) ([]editRow, error) {
	format, err := editFormat(c.String("format"), path)
	if err != nil {
		return nil, cmdutil.UsageErrorf(c, "%v", err)
	}
	r := in
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, cmdutil.UsageErrorf(c, "%v", err)
		}
		defer f.Close()
		r = f
	}
	rows, err := readEditRows(r, format)
	if err != nil {
		return nil, cmdutil.UsageErrorf(c, "%s: %v", path, err)
	}
	if len(rows) == 0 {
		return nil, cmdutil.UsageErrorf(c, "%s has no rows", path)
	}
	return rows, nil
}
