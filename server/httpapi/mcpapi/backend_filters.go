package mcpapi

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/mcp"
	"github.com/photoctl/photoctl/server/query"
)

// The tools that aggregate over a filter: counts by date and clusters on
// the map.

func (b backend) Counts(ctx context.Context, q mcp.Query, bucket, after string, limit int) (*api.Page[api.AssetCount], error) {
	f, err := filter(q)
	if err != nil {
		return nil, err
	}
	if bucket == "" {
		bucket = string(query.BucketMonth)
	}
	layout, ok := convert.BucketLayout(query.CountBucket(bucket))
	if !ok {
		return nil, catalog.InvalidField("enum", "bucket must be day, month or year", bucket, "arguments", "bucket")
	}
	cq := query.CountsQuery{Filter: f, Bucket: query.CountBucket(bucket), Limit: limit}
	if after != "" {
		t, err := time.Parse(layout, after)
		if err != nil {
			return nil, catalog.InvalidField("value_error", "cursor must be the next_cursor of the previous answer",
				after, "arguments", "cursor")
		}
		cq.After = &t
	}
	counts, more, err := b.d.Assets.Counts(ctx, b.p, assets.CountsInput{LibraryID: q.LibraryID, Query: cq})
	if err != nil {
		return nil, err
	}
	out := convert.Counts(counts, more, layout)
	return &out, nil
}

func (b backend) GeoClusters(ctx context.Context, q mcp.Query, cellSize float64) ([]api.GeoCluster, error) {
	if q.BBox == "" {
		return nil, catalog.InvalidField("missing", "bbox is required", nil, "arguments", "bbox")
	}
	f, err := filter(q)
	if err != nil {
		return nil, err
	}
	if !(cellSize > 0 && cellSize <= 180) {
		return nil, catalog.InvalidField("value_error", "cell_size must be greater than 0 and at most 180", cellSize,
			"arguments", "cell_size")
	}
	cells, err := b.d.Assets.GeoClusters(ctx, b.p, assets.ClustersInput{LibraryID: q.LibraryID, Filter: f, CellSize: cellSize})
	if err != nil {
		return nil, err
	}
	return convert.GeoClusters(cells), nil
}

// filter reads a tool's filters with the parsers of the query string.
func filter(q mcp.Query) (query.AssetFilter, error) {
	var f query.AssetFilter
	switch q.MediaType {
	case "", "image", "video":
		f.MediaType = catalog.MediaType(q.MediaType)
	default:
		return f, catalog.InvalidField("enum", "media_type must be image or video", q.MediaType, "arguments", "media_type")
	}
	var err error
	if f.Capture, err = catalog.ParseCaptureRange(q.After, q.Before); err != nil {
		return f, err
	}
	radius := ""
	if q.Radius != 0 {
		radius = strconv.FormatFloat(q.Radius, 'f', -1, 64)
	}
	if f.Location, err = catalog.ParseLocation(q.BBox, q.Center, radius); err != nil {
		return f, err
	}
	f.AlbumID = q.AlbumID
	if len(q.PersonIDs) > 100 {
		return f, catalog.InvalidField("too_long", "person_ids may name at most 100 people", nil, "arguments", "person_ids")
	}
	f.PersonIDs = slices.Compact(slices.Sorted(slices.Values(q.PersonIDs)))
	return f, nil
}
