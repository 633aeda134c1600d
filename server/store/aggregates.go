package store

import (
	"context"

	"github.com/photoctl/photoctl/server/query"
)

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
	Counts(ctx context.Context, q query.CountsQuery) ([]query.BucketCount, bool, error)
	// GeoClusters returns one item per non-empty grid cell, ordered from
	// south to north, then west to east (east from the viewport's west edge
	// for a box crossing the antimeridian).
	GeoClusters(ctx context.Context, q query.ClusterQuery) ([]query.GeoCluster, error)
}
