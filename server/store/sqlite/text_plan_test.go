package sqlite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMLStepQueriesUseIndexes explains the queries of the faces, ocr and
// describe steps (text.go, faces.go Replaceable) like TestQueriesUseIndexes.
func TestMLStepQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)
	cases := []planCase{
		{name: "an asset's replaceable faces", sql: `SELECT ` + faceCols + ` FROM ` + faceFrom + ` WHERE f.asset_id = ?
			AND f.source = 'machine' AND f.assigned_by IS NOT 'user' AND (f.person_id IS NULL OR EXISTS (SELECT 1
			FROM people p WHERE p.id = f.person_id AND p.source = 'machine')) ORDER BY f.id`, args: []any{"asset_a"}},
		{name: "an asset's text record", sql: `SELECT asset_id, ocr_text, ocr_lines, describer, updated_at
			FROM asset_text WHERE asset_id = ?`, args: []any{"asset_a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				require.False(t, fullScan(row), "a full table scan: %s", row)
				require.NotContains(t, row, "TEMP B-TREE", "an unexpected sort")
			}
		})
	}
	t.Run("the faces come through the asset's index", func(t *testing.T) {
		plan := explain(t, conn, cases[0].sql, cases[0].args)
		require.Contains(t, strings.Join(plan, "\n"), "faces_asset")
	})
}
