package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// aggregates answers counts and geo clusters, from the tables that the
// triggers of migration 0006 maintain when the filter allows, else from the
// assets themselves through their indexes. Both paths give the same answer
// (aggregates_test.go compares them on random data); the rules of when a
// filter takes which path are the SQLite store's (sqlite/assets_counts.go,
// assets_clusters.go), so both stores choose alike.
type aggregates struct{ q conn }

var _ store.AssetAggregates = aggregates{}

// AssetAggregates returns the counts and clusters repository.
func (r repos) AssetAggregates() store.AssetAggregates { return aggregates{r.q} }

// dayMicros is one day of capture_wall.
const dayMicros = 86_400_000_000

// sqlDay is the wall-clock date of "assets a" as days since 1970-01-01
// (floor division): migration 0006's asset_day.
const sqlDay = "asset_day(a.capture_wall)"

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
	var rows pgx.Rows
	var err error
	if p == pathTable || p == pathAuto && dayCountable(q.Filter) {
		rows, err = r.daysFromTable(ctx, q, lo, hi)
	} else {
		rows, err = r.daysFromAssets(ctx, q, lo, hi)
	}
	if err != nil {
		return nil, false, fmt.Errorf("counts: %w", translate(err))
	}
	defer rows.Close()
	// One row a bucket, named by its first day; Start reads it back in Go
	// (and would merge the days of a bucket, were they apart).
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

// bucketDay is the first day of the bucket of a day (an SQL expression of
// days since 1970-01-01), as days since 1970-01-01: store.CountBucket.Start
// in SQL, so that a page holds its buckets and one more, not every day.
func bucketDay(b store.CountBucket, day string) string {
	switch b {
	case store.BucketMonth, store.BucketYear:
		return "(date_trunc('" + string(b) + "', (date '1970-01-01' + (" + day + ")::integer)::timestamp)::date - date '1970-01-01')"
	}
	return day
}

// daysFromTable sums asset_day_counts per bucket, in the filter's order:
// the first Limit+1 buckets, as bucketDay numbers them.
func (r aggregates) daysFromTable(ctx context.Context, q store.CountsQuery, lo, hi dayBound) (pgx.Rows, error) {
	f := q.Filter
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
	return r.q.query(ctx, `SELECT `+bucketDay(q.Bucket, "day")+` AS b, sum(count)::bigint FROM asset_day_counts WHERE `+
		strings.Join(where, " AND ")+` GROUP BY b ORDER BY b `+direction(f.Asc)+` LIMIT ?`, append(args, q.Limit+1)...)
}

// daysFromAssets counts the matching assets per bucket.
func (r aggregates) daysFromAssets(ctx context.Context, q store.CountsQuery, lo, hi dayBound) (pgx.Rows, error) {
	f := q.Filter
	sel := selectAssets(f)
	if lo.set {
		sel.where, sel.args = append(sel.where, "a.capture_wall >= ?"), append(sel.args, lo.day*dayMicros)
	}
	if hi.set {
		sel.where, sel.args = append(sel.where, "a.capture_wall < ?"), append(sel.args, hi.day*dayMicros)
	}
	return r.q.query(ctx, sel.sql(bucketDay(q.Bucket, sqlDay)+" AS b, count(*)")+` GROUP BY b ORDER BY b `+
		direction(f.Asc)+` LIMIT ?`, append(sel.args, q.Limit+1)...)
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

// selectAssets selects what List selects, through the list's own
// conditions (assetConditions, with the spatial index on offer to the
// planner), and an album's links.
func selectAssets(f store.AssetFilter) selection {
	where, args := assetConditions(f, false)
	if f.AlbumID != "" {
		where = append(where, "a.id IN (SELECT asset_id FROM album_assets WHERE album_id = ?)")
		args = append(args, f.AlbumID)
	}
	return selection{from: "assets a", where: where, args: args}
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
