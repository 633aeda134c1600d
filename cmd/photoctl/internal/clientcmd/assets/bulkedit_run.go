package assets

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// rowsFromFilter makes one row per asset the filter selects in lib, each
// with the change of the edit flags.
func rowsFromFilter(ctx context.Context, conn *cmdutil.APIConn, lib string, opts *BulkEditOptions) ([]editRow, error) {
	var rows []editRow
	for a, err := range conn.Assets(ctx, opts.Filter.In(lib), 0) {
		if err != nil {
			return nil, err
		}
		rows = append(rows, editRow{line: len(rows) + 1, id: a.ID, change: opts.Change})
	}
	if len(rows) == 0 {
		return nil, errors.New("no assets match the filter; nothing to edit")
	}
	return rows, nil
}

// runBulkEdit sends the rows in batches, or prints their diff.
func runBulkEdit(ctx context.Context, conn *cmdutil.APIConn, opts *BulkEditOptions) error {
	// Where --dry-run reads the assets ("" for every library of the caller's).
	lib, err := cmdutil.ResolveLibrary(ctx, conn, opts.Filter.Library)
	if err != nil {
		return err
	}
	if opts.Rows == nil {
		if opts.Rows, err = rowsFromFilter(ctx, conn, lib, opts); err != nil {
			return err
		}
	}
	var out BulkEditJSON
	for start := 0; start < len(opts.Rows); start += opts.BatchSize {
		batch := opts.Rows[start:min(start+opts.BatchSize, len(opts.Rows))]
		b := BatchJSON{FirstLine: batch[0].line, LastLine: batch[len(batch)-1].line}
		for _, r := range batch {
			if r.err != nil {
				b.Errors = append(b.Errors, RowErrorJSON{Line: r.line, ID: r.id, Message: r.err.Error()})
			}
		}
		switch {
		case len(b.Errors) > 0:
			b.Status = "not_sent"
		case opts.DryRun:
			diffs, err := diffBatch(ctx, conn, lib, batch)
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
func rowErrors(batch []editRow, apiErr *client.APIError) []RowErrorJSON {
	var out []RowErrorJSON
	for _, f := range apiErr.Fields {
		e := RowErrorJSON{Message: client.FieldMessage(f)}
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
		out = append(out, RowErrorJSON{Message: apiErr.Detail})
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

func printBulkEdit(opts *BulkEditOptions, out *BulkEditJSON) error {
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
