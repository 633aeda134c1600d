package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// aggregates answers counts and geo clusters, from the tables that the
// triggers of migration 0003 maintain when the filter allows, else from the
// assets themselves through their indexes. Both paths give the same answer;
// aggregates_test.go compares them on random data.
type aggregates struct{ q querier }

func (r repos) AssetAggregates() store.AssetAggregates { return aggregates{r.q} }

var _ store.AssetAggregates = aggregates{}

// dayMicros is one day of capture_wall.
const dayMicros = 86_400_000_000

// sqlDay is the wall-clock date of "assets a" as days since 1970-01-01
// (floor division), spelled as in migration 0003.
const sqlDay = "(a.capture_wall - ((a.capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000"

// path names where an answer comes from.
type path int

const (
	pathAuto   path = iota
	pathTable       // the maintained aggregates
	pathAssets      // the asset rows (the fallback)
)

func (r aggregates) Counts(ctx context.Context, q store.CountsQuery) ([]store.BucketCount, bool, error) {
	return r.counts(ctx, q, pathAuto)
}

func (r aggregates) counts(ctx context.Context, q store.CountsQuery, p path) ([]store.BucketCount, bool, error) {
	if q.Limit < 1 {
		return nil, false, fmt.Errorf("counts: limit %d is not positive", q.Limit)
	}
	// The cursor becomes a bound on the day: buckets start on a day.
	lo, hi := dayRange(q)
	var rows *sql.Rows
	var err error
	if p == pathTable || p == pathAuto && dayCountable(q.Filter) {
		rows, err = r.daysFromTable(ctx, q.Filter, lo, hi)
	} else {
		rows, err = r.daysFromAssets(ctx, q.Filter, lo, hi)
	}
	if err != nil {
		return nil, false, translate(err)
	}
	defer rows.Close()
	var out []store.BucketCount
	for rows.Next() {
		var day, n int64
		if err := rows.Scan(&day, &n); err != nil {
			return nil, false, err
		}
		start := q.Bucket.Start(time.Unix(day*86400, 0))
		if len(out) > 0 && out[len(out)-1].Start.Equal(start) {
			out[len(out)-1].Count += n
			continue
		}
		if len(out) == q.Limit {
			return out, true, nil
		}
		out = append(out, store.BucketCount{Start: start, Count: n})
	}
	return out, false, translate(rows.Err())
}

// dayBound is an optional day bound.
type dayBound struct {
	day int64
	set bool
}

// dayRange turns the page cursor into days: lo <= day < hi.
func dayRange(q store.CountsQuery) (lo, hi dayBound) {
	if q.After == nil {
		return lo, hi
	}
	if q.Filter.Asc {
		return dayBound{floorDiv(q.Bucket.Next(*q.After).UnixMicro(), dayMicros), true}, hi
	}
	return lo, dayBound{floorDiv(q.After.UnixMicro(), dayMicros), true}
}

// dayCountable reports whether asset_day_counts holds the answer: no
// filter but state, media type, a rating of at least 0 and offsetless
// capture bounds at midnight, over the collapsed list (the table counts
// stack covers only; the expanded one, WithStacked, reads the assets).
func dayCountable(f store.AssetFilter) bool {
	if len(f.IDs) > 0 || f.StackID != "" || f.AlbumID != "" || len(f.PersonIDs) > 0 || f.Location != nil ||
		f.WithStacked || f.MinRating != nil && *f.MinRating < 0 {
		return false
	}
	for _, b := range []*catalog.TimeBound{f.Capture.After, f.Capture.Before} {
		if b != nil && (b.HasOffset || floorMod(b.Micros(), dayMicros) != 0) {
			return false
		}
	}
	return true
}

// daysFromTable sums asset_day_counts per day, in the filter's order.
func (r aggregates) daysFromTable(ctx context.Context, f store.AssetFilter, lo, hi dayBound) (*sql.Rows, error) {
	where := []string{"library_id = ?", liveCondition("live", f.State)}
	args := []any{f.LibraryID}
	if f.MediaType != "" {
		where, args = append(where, "media_type = ?"), append(args, string(f.MediaType))
	}
	if f.MinRating != nil {
		where, args = append(where, "rating >= ?"), append(args, *f.MinRating)
	}
	if b := f.Capture.After; b != nil {
		lo = tighter(lo, floorDiv(b.Micros(), dayMicros), true)
	}
	if b := f.Capture.Before; b != nil {
		hi = tighter(hi, floorDiv(b.Micros(), dayMicros), false)
	}
	if lo.set {
		where, args = append(where, "day >= ?"), append(args, lo.day)
	}
	if hi.set {
		where, args = append(where, "day < ?"), append(args, hi.day)
	}
	return r.q.QueryContext(ctx, `SELECT day, sum(count) FROM asset_day_counts WHERE `+
		strings.Join(where, " AND ")+` GROUP BY day ORDER BY day `+direction(f.Asc), args...)
}

// daysFromAssets counts the matching assets per day.
func (r aggregates) daysFromAssets(ctx context.Context, f store.AssetFilter, lo, hi dayBound) (*sql.Rows, error) {
	sel := selectAssets(f)
	if lo.set {
		sel.where, sel.args = append(sel.where, "a.capture_wall >= ?"), append(sel.args, lo.day*dayMicros)
	}
	if hi.set {
		sel.where, sel.args = append(sel.where, "a.capture_wall < ?"), append(sel.args, hi.day*dayMicros)
	}
	return r.q.QueryContext(ctx, sel.sql(sqlDay+" AS d, count(*)")+` GROUP BY d ORDER BY d `+direction(f.Asc), sel.args...)
}

// selection is the SQL reading the assets of a filter: a FROM clause
// binding "assets a", conditions, and the arguments of both in order.
type selection struct {
	from  string
	where []string
	args  []any
}

func (s selection) sql(cols string) string {
	return "SELECT " + cols + " FROM " + s.from + " WHERE " + strings.Join(s.where, " AND ")
}

// selectAssets selects what List selects. With a location, the R*Tree
// drives the join: left to itself, the planner scans the library's whole
// timeline and probes the R*Tree's answer for each row. The location tests
// are those of locationConditions in assets_list.go.
func selectAssets(f store.AssetFilter) selection {
	if f.Location == nil {
		where, args := assetConditions(f, false)
		where, args = withAlbum(f, where, args)
		return selection{from: "assets a", where: where, args: args}
	}
	ors, args := geoBoxes(f.Location, "min_lon", "max_lon", "min_lat", "max_lat")
	sel := viaRTree(f, []string{ors}, args)
	if c := f.Location.Circle; c != nil {
		w, a := circleCondition(c)
		sel.where, sel.args = append(sel.where, w), append(sel.args, a...)
	}
	return sel
}

// rtreeBox is the R*Tree test of one longitude range of a box.
const rtreeBox = "min_lon >= ? AND max_lon <= ? AND min_lat >= ? AND max_lat <= ?"

// viaRTree selects the assets of f (but its location) among the R*Tree
// entries that pass any of terms.
func viaRTree(f store.AssetFilter, terms []string, termArgs []any) selection {
	f.Location = nil
	where, args := assetConditions(f, false)
	where, args = withAlbum(f, where, args)
	return selection{from: "(SELECT seq FROM assets_geo WHERE (" + strings.Join(terms, ") OR (") +
		")) g CROSS JOIN assets a ON a.seq = g.seq", where: where, args: append(termArgs, args...)}
}

// withAlbum adds f's album to conditions over "assets a" (lists instead
// start from the album's own timeline: albumTimeline).
func withAlbum(f store.AssetFilter, where []string, args []any) ([]string, []any) {
	if f.AlbumID == "" {
		return where, args
	}
	return append(where, "a.id IN (SELECT asset_id FROM album_assets WHERE album_id = ?)"), append(args, f.AlbumID)
}

// liveCondition selects a state on a live column.
func liveCondition(col string, s store.AssetState) string {
	switch s {
	case store.StateTrashed:
		return col + " = 0"
	case store.StateAll:
		return col + " IN (0, 1)"
	}
	return col + " = 1"
}

func direction(asc bool) string {
	if asc {
		return "ASC"
	}
	return "DESC"
}

// tighter combines a bound with another day: the greater lower bound or
// the smaller upper bound.
func tighter(b dayBound, day int64, lower bool) dayBound {
	if !b.set || lower && day > b.day || !lower && day < b.day {
		return dayBound{day, true}
	}
	return b
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }
