package sqlite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// identityPlanCases are the sign-in queries of identities.go.
var identityPlanCases = []planCase{
	{name: "identity by subject", sql: `SELECT ` + identityCols + ` FROM identities WHERE issuer = ? AND subject = ?`,
		args: []any{"https://idp.example.com", "sub"}},
	{name: "identity of a user", sql: `SELECT ` + identityCols + ` FROM identities WHERE user_id = ? AND issuer = ?`,
		args: []any{"intuser_a", "https://idp.example.com"}},
	{name: "expired state sweep", sql: `DELETE FROM oidc_states WHERE expires_at < ?`, args: []any{1}},
	{name: "state take", sql: `DELETE FROM oidc_states WHERE state_hash = ? RETURNING state_hash`,
		args: []any{[]byte("hash")}},
}

// TestIdentityQueriesUseIndexes: no full table scan, no sort.
func TestIdentityQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)
	for _, c := range identityPlanCases {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			for _, row := range plan {
				require.False(t, fullScan(row) || strings.Contains(row, "TEMP B-TREE"),
					"a full table scan or a sort outside an index: %s", row)
			}
		})
	}
}
