package sqlite

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// planCase is one hot-path query, copied from the repository file that
// issues it (page() queries spelled out as page() builds them), with
// representative arguments.
type planCase struct {
	name string
	sql  string
	args []any
	// tempSortOK allows a temp b-tree for ORDER BY: the rows sorted are one
	// user's API keys, a small set found through an index first.
	tempSortOK bool
	// issue names a known problem the plan shows and its proposed fix. The
	// test then requires the problem to be there, so that fixing it fails
	// the test until the note is removed.
	issue string
}

const (
	planUserCols = `id, email, first_name, last_name, password_hash, is_active, is_superuser,
	is_verified, quota_bytes, created_at, updated_at`
	planKeyCols = `k.id, k.user_id, k.name, k.secret_hash, k.actions, k.library_ids, k.last_used_at,
	k.created_at, k.updated_at`
	planLibCols = `l.id, l.name, l.owner_id, l.trashed_at, l.created_at, l.updated_at`
	planLibFrom = `library_members m JOIN libraries l ON l.id = m.library_id`
	planEvtCols = "id, type, library_id, resource_id, data, created_at"
)

var planCases = []planCase{
	{name: "user by id", sql: `SELECT ` + planUserCols + ` FROM users WHERE id = ?`, args: []any{"intuser_a"}},
	{name: "user by email key", sql: `SELECT ` + planUserCols + ` FROM users WHERE email_key = ?`,
		args: []any{"alice@example.com"}},
	{name: "api key by secret hash", sql: `SELECT ` + planKeyCols + ` FROM api_keys k
		WHERE k.secret_hash = ?`, args: []any{[]byte("hash")}},
	{name: "api key by id for its user", sql: `SELECT ` + planKeyCols + ` FROM api_keys k
		WHERE k.id = ? AND k.user_id = ?`, args: []any{"key_a", "intuser_a"}},
	{name: "api key list cursor lookup", sql: "SELECT k.created_at FROM api_keys k WHERE k.user_id = ? AND k.id = ?",
		args: []any{"intuser_a", "key_a"}},
	{name: "api key list by created_at, first page", tempSortOK: true,
		sql:  "SELECT " + planKeyCols + " FROM api_keys k WHERE k.user_id = ? ORDER BY k.created_at DESC, k.id DESC LIMIT ?",
		args: []any{"intuser_a", 21}},
	{name: "api key list by created_at after a cursor", tempSortOK: true,
		sql: "SELECT " + planKeyCols + " FROM api_keys k WHERE k.user_id = ? AND (k.created_at, k.id) < (?, ?)" +
			" ORDER BY k.created_at DESC, k.id DESC LIMIT ?",
		args: []any{"intuser_a", 1714564800000000, "key_a", 21}},
	{name: "api key list by name with filters", tempSortOK: true,
		sql: "SELECT " + planKeyCols + " FROM api_keys k WHERE k.user_id = ? AND instr(lower(k.name), lower(?)) > 0" +
			" AND (k.library_ids IS NULL OR EXISTS (SELECT 1 FROM json_each(k.library_ids) WHERE value = ?))" +
			" ORDER BY k.name COLLATE NOCASE ASC, k.id ASC LIMIT ?",
		args: []any{"intuser_a", "backup", "lib_a", 21}},
	{name: "api key list by last use", tempSortOK: true,
		sql: "SELECT " + planKeyCols + " FROM api_keys k WHERE k.user_id = ?" +
			" ORDER BY COALESCE(k.last_used_at, 0) DESC, k.id DESC LIMIT ?",
		args: []any{"intuser_a", 21}},
	{name: "api key touch", sql: `UPDATE api_keys SET last_used_at = ? WHERE id = ?
		AND (last_used_at IS NULL OR last_used_at < ?)`, args: []any{2, "key_a", 1}},
	{name: "session by id", sql: `SELECT id, user_id, created_at, expires_at, revoked_at
		FROM sessions WHERE id = ?`, args: []any{"sess_a"}},
	{name: "refresh token by hash", sql: `SELECT id, session_id, user_id, token_hash, created_at, expires_at,
		rotated_at FROM refresh_tokens WHERE token_hash = ?`, args: []any{[]byte("hash")}},
	{name: "refresh token rotation", sql: `UPDATE refresh_tokens SET rotated_at = ? WHERE id = ?
		AND rotated_at IS NULL`, args: []any{1, "rt_a"}},
	{name: "library membership", sql: `SELECT ` + planLibCols + `, m.role
		FROM library_members m JOIN libraries l ON l.id = m.library_id
		WHERE m.library_id = ? AND m.user_id = ?`, args: []any{"lib_a", "intuser_a"}},
	{name: "library list cursor lookup", sql: "SELECT m.library_id FROM " + planLibFrom +
		" WHERE m.user_id = ? AND l.trashed_at IS NULL AND m.library_id = ?", args: []any{"intuser_a", "lib_a"}},
	{name: "library list, first page", sql: "SELECT " + planLibCols + ", m.role FROM " + planLibFrom +
		" WHERE m.user_id = ? AND l.trashed_at IS NULL ORDER BY m.library_id DESC LIMIT ?",
		args: []any{"intuser_a", 21}},
	{name: "library list after a cursor", sql: "SELECT " + planLibCols + ", m.role FROM " + planLibFrom +
		" WHERE m.user_id = ? AND l.trashed_at IS NULL AND m.library_id < ? ORDER BY m.library_id DESC LIMIT ?",
		args: []any{"intuser_a", "lib_a", 21}},
	{name: "live library ids of a user", sql: `SELECT l.id FROM library_members m
		JOIN libraries l ON l.id = m.library_id
		WHERE m.user_id = ? AND l.trashed_at IS NULL ORDER BY m.library_id`, args: []any{"intuser_a"}},
	{name: "session revoke marks its refresh tokens",
		sql: `UPDATE refresh_tokens SET rotated_at = COALESCE(rotated_at, ?)
		WHERE session_id = ?`, args: []any{1, "sess_a"}},
	{name: "owned library by name", sql: `SELECT ` + planLibCols + ` FROM libraries l
		WHERE l.owner_id = ? AND l.name_key = ?`, args: []any{"intuser_a", "family"}},
	{name: "live owned library count", sql: `SELECT count(*) FROM libraries WHERE owner_id = ?
		AND trashed_at IS NULL`, args: []any{"intuser_a"}},
	{name: "event list cursor lookup", sql: "SELECT seq FROM events WHERE library_id = ? AND id = ?",
		args: []any{"lib_a", "evt_a"}},
	{name: "asset ids by checksums (upload pre-check)",
		sql:  "SELECT checksum, id FROM assets WHERE library_id = ? AND checksum IN (?, ?)",
		args: []any{"lib_a", []byte("sum one"), []byte("sum two")}},
	{name: "event list after a cursor", sql: "SELECT " + planEvtCols + " FROM events WHERE library_id = ?" +
		" AND (seq, id) > (?, ?) ORDER BY seq ASC, id ASC LIMIT ?", args: []any{"lib_a", 10, "evt_a", 21}},
}

// TestQueriesUseIndexes explains every hot-path query and fails on a full
// table scan: each must SEARCH an index or scan one (covering or in index
// order). Run with -v to print the plans.
func TestQueriesUseIndexes(t *testing.T) {
	conn := planConn(t)

	for _, c := range planCases {
		t.Run(c.name, func(t *testing.T) {
			plan := explain(t, conn, c.sql, c.args)
			t.Logf("plan:\n  %s", strings.Join(plan, "\n  "))
			var problems []string
			for _, row := range plan {
				if fullScan(row) || strings.Contains(row, "TEMP B-TREE") && !c.tempSortOK {
					problems = append(problems, row)
				}
			}
			if c.issue != "" {
				require.NotEmpty(t, problems, "fixed? the plan no longer shows: %s; remove the issue note", c.issue)
				t.Logf("known issue: %s", c.issue)
				return
			}
			require.Empty(t, problems, "a full table scan or an unexpected sort")
		})
	}
}

// planConn opens a new, migrated, empty database and returns a read-only
// connection to it for EXPLAIN QUERY PLAN.
func planConn(t *testing.T) *sql.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.db")
	db, err := Open(t.Context(), path)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	conn, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, conn.Close()) })
	return conn
}

// explain returns the detail column of EXPLAIN QUERY PLAN, one row each,
// over any connection or transaction.
func explain(t *testing.T, q querier, query string, args []any) []string {
	t.Helper()
	rows, err := q.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+query, args...)
	require.NoError(t, err)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notUsed int
		var detail string
		require.NoError(t, rows.Scan(&id, &parent, &notUsed, &detail))
		plan = append(plan, detail)
	}
	require.NoError(t, rows.Err())
	require.NotEmpty(t, plan)
	return plan
}

// fullScan reports whether a plan row reads a whole table: "SCAN t" without
// an index. A scan of a virtual table (json_each over one row's column) or
// of an index is fine.
func fullScan(row string) bool {
	if !strings.HasPrefix(row, "SCAN ") {
		return false
	}
	return !strings.Contains(row, "USING INDEX") && !strings.Contains(row, "USING COVERING INDEX") &&
		!strings.Contains(row, "USING INTEGER PRIMARY KEY") && !strings.Contains(row, "VIRTUAL TABLE")
}
