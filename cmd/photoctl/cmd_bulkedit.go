package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// BulkEditOptions is what `photoctl bulk-edit` needs once its input is
// read.
type BulkEditOptions struct {
	Rows []editRow
	// LibraryID is where --dry-run reads the assets ("" for every library
	// of the caller's).
	LibraryID string
	BatchSize int
	DryRun    bool
	JSON      bool
	IO        *cmdutil.Streams
}

// batchJSON reports one batch in --json.
type batchJSON struct {
	FirstLine int            `json:"first_line"`
	LastLine  int            `json:"last_line"`
	Status    string         `json:"status"` // applied, rejected, not_sent
	Errors    []rowErrorJSON `json:"errors,omitempty"`
}

type rowErrorJSON struct {
	Line    int    `json:"line"`
	ID      string `json:"id,omitempty"`
	Message string `json:"message"`
}

// bulkEditJSON is the --json output of bulk-edit.
type bulkEditJSON struct {
	Updated  int         `json:"updated"`
	Rejected int         `json:"rejected"`
	Batches  []batchJSON `json:"batches"`
	DryRun   []diffJSON  `json:"dry_run,omitempty"`
}

// newBulkEditCommand returns `photoctl bulk-edit`.
func newBulkEditCommand() *cli.Command {
	return &cli.Command{
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
		Flags: append(append(append(cmdutil.ClientFlags(), cmdutil.AssetFilterFlags()...), editFlags()...),
			&cli.StringFlag{Name: "format", Usage: "`FORMAT` of FILE: csv, json or jsonl (default: from the extension)"},
			&cli.IntFlag{Name: "batch-size", Value: client.MaxBulkUpdate, Usage: "edits per atomic batch, `N` from 1 to 200"},
			&cli.BoolFlag{Name: "all-assets", Usage: "without FILE or filters, edit every asset of the library"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the changes without making them"},
			cmdutil.QuietFlag(), cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) > 1 {
				return cmdutil.UsageErrorf(c, "want at most one argument, the file")
			}
			n := c.Int("batch-size")
			if n < 1 || n > client.MaxBulkUpdate {
				return cmdutil.UsageErrorf(c, "--batch-size must be from 1 to %d", client.MaxBulkUpdate)
			}
			conn, err := cmdutil.Connect(c, true)
			if err != nil {
				return err
			}
			opts := &BulkEditOptions{BatchSize: n, DryRun: c.Bool("dry-run"), JSON: c.Bool("json"), IO: cmdutil.NewStreams(c)}
			if opts.LibraryID, err = cmdutil.ResolveLibrary(c.Context, conn, c.String("library")); err != nil {
				return err
			}
			if c.NArg() == 1 {
				opts.Rows, err = rowsFromFile(c)
			} else {
				opts.Rows, err = rowsFromFilter(c, conn)
			}
			if err != nil {
				return err
			}
			return runBulkEdit(c.Context, conn, opts)
		},
	}
}

func rowsFromFile(c *cli.Context) ([]editRow, error) {
	path := c.Args().First()
	format, err := editFormat(c.String("format"), path)
	if err != nil {
		return nil, cmdutil.UsageErrorf(c, "%v", err)
	}
	var r io.Reader = c.App.Reader
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

// rowsFromFilter makes one row per asset the filter selects, each with the
// change of the edit flags.
func rowsFromFilter(c *cli.Context, conn *cmdutil.APIConn) ([]editRow, error) {
	if !cmdutil.HasAssetFilter(c) && !c.Bool("all-assets") {
		return nil, cmdutil.UsageErrorf(c, "give a FILE, a filter (--after, --id, ...) or --all-assets")
	}
	ch, err := changeFromFlags(c)
	if err != nil {
		return nil, err
	}
	q, err := cmdutil.AssetQuery(c, conn)
	if err != nil {
		return nil, err
	}
	var rows []editRow
	for a, err := range conn.Assets(c.Context, q, 0) {
		if err != nil {
			return nil, err
		}
		rows = append(rows, editRow{line: len(rows) + 1, id: a.ID, change: ch})
	}
	if len(rows) == 0 {
		return nil, errors.New("no assets match the filter; nothing to edit")
	}
	return rows, nil
}

// runBulkEdit sends the rows in batches, or prints their diff.
func runBulkEdit(ctx context.Context, conn *cmdutil.APIConn, opts *BulkEditOptions) error {
	var out bulkEditJSON
	for start := 0; start < len(opts.Rows); start += opts.BatchSize {
		batch := opts.Rows[start:min(start+opts.BatchSize, len(opts.Rows))]
		b := batchJSON{FirstLine: batch[0].line, LastLine: batch[len(batch)-1].line}
		for _, r := range batch {
			if r.err != nil {
				b.Errors = append(b.Errors, rowErrorJSON{Line: r.line, ID: r.id, Message: r.err.Error()})
			}
		}
		switch {
		case len(b.Errors) > 0:
			b.Status = "not_sent"
		case opts.DryRun:
			diffs, err := diffBatch(ctx, conn, opts.LibraryID, batch)
			if err != nil {
				return err
			}
			out.DryRun = append(out.DryRun, diffs...)
			b.Status = "dry_run"
		default:
			err := conn.BulkUpdateAssets(ctx, updatesOf(batch))
			var apiErr *client.APIError
			switch {
			case err == nil:
				b.Status = "applied"
			case errors.As(err, &apiErr) && apiErr.Status == 422:
				b.Status, b.Errors = "rejected", rowErrors(batch, apiErr)
			default:
				return fmt.Errorf("bulk-edit lines %d-%d: %w", b.FirstLine, b.LastLine, err)
			}
		}
		if b.Status == "applied" {
			out.Updated += len(batch)
		} else if b.Status != "dry_run" {
			out.Rejected += len(batch)
		}
		out.Batches = append(out.Batches, b)
	}
	if err := printBulkEdit(opts, &out); err != nil {
		return err
	}
	switch {
	case out.Rejected == 0:
		return nil
	case out.Updated > 0:
		return fmt.Errorf("%d of %d edits rejected with their batches: %w", out.Rejected, len(opts.Rows), cmdutil.ErrPartialFailure)
	default:
		return fmt.Errorf("every batch was rejected; nothing changed: %w", client.ErrInvalid)
	}
}

func updatesOf(batch []editRow) []api.AssetUpdate {
	out := make([]api.AssetUpdate, len(batch))
	for i, r := range batch {
		out[i] = api.AssetUpdate{ID: r.id, Change: r.change}
	}
	return out
}

// rowErrors maps the server's validation list (loc ["body", "updates", i,
// ...]) back to the rows of the batch.
func rowErrors(batch []editRow, apiErr *client.APIError) []rowErrorJSON {
	var out []rowErrorJSON
	for _, f := range apiErr.Fields {
		e := rowErrorJSON{Message: client.FieldMessage(f)}
		if len(f.Loc) >= 3 {
			if i, ok := f.Loc[2].(float64); ok && int(i) >= 0 && int(i) < len(batch) {
				r := batch[int(i)]
				e.Line, e.ID = r.line, r.id
				e.Message = locTail(f) + f.Msg
			}
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		out = append(out, rowErrorJSON{Message: apiErr.Detail})
	}
	return out
}

// locTail names the field of a validation error inside an update item:
// "change.rating: ".
func locTail(f api.ValidationError) string {
	s := ""
	for _, l := range f.Loc[min(3, len(f.Loc)):] {
		s += fmt.Sprint(l) + "."
	}
	if s == "" {
		return ""
	}
	return s[:len(s)-1] + ": "
}

func printBulkEdit(opts *BulkEditOptions, out *bulkEditJSON) error {
	w := opts.IO.Out
	if opts.JSON {
		return cmdutil.PrintJSON(w, out)
	}
	if opts.DryRun {
		if err := printDiffs(opts.IO, out.DryRun); err != nil {
			return err
		}
	}
	if opts.IO.Quiet {
		w = opts.IO.Err // the rejections are all there is to say
	}
	for _, b := range out.Batches {
		if b.Status != "rejected" && b.Status != "not_sent" {
			continue
		}
		fmt.Fprintf(w, "Batch of lines %d-%d %s:\n", b.FirstLine, b.LastLine, map[string]string{
			"rejected": "rejected by the server", "not_sent": "not sent"}[b.Status])
		for _, e := range b.Errors {
			where := "  "
			if e.Line > 0 {
				where += "line " + strconv.Itoa(e.Line)
				if e.ID != "" {
					where += " (" + e.ID + ")"
				}
				where += ": "
			}
			fmt.Fprintln(w, where+cmdutil.Sanitize(e.Message))
		}
	}
	if opts.IO.Quiet {
		return nil
	}
	if opts.DryRun {
		_, err := fmt.Fprintf(w, "Dry run: %d edit(s) would be sent; %d rejected.\n", len(opts.Rows)-out.Rejected, out.Rejected)
		return err
	}
	_, err := fmt.Fprintf(w, "Updated %d asset(s) in %d batch(es); %d edit(s) rejected.\n", out.Updated, len(out.Batches), out.Rejected)
	return err
}
