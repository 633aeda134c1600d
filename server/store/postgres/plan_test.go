package postgres_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/store/postgres"
)

// planCase is one hot-path query as its repository issues it (page()
// queries spelled out as page() builds them), with representative
// arguments.
type planCase struct {
	name string
	sql  string
	args []any
}

// sortOK names the cases allowed a sort step: the rows sorted are one
// user's API keys, a small set found through an index first.
var sortOK = map[string]bool{"api key list by name with filters": true}

const (
	planUserCols = `id, email, first_name, last_name, password_hash, is_active, is_superuser,
	is_verified, quota_bytes, created_at, updated_at`
	planKeyCols = `k.id, k.user_id, k.name, k.secret_hash, k.actions::text, k.library_ids::text, k.last_used_at,
	k.created_at, k.updated_at`
	planLibCols = `l.id, l.name, l.owner_id, l.trashed_at, l.created_at, l.updated_at`
	planLibFrom = `library_members m JOIN libraries l ON l.id = m.library_id`
)

var planCases = []planCase{
	{"user by id", `SELECT ` + planUserCols + ` FROM users WHERE id = $1`, []any{"user_a"}},
	{"user by email key", `SELECT ` + planUserCols + ` FROM users WHERE email_key = $1`, []any{"a@example.com"}},
	{"api key by secret hash", `SELECT ` + planKeyCols + ` FROM api_keys k WHERE k.secret_hash = $1`,
		[]any{[]byte("hash")}},
	{"api key list by created_at after a cursor", `SELECT ` + planKeyCols + ` FROM api_keys k
		WHERE k.user_id = $1 AND (k.created_at, k.id) < ($2, $3) ORDER BY k.created_at DESC, k.id DESC LIMIT $4`,
		[]any{"user_a", int64(1714564800000000), "key_a", 21}},
	{"api key list by name with filters", `SELECT ` + planKeyCols + ` FROM api_keys k
		WHERE k.user_id = $1 AND strpos(k.name_fold, $2) > 0
		AND (k.library_ids IS NULL OR k.library_ids @> jsonb_build_array($3::text))
		ORDER BY lower(k.name) ASC, k.id ASC LIMIT $4`, []any{"user_a", "backup", "lib_a", 21}},
	{"session by id", `SELECT id, user_id, created_at, expires_at, revoked_at FROM sessions WHERE id = $1`,
		[]any{"ses_a"}},
	{"refresh token by hash", `SELECT id, session_id FROM refresh_tokens WHERE token_hash = $1`,
		[]any{[]byte("hash")}},
	{"revoke a session's refresh tokens", `UPDATE refresh_tokens SET rotated_at = COALESCE(rotated_at, $1)
		WHERE session_id = $2`, []any{int64(1), "ses_a"}},
	{"membership", `SELECT ` + planLibCols + `, m.role FROM ` + planLibFrom + `
		WHERE m.library_id = $1 AND m.user_id = $2`, []any{"lib_a", "user_a"}},
	{"library list for a user after a cursor", `SELECT ` + planLibCols + `, m.role FROM ` + planLibFrom + `
		WHERE m.user_id = $1 AND l.trashed_at IS NULL AND m.library_id < $2 ORDER BY m.library_id DESC LIMIT $3`,
		[]any{"user_a", "lib_z", 21}},
	{"library owned by name", `SELECT ` + planLibCols + ` FROM libraries l WHERE l.owner_id = $1 AND l.name_key = $2`,
		[]any{"user_a", "family"}},
	{"live libraries owned", `SELECT count(*) FROM libraries WHERE owner_id = $1 AND trashed_at IS NULL`,
		[]any{"user_a"}},
	{"members after a cursor", `SELECT m.user_id, u.first_name FROM library_members m JOIN users u ON u.id = m.user_id
		WHERE m.library_id = $1 AND (m.created_at, m.user_id) < ($2, $3)
		ORDER BY m.created_at DESC, m.user_id DESC LIMIT $4`, []any{"lib_a", int64(1), "user_a", 21}},
	{"events after a cursor", `SELECT id, type, library_id, resource_id, data, created_at FROM events
		WHERE library_id = $1 AND seq > $2 ORDER BY seq ASC LIMIT $3`, []any{"lib_a", int64(1), 21}},
	{"newest event", `SELECT id FROM events ORDER BY seq DESC LIMIT 1`, nil},
	{"invitation by token", `SELECT i.id, (SELECT count(*) FROM invitation_joins j WHERE j.invitation_id = i.id)
		FROM invitations i JOIN users u ON u.id = i.created_by WHERE i.token_hash = $1`, []any{[]byte("hash")}},
	{"blob journal, oldest first", `SELECT key FROM blob_journal ORDER BY created_at, key LIMIT $1`, []any{100}},
	{"storage used", `SELECT used_bytes FROM storage_usage WHERE user_id = $1`, []any{"user_a"}},
	{"identity by subject", `SELECT user_id FROM identities WHERE issuer = $1 AND subject = $2`,
		[]any{"https://idp", "sub"}},
	{"identity of a user", `SELECT subject FROM identities WHERE user_id = $1 AND issuer = $2`,
		[]any{"user_a", "https://idp"}},
	{"expired sign-in states", `DELETE FROM oidc_states WHERE expires_at < $1`, []any{int64(1)}},
	{"take a sign-in state", `DELETE FROM oidc_states WHERE state_hash = $1 RETURNING verifier`, []any{[]byte("h")}},
	{"oauth grant with its client", `SELECT g.id, c.revoked_at FROM oauth_grants g
		JOIN oauth_clients c ON c.id = g.client_id WHERE g.id = $1`, []any{"grt_a"}},
	{"oauth record", `SELECT grant_id FROM oauth_requests WHERE kind = $1 AND signature = $2`, []any{"code", "s"}},
	{"oauth records of a grant", `UPDATE oauth_requests SET active = false WHERE grant_id = $1 AND active`,
		[]any{"grt_a"}},
	{"invitations of a library", `SELECT i.id FROM invitations i JOIN users u ON u.id = i.created_by
		WHERE i.library_id = $1 AND i.id < $2 ORDER BY i.id DESC LIMIT $3`, []any{"lib_a", "inv_z", 21}},
	// The pass asks for 200 a page; on these empty tables the planner
	// guesses 116 rows after a key, fewer than 200, and sorts them.
	{"ocr texts to split after an asset", `SELECT asset_id, ocr_text, ocr_terms FROM asset_text
		WHERE asset_id > $1 AND ocr_text IS NOT NULL ORDER BY asset_id LIMIT $2`, []any{"asset_a", 21}},
	{"the terms of one ocr text", `UPDATE asset_text SET ocr_terms = $1 WHERE asset_id = $2 AND ocr_text = $3`,
		[]any{"no parking", "asset_a", "NOPARKING"}},
}

// TestQueryPlansUseIndexes requires every hot-path query to be answerable
// through an index: with sequential scans priced out (the test tables are
// empty, where a scan is what the planner would rightly pick), no plan may
// still need one.
func TestQueryPlansUseIndexes(t *testing.T) {
	s := openStore(t)
	db := s.(*postgres.DB)
	for _, c := range planCases {
		t.Run(c.name, func(t *testing.T) {
			text := postgres.ExplainIndexed(t, db, c.sql, c.args)
			require.NotContains(t, text, "Seq Scan", text)
			if !sortOK[c.name] {
				require.NotRegexp(t, `(?m)^\s*(->\s*)?Sort\b`, text, "a page must come in index order\n%s", text)
			}
		})
	}
}
