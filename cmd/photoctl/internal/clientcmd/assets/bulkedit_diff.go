package assets

import (
	"context"
	"fmt"
	"strconv"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// DiffJSON is what one edit would change, field by field.
type DiffJSON struct {
	Line    int                   `json:"line"`
	ID      string                `json:"id"`
	Missing bool                  `json:"missing,omitempty"` // no such asset (the batch would be rejected)
	Changes map[string]ChangeJSON `json:"changes"`
}

// ChangeJSON is one field's current value and the one the edit sets (null
// clears the user's value).
type ChangeJSON struct {
	From any `json:"from"`
	To   any `json:"to"`
}

// diffBatch reads the batch's assets (100 ids per request) and compares.
// They are read in library lib, or without one in each of the caller's
// libraries: the edit itself names no library, so neither must its dry
// run.
func diffBatch(ctx context.Context, conn *cmdutil.APIConn, lib string, batch []editRow) ([]DiffJSON, error) {
	libs := []string{lib}
	if lib == "" {
		all, err := client.Collect(conn.Libraries(ctx))
		if err != nil {
			return nil, fmt.Errorf("read libraries for the dry run: %w", err)
		}
		libs = libs[:0]
		for _, l := range all {
			libs = append(libs, l.ID)
		}
	}
	current := make(map[string]*api.Asset)
	for start := 0; start < len(batch); start += client.MaxBulkIDs {
		var ids []string
		for _, r := range batch[start:min(start+client.MaxBulkIDs, len(batch))] {
			ids = append(ids, r.id)
		}
		for _, l := range libs {
			// Expanded: an id of a stack member that is not the cover is still found.
			q := client.AssetQuery{LibraryID: l, IDs: ids, State: "all", Stacks: "expand"}
			for a, err := range conn.Assets(ctx, q, 0) {
				if err != nil {
					return nil, fmt.Errorf("read assets for the dry run: %w", err)
				}
				current[a.ID] = &a
			}
		}
	}
	out := make([]DiffJSON, 0, len(batch))
	for _, r := range batch {
		d := DiffJSON{Line: r.line, ID: r.id, Changes: map[string]ChangeJSON{}}
		a := current[r.id]
		if a == nil {
			d.Missing = true
			a = &api.Asset{}
		}
		m := a.Metadata
		ch := r.change
		if ch.Rating.Set {
			d.Changes["rating"] = ChangeJSON{From: intOrNil(m.Rating), To: valueOrNil(ch.Rating.Value)}
		}
		if ch.Description.Set {
			d.Changes["description"] = ChangeJSON{From: valueOrNil(m.Description), To: valueOrNil(ch.Description.Value)}
		}
		if ch.Latitude.Set {
			d.Changes["latitude"] = ChangeJSON{From: valueOrNil(m.Latitude), To: valueOrNil(ch.Latitude.Value)}
		}
		if ch.Longitude.Set {
			d.Changes["longitude"] = ChangeJSON{From: valueOrNil(m.Longitude), To: valueOrNil(ch.Longitude.Value)}
		}
		if ch.OriginalDatetime.Set {
			d.Changes["original_datetime"] = ChangeJSON{From: valueOrNil(m.OriginalDatetime), To: valueOrNil(ch.OriginalDatetime.Value)}
		}
		out = append(out, d)
	}
	return out, nil
}

func valueOrNil[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func intOrNil(p *float64) any {
	if p == nil {
		return nil
	}
	return int(*p)
}

// printDiffs prints "asset_…  rating: 3 → 5" lines.
func printDiffs(s *cmdutil.Streams, diffs []DiffJSON) error {
	for _, d := range diffs {
		if d.Missing {
			fmt.Fprintf(s.Out, "line %d: %s: no such asset\n", d.Line, d.ID)
			continue
		}
		for _, field := range bulkColumns[1:] {
			c, ok := d.Changes[field]
			if !ok {
				continue
			}
			if _, err := fmt.Fprintf(s.Out, "%s  %s: %s → %s\n", d.ID, field, shown(c.From), shown(c.To)); err != nil {
				return err
			}
		}
	}
	return nil
}

func shown(v any) string {
	switch x := v.(type) {
	case nil:
		return "(none)"
	case string:
		return strconv.Quote(x)
	default:
		return fmt.Sprint(x)
	}
}
