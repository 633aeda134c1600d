package sqlite

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// clusteringPlanCases are the queries of the clustering repository
// (sqlstore, as it issues them over this dialect) that run per cluster
// task or per re-cluster move, and the statements of the triggers
// of migration 0012, with the indexes each must use.
func clusteringPlanCases() []struct {
	planCase
	index string
} {
	type c = struct {
		planCase
		index string
	}
	ctx := context.Background()
	clu := func(run func(r store.Clustering)) *stmtLog {
		return sharedSQL(func(r sqlstore.Repos) { run(r.Clustering()) })
	}
	movable := clu(func(r store.Clustering) { _, _ = r.MovableFaces(ctx, "lib_a") })
	clustered, unplaced := movable.stmt("faces of machine clusters", 0), movable.stmt("machine faces nobody placed", 1)
	clustered.tempSortOK = true
	from := "person_a"
	return []c{
		{clu(func(r store.Clustering) { _, _ = r.PendingFaces(ctx, "asset_a") }).last("an asset's pending faces"),
			"faces_asset"},
		{clu(func(r store.Clustering) { _, _ = r.PersonFaces(ctx, "person_a") }).last("a person's faces"),
			"faces_person"},
		{clu(func(r store.Clustering) { _, _ = r.Centroids(ctx, "lib_a", 7) }).last(
			"centroids changed since a generation"), "person_centroids_version"},
		{clu(func(r store.Clustering) { _, _ = r.StaleCentroids(ctx, "lib_a") }).last("stale centroids"),
			"person_centroids_stale"},
		{clu(func(r store.Clustering) { _, _ = r.Centroid(ctx, "person_a") }).last("a person's centroid"),
			"sqlite_autoindex_person_centroids_1"},
		{unplaced, "faces_unplaced"},
		{clustered, "faces_person"},
		{clu(func(r store.Clustering) {
			_, _ = r.Place(ctx, []string{"face_a", "face_b"}, &from, "person_b", time.Unix(0, 0))
		}).last("the machine places faces"), "faces_person (person_id=? AND id=?)"},
		{clu(func(r store.Clustering) { _, _ = r.FeatureIfBetter(ctx, "person_a", "face_a", 0.5) }).last(
			"a better featured face"), "sqlite_autoindex_people_1"},
		{withTempSort(clu(func(r store.Clustering) { _, _ = r.FeatureBest(ctx, "person_a") }).last(
			"the best featured face")), "faces_person"},
		{planCase{name: "trigger: a person's centroid goes stale", sql: `UPDATE person_centroids SET stale = 1,
			version = (SELECT generation FROM clustering_state WHERE library_id = ?) WHERE person_id = ?`,
			args: []any{"lib_a", "person_a"}}, "sqlite_autoindex_person_centroids_1"},
	}
}

func TestClusteringQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)
	for _, c := range clusteringPlanCases() {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				// best is the one row of featureBestSQL's subquery.
				require.False(t, fullScan(row) && row != "SCAN best", "a full table scan: %s", row)
				require.False(t, strings.Contains(row, "TEMP B-TREE") && !c.tempSortOK, "an unexpected sort: %s", row)
			}
			require.Contains(t, strings.Join(plan, "\n"), c.index)
		})
	}
}
