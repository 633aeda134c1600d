package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/geogrid"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// A text search reads every full-text match of its words (FTS5 has no
// cheaper way to rank them), then each match's asset row to test the
// filter. With a selective filter — a capture-time window, an album, a
// person — most matches fail it, and reading their rows is most of the
// cost. The search then first collects the filter's assets through their
// own index (the timeline, the album's links, the person's assets) into a
// set, and tests each match's rowid against it before scoring and reading
// it: the prefilter. Probing the full-text index per filtered asset
// instead is far slower (a prefix query cannot seek a rowid).
const (
	// prefilterMax is the largest set the prefilter collects (a few
	// milliseconds of index reads).
	prefilterMax = 60000
	// prefilterShare: a prefilter pays when the matches outnumber the
	// set by this much; fewer matches are cheaper to read directly.
	prefilterShare = 4
)

// prefilterMode overrides the choice; tests compare the plans with it.
var prefilterMode = prefilterAuto

const (
	prefilterAuto = iota
	prefilterNever
	prefilterAlways
)

// prefilterSQL is the query of the set, "SELECT a.seq ...", and its
// arguments.
type prefilterSQL struct {
	query string
	args  []any
}

// prefilter picks the most selective driver of f, reading the sizes over
// c, and returns its set's query, or nil when none is small enough, or the text's matches (expr,
// when not "") are too few to pay for it. timed says that the text's
// expression already holds the capture window (timeTokens): the window is
// then no driver.
func prefilter(ctx context.Context, c sqlstore.Conn, f query.AssetFilter, expr string, timed bool) (*prefilterSQL, error) {
	var best *prefilterSQL
	size := prefilterMax + 1
	if prefilterMode == prefilterAlways {
		size = 1 << 62
	}
	if !timed && (f.Capture.After != nil || f.Capture.Before != nil) {
		n, err := windowSize(ctx, c, f)
		if err != nil {
			return nil, err
		}
		if n < size {
			size, best = n, windowSet(f)
		}
	}
	if f.AlbumID != "" {
		var n int
		if err := c.QueryRow(ctx, `SELECT asset_count FROM albums WHERE id = ?`, f.AlbumID).Scan(&n); err != nil {
			return nil, fmt.Errorf("size an album: %w", translate(err))
		}
		if n < size {
			size, best = n, albumSet(f.AlbumID)
		}
	}
	if len(f.PersonIDs) > 0 {
		var id string
		var n int
		err := c.QueryRow(ctx, `SELECT id, face_count FROM people WHERE id IN (`+placeholders(len(f.PersonIDs))+
			`) ORDER BY face_count LIMIT 1`, anySlice(f.PersonIDs)...).Scan(&id, &n)
		if err == nil && n < size {
			size, best = n, personSet(id)
		}
	}
	switch {
	case prefilterMode == prefilterNever:
		return nil, nil
	case best == nil || expr == "" || prefilterMode == prefilterAlways:
		return best, nil
	}
	// Count the matches up to what makes the prefilter pay.
	var matches int
	err := c.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM search_text WHERE search_text MATCH ? LIMIT ?)`,
		expr, prefilterShare*size).Scan(&matches)
	if err != nil {
		return nil, fmt.Errorf("count text matches: %w", translate(err))
	}
	if matches < prefilterShare*size {
		return nil, nil
	}
	return best, nil
}

// windowSet is the set of the library's assets in f's capture window,
// through the timeline index.
func windowSet(f query.AssetFilter) *prefilterSQL {
	where, args := sqlstore.CaptureConditions(f.Capture)
	return &prefilterSQL{query: "SELECT a.seq FROM assets a WHERE a.library_id = ? AND " +
		sqlstore.LiveCondition("a.live", f.State) + " AND " + strings.Join(where, " AND "), args: append([]any{f.LibraryID}, args...)}
}

// albumSet is the set of an album's assets, through its links.
func albumSet(albumID string) *prefilterSQL {
	return &prefilterSQL{query: `SELECT a.seq FROM album_assets aa CROSS JOIN assets a ON a.id = aa.asset_id
		WHERE aa.album_id = ?`, args: []any{albumID}}
}

// personSet is the set of a person's assets, through person_assets.
func personSet(personID string) *prefilterSQL {
	return &prefilterSQL{query: `SELECT a.seq FROM person_assets pa CROSS JOIN assets a ON a.id = pa.asset_id
		WHERE pa.person_id = ?`, args: []any{personID}}
}

// windowSize estimates how many of the library's assets lie in f's capture
// window from the per-day counts (0003), widened by a day each side for
// offsets: an upper bound, unless stacks hide members there.
func windowSize(ctx context.Context, c sqlstore.Conn, f query.AssetFilter) (int, error) {
	lo, hi := int64(-1<<62), int64(1<<62)
	if b := f.Capture.After; b != nil {
		lo = geogrid.FloorDiv(b.Micros(), dayMicros) - 1
	}
	if b := f.Capture.Before; b != nil {
		hi = geogrid.FloorDiv(b.Micros(), dayMicros) + 1
	}
	var n int
	err := c.QueryRow(ctx, `SELECT coalesce(sum(count), 0) FROM asset_day_counts
		WHERE library_id = ? AND `+sqlstore.LiveCondition("live", f.State)+` AND day BETWEEN ? AND ?`, f.LibraryID, lo, hi).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("size a capture window: %w", translate(err))
	}
	return n, nil
}
