package sqlite

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// TestMLStepQueriesUseIndexes explains the queries of the faces, ocr and
// describe steps (text.go, sqlstore faces.Replaceable) and of the pass that
// splits the OCR texts again (sqlstore texts.go) like TestQueriesUseIndexes.
func TestMLStepQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)
	cases := []planCase{
		sharedSQL(func(r sqlstore.Repos) {
			_, _ = r.Faces().Replaceable(context.Background(), "asset_a")
		}).last("an asset's replaceable faces"),
		{name: "an asset's text record", sql: `SELECT asset_id, ocr_text, ocr_lines, describer, updated_at
			FROM asset_text WHERE asset_id = ?`, args: []any{"asset_a"}},
		sharedSQL(func(r sqlstore.Repos) {
			_, _ = r.AssetTexts().OCRTexts(context.Background(), "asset_a", 200)
		}).last("a page of the texts to split, after an asset id"),
		sharedSQL(func(r sqlstore.Repos) {
			_, _ = r.AssetTexts().PutOCRTerms(context.Background(), "asset_a", "NOPARKING", "no parking")
		}).last("the terms of one text"),
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
