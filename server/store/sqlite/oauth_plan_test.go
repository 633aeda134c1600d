package sqlite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// oauthPlanCases are the queries of oauth.go. The grant lookup runs on every
// OAuth-authenticated request; the record lookups on every token exchange.
var oauthPlanCases = []planCase{
	{name: "oauth client by id", sql: `SELECT ` + oauthClientCols + ` FROM oauth_clients c WHERE c.id = ?`,
		args: []any{"oauthclient_a"}},
	{name: "oauth client list, first page",
		sql: `SELECT ` + oauthClientCols + ` FROM oauth_clients c ORDER BY c.id DESC LIMIT ?`, args: []any{21}},
	{name: "oauth grant with its client", sql: `SELECT g.id, g.client_id, g.user_id, g.scopes, g.created_at, g.revoked_at,
		c.revoked_at FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id WHERE g.id = ?`, args: []any{"oauthgrant_a"}},
	{name: "oauth record by signature", sql: `SELECT grant_id, data, active, expires_at FROM oauth_requests
		WHERE kind = ? AND signature = ?`, args: []any{"refresh", "sig"}},
	{name: "oauth record deactivation", sql: `UPDATE oauth_requests SET active = 0 WHERE kind = ? AND signature = ? AND active = 1`,
		args: []any{"refresh", "sig"}},
	{name: "oauth grant revocation of its records", sql: `UPDATE oauth_requests SET active = 0 WHERE grant_id = ? AND active = 1`,
		args: []any{"oauthgrant_a"}},
}

// TestOAuthQueriesUseIndexes: no full table scan, no sort. The client list
// walks the primary key backwards under a LIMIT (keyset paging by id),
// which is the one SCAN allowed.
func TestOAuthQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)
	for _, c := range oauthPlanCases {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				scan := fullScan(row) && !(strings.HasPrefix(c.name, "oauth client list") && row == "SCAN c")
				require.False(t, scan || strings.Contains(row, "TEMP B-TREE"),
					"a full table scan or a sort outside an index: %s", row)
			}
		})
	}
}
