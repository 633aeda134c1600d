package sqlite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sharingPlanCases are the membership and invitation queries, built from
// the same constants the repositories use.
var sharingPlanCases = []planCase{
	{name: "member by user", sql: `SELECT ` + memberCols + ` FROM ` + memberFrom + `
		WHERE m.library_id = ? AND m.user_id = ?`, args: []any{"lib_a", "intuser_a"}},
	{name: "member list cursor lookup", sql: "SELECT m.created_at FROM " + memberFrom +
		" WHERE m.library_id = ? AND m.user_id = ?", args: []any{"lib_a", "intuser_a"}},
	{name: "member list, first page", sql: "SELECT " + memberCols + " FROM " + memberFrom +
		" WHERE m.library_id = ? ORDER BY m.created_at DESC, m.user_id DESC LIMIT ?", args: []any{"lib_a", 21}},
	{name: "member list after a cursor", sql: "SELECT " + memberCols + " FROM " + memberFrom +
		" WHERE m.library_id = ? AND (m.created_at, m.user_id) < (?, ?) ORDER BY m.created_at DESC, m.user_id DESC LIMIT ?",
		args: []any{"lib_a", 5, "intuser_a", 21}},
	{name: "member role change", sql: `UPDATE library_members SET role = ?, updated_at = ?
		WHERE library_id = ? AND user_id = ?`, args: []any{"viewer", 1, "lib_a", "intuser_a"}},
	{name: "member deletion", sql: `DELETE FROM library_members WHERE library_id = ? AND user_id = ?`,
		args: []any{"lib_a", "intuser_a"}},
	{name: "removal lookup", sql: `SELECT removed_at FROM library_removals WHERE library_id = ? AND user_id = ?`,
		args: []any{"lib_a", "intuser_a"}},
	{name: "library list of a scoped credential", sql: "SELECT " + libraryCols + ", m.role FROM " +
		"library_members m JOIN libraries l ON l.id = m.library_id WHERE m.user_id = ?" +
		" AND m.library_id IN (SELECT value FROM json_each(?)) AND l.trashed_at IS NOT NULL" +
		" ORDER BY m.library_id DESC LIMIT ?", args: []any{"intuser_a", `["lib_a"]`, 21}},
	{name: "invitation by id", sql: `SELECT ` + invitationCols + ` FROM ` + invitationFrom + ` WHERE i.id = ?`,
		args: []any{"inv_a"}},
	{name: "invitation by token hash", sql: `SELECT ` + invitationCols + ` FROM ` + invitationFrom +
		` WHERE i.token_hash = ?`, args: []any{[]byte("hash")}},
	{name: "invitation list cursor lookup", sql: "SELECT i.id FROM " + invitationFrom +
		" WHERE i.library_id = ? AND i.id = ?", args: []any{"lib_a", "inv_a"}},
	{name: "invitation list after a cursor", sql: "SELECT " + invitationCols + " FROM " + invitationFrom +
		" WHERE i.library_id = ? AND i.id < ? ORDER BY i.id DESC LIMIT ?", args: []any{"lib_a", "inv_a", 21}},
	{name: "invitation disable", sql: `UPDATE invitations SET disabled_at = ?, updated_at = ?
		WHERE id = ? AND disabled_at IS NULL`, args: []any{1, 1, "inv_a"}},
	{name: "invitation redeemed by a user", sql: `SELECT count(*) FROM invitation_joins
		WHERE invitation_id = ? AND user_id = ?`, args: []any{"inv_a", "intuser_a"}},
}

// TestSharingQueriesUseIndexes is TestQueriesUseIndexes for the sharing
// queries: no full table scan, no sort outside an index.
func TestSharingQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)

	for _, c := range sharingPlanCases {
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
