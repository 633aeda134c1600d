package postgres

import "testing"

func TestRebindNumbersPlaceholdersOutsideQuotes(t *testing.T) {
	cases := map[string]string{
		`SELECT 1`: `SELECT 1`,
		`SELECT a FROM t WHERE a = ? AND b IN (?, ?)`:       `SELECT a FROM t WHERE a = $1 AND b IN ($2, $3)`,
		`SELECT '?' || ? FROM "we?ird" WHERE x = ?`:         `SELECT '?' || $1 FROM "we?ird" WHERE x = $2`,
		`SELECT 'it''s ?', ? FROM t`:                        `SELECT 'it''s ?', $1 FROM t`,
		`UPDATE t SET a = ? WHERE id = ? AND b IS NOT NULL`: `UPDATE t SET a = $1 WHERE id = $2 AND b IS NOT NULL`,
	}
	for in, want := range cases {
		if got := rebind(in); got != want {
			t.Errorf("rebind(%q) = %q, want %q", in, got, want)
		}
	}
}
