package store

import (
	"context"
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
// capture date. Filter selects the assets as List does (IDs and StackID are
// not used) and orders the buckets (Filter.Asc; newest first by default).
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
// a viewport. Filter selects the assets as List does; Filter.Location.Box is
// the viewport and must be set (IDs and StackID are not used).
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

// AssetAggregates answers counts and clusters over a library's assets.
// Both count what collapsed lists show: stack covers and unstacked assets.
//
// Contract: an answer equals the one computed from the matching asset rows
// at the same point in time, whichever way the implementation finds it
// (maintained aggregates or a scan); writes through Assets keep any
// maintained aggregates in the same transaction.
type AssetAggregates interface {
	// Counts returns up to q.Limit non-empty buckets in the query's order
	// and whether more follow.
	Counts(ctx context.Context, q CountsQuery) ([]BucketCount, bool, error)
	// GeoClusters returns one item per non-empty grid cell, ordered from
	// south to north, then west to east (east from the viewport's west edge
	// for a box crossing the antimeridian).
	GeoClusters(ctx context.Context, q ClusterQuery) ([]GeoCluster, error)
}
