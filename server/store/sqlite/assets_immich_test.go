package sqlite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// TestImmichQueriesUseIndexes explains the lookups of the Immich layer
// (their behaviour is storetest's: FindBySHA1, Seq and IDBySeq).
func TestImmichQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)
	for _, c := range []planCase{
		{name: "assets by sha1", sql: `SELECT ` + sqlstore.AssetCols(dialect) + ` FROM assets a
			WHERE a.library_id = ? AND a.checksum_sha1 IN (?, ?)`, args: []any{"lib_a", []byte("a"), []byte("b")}},
		{name: "asset seq by id", sql: `SELECT seq FROM assets WHERE id = ?`, args: []any{"asset_a"}},
		{name: "asset id by seq", sql: `SELECT id FROM assets WHERE seq = ?`, args: []any{int64(7)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				require.False(t, fullScan(row) || strings.Contains(row, "TEMP B-TREE"), "plan row %q", row)
			}
			if c.name == "assets by sha1" {
				require.Contains(t, strings.Join(plan, "\n"), "assets_library_sha1")
			}
		})
	}
}
