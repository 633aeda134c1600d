package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/geogrid"
)

// Aggregates answers counts and geo clusters, from the tables that the
// triggers of each dialect's aggregates migration maintain when the
// filter allows, else from the assets themselves through their
// indexes. Both paths give the same answer (storetest.RunSQLAggregates
// compares them on random data), and both stores choose a path by the same
// rules. Path forces one, for those comparisons; the zero value chooses.
type Aggregates struct {
	Q    Q
	Path AggregatePath
}

// AggregatePath names where an answer comes from.
type AggregatePath int

const (
	PathAuto   AggregatePath = iota
	PathTable                // the maintained aggregates
	PathAssets               // the asset rows (the fallback)
)

// AssetAggregates returns the counts and clusters repository.
func (r Repos) AssetAggregates() store.AssetAggregates { return Aggregates{Q: r.Q} }

var _ store.AssetAggregates = Aggregates{}

// dayMicros is one day of capture_wall.
const dayMicros = 86_400_000_000

func (r Aggregates) Counts(ctx context.Context, q query.CountsQuery) ([]query.BucketCount, bool, error) {
	if q.Limit < 1 {
		return nil, false, fmt.Errorf("counts: limit %d is not positive", q.Limit)
	}
	// The cursor becomes a bound on the day: buckets start on a day.
	lo, hi := dayRange(q)
	var rows Rows
	var err error
	if r.Path == PathTable || r.Path == PathAuto && DayCountable(q.Filter) {
		rows, err = r.daysFromTable(ctx, q, lo, hi)
	} else {
		rows, err = r.daysFromAssets(ctx, q, lo, hi)
	}
	if err != nil {
		return nil, false, fmt.Errorf("counts: %w", r.Q.translate(err))
	}
	defer rows.Close()
	// One row a day, or a bucket named by its first day (Dialect.BucketDay);
	// Start reads it back in Go and merges the days of a bucket.
	var out []query.BucketCount
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
		out = append(out, query.BucketCount{Start: start, Count: n})
	}
	return out, false, r.Q.translate(rows.Err())
}

// dayBound is an optional day bound.
type dayBound struct {
	day int64
	set bool
}

// dayRange turns the page cursor into days: lo <= day < hi.
func dayRange(q query.CountsQuery) (lo, hi dayBound) {
	if q.After == nil {
		return lo, hi
	}
	if q.Filter.Asc {
		return dayBound{geogrid.FloorDiv(q.Bucket.Next(*q.After).UnixMicro(), dayMicros), true}, hi
	}
	return lo, dayBound{geogrid.FloorDiv(q.After.UnixMicro(), dayMicros), true}
}

// DayCountable reports whether asset_day_counts holds the answer: no
// filter but state, media type, a rating of at least 0 and offsetless
// capture bounds at midnight, over the collapsed list (the table counts
// stack covers only; the expanded one, WithStacked, reads the assets).
func DayCountable(f query.AssetFilter) bool {
	if len(f.IDs) > 0 || f.StackID != "" || f.AlbumID != "" || len(f.PersonIDs) > 0 || f.Location != nil ||
		f.WithStacked || f.MinRating != nil && *f.MinRating < 0 {
		return false
	}
	for _, b := range []*catalog.TimeBound{f.Capture.After, f.Capture.Before} {
		if b != nil && (b.HasOffset || geogrid.FloorMod(b.Micros(), dayMicros) != 0) {
			return false
		}
	}
	return true
}

// perBucket is the select list, grouping and limit of a count per day
// (SQLite: every day of the range, merged in Go) or per bucket
// (Dialect.BucketDay: the first Limit+1 buckets).
func (r Aggregates) perBucket(q query.CountsQuery, day, count string, args []any) (cols, rest string, _ []any) {
	bucket := r.Q.d.BucketDay
	if bucket == nil {
		return day + ", " + count, ` GROUP BY ` + day + ` ORDER BY ` + day + ` ` + direction(q.Filter.Asc), args
	}
	return bucket(q.Bucket, day) + " AS b, " + count, ` GROUP BY b ORDER BY b ` + direction(q.Filter.Asc) + ` LIMIT ?`,
		append(args, q.Limit+1)
}

// daysFromTable sums asset_day_counts per day or bucket, in the filter's
// order.
func (r Aggregates) daysFromTable(ctx context.Context, q query.CountsQuery, lo, hi dayBound) (Rows, error) {
	f := q.Filter
	where := []string{"library_id = ?", LiveCondition("live", f.State)}
	args := []any{f.LibraryID}
	if f.MediaType != "" {
		where, args = append(where, "media_type = ?"), append(args, string(f.MediaType))
	}
	if f.MinRating != nil {
		where, args = append(where, "rating >= ?"), append(args, *f.MinRating)
	}
	if b := f.Capture.After; b != nil {
		lo = tighter(lo, geogrid.FloorDiv(b.Micros(), dayMicros), true)
	}
	if b := f.Capture.Before; b != nil {
		hi = tighter(hi, geogrid.FloorDiv(b.Micros(), dayMicros), false)
	}
	if lo.set {
		where, args = append(where, "day >= ?"), append(args, lo.day)
	}
	if hi.set {
		where, args = append(where, "day < ?"), append(args, hi.day)
	}
	cols, rest, args := r.perBucket(q, "day", r.Q.d.SumInt("count"), args)
	return r.Q.query(ctx, `SELECT `+cols+` FROM asset_day_counts WHERE `+strings.Join(where, " AND ")+rest, args...)
}

// daysFromAssets counts the matching assets per day or bucket.
func (r Aggregates) daysFromAssets(ctx context.Context, q query.CountsQuery, lo, hi dayBound) (Rows, error) {
	sel := r.Q.d.AssetRows(q.Filter)
	if lo.set {
		sel.Where, sel.Args = append(sel.Where, "a.capture_wall >= ?"), append(sel.Args, lo.day*dayMicros)
	}
	if hi.set {
		sel.Where, sel.Args = append(sel.Where, "a.capture_wall < ?"), append(sel.Args, hi.day*dayMicros)
	}
	day := r.Q.d.AssetDay
	if r.Q.d.BucketDay == nil {
		// SQLite groups by the day's alias.
		cols, rest, args := r.perBucket(q, "d", "count(*)", sel.Args)
		return r.Q.query(ctx, sel.SQL(day+" AS "+cols)+rest, args...)
	}
	cols, rest, args := r.perBucket(q, day, "count(*)", sel.Args)
	return r.Q.query(ctx, sel.SQL(cols)+rest, args...)
}

// Selection is the SQL reading the assets of a filter: a FROM clause
// binding "assets a", conditions, and the arguments of both in order.
type Selection struct {
	From  string
	Where []string
	Args  []any
}

// SQL is the SELECT of cols from the selection.
func (s Selection) SQL(cols string) string {
	return "SELECT " + cols + " FROM " + s.From + " WHERE " + strings.Join(s.Where, " AND ")
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
