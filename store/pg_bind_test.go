package store

import "testing"

// TestRebind pins what the PostgreSQL connection does to the store's SQL:
// its placeholders become PostgreSQL's, and nothing else changes.
func TestRebind(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"placeholders in order", `SELECT a FROM t WHERE b = ? AND c = ?`, `SELECT a FROM t WHERE b = $1 AND c = $2`},
		{"numbered placeholders", `UPDATE t SET a = ?2, b = ?1 WHERE c = ?3`, `UPDATE t SET a = $2, b = $1 WHERE c = $3`},
		{"a bare placeholder after a numbered one", `VALUES (?3, ?)`, `VALUES ($3, $4)`},
		{"strings and identifiers are copied", `SELECT '?', "a?", 'it''s ?' FROM t WHERE a = ?`, `SELECT '?', "a?", 'it''s ?' FROM t WHERE a = $1`},
		{"comments are copied", "SELECT 1 -- what?\nFROM t WHERE a = ?", "SELECT 1 -- what?\nFROM t WHERE a = $1"},
		{"casts survive", `unnest(?::text[], ?::text[])`, `unnest($1::text[], $2::text[])`},
		// What the run-time rewriter did once is the dialect's now:
		// the connection leaves it as written.
		{"no other rewriting", `WHERE a IS ? AND b LIKE ? ORDER BY c DESC`, `WHERE a IS $1 AND b LIKE $2 ORDER BY c DESC`},
		{"no hint dropped", `FROM t INDEXED BY i CROSS JOIN u`, `FROM t INDEXED BY i CROSS JOIN u`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := rebind(tc.in); got != tc.want {
				t.Errorf("rebind(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}
