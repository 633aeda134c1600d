package sqlite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// clusteringPlanCases are the queries of clustering.go that run per
// cluster task or per re-cluster move, and the statements of the triggers
// of migration 0012, with the indexes each must use.
func clusteringPlanCases() []struct {
	planCase
	index string
} {
	type c = struct {
		planCase
		index string
	}
	return []c{
		{planCase{name: "an asset's pending faces", sql: pendingSQL, args: []any{"asset_a"}}, "faces_asset"},
		{planCase{name: "a person's faces", sql: personFacesSQL, args: []any{"person_a"}}, "faces_person"},
		{planCase{name: "centroids changed since a generation", sql: centroidsSQL, args: []any{"lib_a", 7}},
			"person_centroids_version"},
		{planCase{name: "stale centroids", sql: staleSQL, args: []any{"lib_a"}}, "person_centroids_stale"},
		{planCase{name: "a person's centroid", sql: `SELECT ` + centroidCols + ` FROM person_centroids
			WHERE person_id = ?`, args: []any{"person_a"}}, "sqlite_autoindex_person_centroids_1"},
		{planCase{name: "machine faces nobody placed", sql: unplacedSQL, args: []any{"lib_a"}}, "faces_unplaced"},
		{planCase{name: "faces of machine clusters", sql: clusteredSQL, args: []any{"lib_a"}, tempSortOK: true},
			"faces_person"},
		{planCase{name: "the machine places faces", sql: placeSQL(2),
			args: []any{"person_b", 1, "face_a", "face_b", "person_a"}}, "faces_person (person_id=? AND id=?)"},
		{planCase{name: "a better featured face", sql: featureIfBetterSQL,
			args: []any{"face_a", "person_a", "face_a", 0.5}}, "sqlite_autoindex_people_1"},
		{planCase{name: "the best featured face", sql: featureBestSQL, args: []any{"person_a", "person_a"},
			tempSortOK: true}, "faces_person"},
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
