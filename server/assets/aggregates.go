package assets

import (
	"context"
	"errors"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// MaxClusterCells is the most non-empty cells one geo-clusters answer holds
// (spec "Limits"); a denser viewport is refused, never cut short.
const MaxClusterCells = 1000

// CountsInput is a counts request: the library (selection rule) and the
// query without it.
type CountsInput struct {
	LibraryID string
	Query     query.CountsQuery
}

// Counts returns the selected library's asset counts per capture-date
// bucket, one page of them, and whether more follow.
func (s *Service) Counts(ctx context.Context, p *catalog.Principal, in CountsInput) ([]query.BucketCount, bool, error) {
	m, err := s.libs.Select(ctx, p, in.LibraryID, "query", "library_id")
	if err != nil {
		return nil, false, err
	}
	q := in.Query
	q.Filter.LibraryID = m.Library.ID
	if err := s.checkScope(ctx, q.Filter); err != nil {
		return nil, false, err
	}
	return s.store.Read().AssetAggregates().Counts(ctx, q)
}

// ClustersInput is a geo-clusters request: the library (selection rule),
// the filter with its viewport, and the cell size in degrees.
type ClustersInput struct {
	LibraryID string
	Filter    query.AssetFilter
	CellSize  float64
}

// GeoClusters groups the selected library's matching assets with
// coordinates into grid cells. More than MaxClusterCells non-empty cells is
// a validation error on cell_size.
func (s *Service) GeoClusters(ctx context.Context, p *catalog.Principal, in ClustersInput) ([]query.GeoCluster, error) {
	m, err := s.libs.Select(ctx, p, in.LibraryID, "query", "library_id")
	if err != nil {
		return nil, err
	}
	f := in.Filter
	f.LibraryID = m.Library.ID
	if err := s.checkScope(ctx, f); err != nil {
		return nil, err
	}
	out, err := s.store.Read().AssetAggregates().GeoClusters(ctx, query.ClusterQuery{Filter: f, CellSize: in.CellSize,
		MaxCells: MaxClusterCells})
	var tooMany *query.TooManyCellsError
	if errors.As(err, &tooMany) {
		return nil, catalog.InvalidField("value_error", fmt.Sprintf(
			"more than %d cells of this viewport hold assets at cell_size %g; a response holds at most %d: "+
				"use a larger cell_size or a smaller bbox", tooMany.Max, in.CellSize, tooMany.Max),
			in.CellSize, "query", "cell_size")
	}
	return out, err
}
