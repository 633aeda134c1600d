package postgres

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// planOf returns the plan of sql (as sent: $n placeholders) with args,
// over q (the pool or a transaction).
func planOf(t *testing.T, q querier, sql string, args []any) []string {
	t.Helper()
	rows, err := q.Query(t.Context(), "EXPLAIN "+sql, args...)
	require.NoError(t, err)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		require.NoError(t, rows.Scan(&line))
		plan = append(plan, line)
	}
	require.NoError(t, rows.Err())
	return plan
}

// explainIndexed returns the plan of sql (? or $n placeholders) with args
// as one text, with sequential scans priced out: an index must be able to
// serve it.
func explainIndexed(t *testing.T, db *DB, sql string, args []any) string {
	t.Helper()
	tx, err := db.pool.Begin(t.Context())
	require.NoError(t, err)
	defer tx.Rollback(t.Context())
	_, err = tx.Exec(t.Context(), "SET LOCAL enable_seqscan = off")
	require.NoError(t, err)
	return strings.Join(planOf(t, tx, rebind(sql), args), "\n")
}
