package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// recorder records the queries it runs.
type recorder struct {
	querier
	queries []string
	args    [][]any
}

func (r *recorder) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	r.queries, r.args = append(r.queries, query), append(r.args, args)
	return r.querier.QueryContext(ctx, query, args...)
}

// TestAggregateQueriesUseIndexes explains the queries of both paths: none
// scans a whole table, and a location makes the R*Tree drive.
func TestAggregateQueriesUseIndexes(t *testing.T) {
	f := newAggFixture(t)
	paris := catalog.BBox{MinLon: 2.2, MinLat: 48.8, MaxLon: 2.5, MaxLat: 48.9}
	fiji := catalog.BBox{MinLon: 170.3, MinLat: -30, MaxLon: -160.1, MaxLat: 0}
	after := &catalog.TimeBound{Time: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)}
	cases := []struct {
		name  string
		run   func(aggregates) error
		rtree bool
	}{
		{"counts from the table", func(a aggregates) error {
			_, _, err := a.Counts(t.Context(), query.CountsQuery{Filter: query.AssetFilter{LibraryID: f.lib,
				MediaType: catalog.MediaImage}, Bucket: query.BucketMonth, Limit: 100})
			return err
		}, false},
		{"counts from the timeline", func(a aggregates) error {
			_, _, err := a.Counts(t.Context(), query.CountsQuery{Filter: query.AssetFilter{LibraryID: f.lib,
				Capture: catalog.CaptureRange{After: after}}, Bucket: query.BucketDay, Limit: 100})
			return err
		}, false},
		{"counts in a viewport", func(a aggregates) error {
			_, _, err := a.Counts(t.Context(), query.CountsQuery{Filter: query.AssetFilter{LibraryID: f.lib,
				Location: &catalog.Location{Box: &paris}}, Bucket: query.BucketYear, Limit: 100})
			return err
		}, true},
		{"counts in a circle", func(a aggregates) error {
			_, _, err := a.Counts(t.Context(), query.CountsQuery{Filter: query.AssetFilter{LibraryID: f.lib,
				Location: &catalog.Location{Circle: &catalog.Circle{Lon: 179.9, Lat: 0, RadiusM: 50000}}},
				Bucket: query.BucketYear, Limit: 100})
			return err
		}, true},
		{"clusters from geo_cells", func(a aggregates) error {
			_, err := a.GeoClusters(t.Context(), query.ClusterQuery{Filter: query.AssetFilter{LibraryID: f.lib,
				Location: &catalog.Location{Box: &fiji}}, CellSize: 2, MaxCells: 1000})
			return err
		}, true},
		{"clusters from the assets", func(a aggregates) error {
			_, err := a.GeoClusters(t.Context(), query.ClusterQuery{Filter: query.AssetFilter{LibraryID: f.lib,
				State: query.StateAll, MediaType: catalog.MediaVideo, Location: &catalog.Location{Box: &paris}},
				CellSize: 0.05, MaxCells: 1000})
			return err
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &recorder{querier: f.db.reader}
			require.NoError(t, c.run(aggregates{rec}))
			require.NotEmpty(t, rec.queries)
			for i, q := range rec.queries {
				plan := explain(t, f.db.reader, q, rec.args[i])
				t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
				for _, row := range plan {
					require.False(t, fullScan(row), "full scan: %s", row)
				}
				if c.rtree && !strings.Contains(q, "FROM geo_cells") {
					require.True(t, strings.Contains(strings.Join(plan, "\n"), "VIRTUAL TABLE"), "the R*Tree is not used")
					require.NotContains(t, strings.Join(plan, "\n"), "assets_timeline", "the timeline drives")
				}
			}
		})
	}
}
