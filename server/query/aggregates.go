package query

import (
	"fmt"
	"time"
)

// CountBucket is the span of one counts bucket of the wall-clock capture
// date.
type CountBucket string

// Bucket spans.
const (
	BucketDay   CountBucket = "day"
	BucketMonth CountBucket = "month"
	BucketYear  CountBucket = "year"
)

// Start is the first day of the bucket holding the date of t (read in UTC,
// as wall-clock readings are stored).
func (b CountBucket) Start(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	switch b {
	case BucketYear:
		m, d = time.January, 1
	case BucketMonth:
		d = 1
	}
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Next is the start of the bucket after the one starting at start.
func (b CountBucket) Next(start time.Time) time.Time {
	switch b {
	case BucketYear:
		return start.AddDate(1, 0, 0)
	case BucketMonth:
		return start.AddDate(0, 1, 0)
	}
	return start.AddDate(0, 0, 1)
}

// CountsQuery asks for the number of assets per bucket of the wall-clock
// capture date. Filter selects the assets as the store's Assets.List does
// (IDs and StackID are not used) and orders the buckets (Filter.Asc;
// newest first by default).
type CountsQuery struct {
	Filter AssetFilter
	Bucket CountBucket
	// After, when set, is the Start of the last bucket of the previous page;
	// the page holds the buckets after it in the query's order.
	After *time.Time
	Limit int
}

// BucketCount is one non-empty bucket.
type BucketCount struct {
	Start time.Time // the bucket's first day, midnight UTC
	Count int64
}

// ClusterQuery asks for a grid clustering of the assets with coordinates in
// a viewport. Filter selects the assets as the store's Assets.List does;
// Filter.Location.Box is the viewport and must be set (IDs and StackID are
// not used).
type ClusterQuery struct {
	Filter AssetFilter
	// CellSize is the grid step in degrees, 0 < CellSize <= 180, used
	// rounded to the nearest 1e-7 degree.
	CellSize float64
	// MaxCells bounds the non-empty cells of an answer; more is a
	// *TooManyCellsError, never a partial answer.
	MaxCells int
}

// GeoCluster is one non-empty grid cell.
type GeoCluster struct {
	Latitude, Longitude float64 // the mean position of the cell's assets
	Count               int64
	// RepresentativeID is the greatest asset id in the cell (ids sort by
	// creation, so the latest upload).
	RepresentativeID string
}

// TooManyCellsError reports a clustering with more non-empty cells than
// ClusterQuery.MaxCells.
type TooManyCellsError struct{ Max int }

func (e *TooManyCellsError) Error() string {
	return fmt.Sprintf("more than %d non-empty cells", e.Max)
}
