package store

import "testing"

// TestPgTranslate pins the mechanical translation of the store's SQLite
// SQL into PostgreSQL's.
func TestPgTranslate(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"placeholders in order", `SELECT a FROM t WHERE b = ? AND c = ?`, `SELECT a FROM t WHERE b = $1 AND c = $2`},
		{"numbered placeholders", `UPDATE t SET a = ?2, b = ?1 WHERE c = ?3`, `UPDATE t SET a = $2, b = $1 WHERE c = $3`},
		{"a bare placeholder after a numbered one", `VALUES (?3, ?)`, `VALUES ($3, $4)`},
		{"null-safe equality", `WHERE iteration IS ?4 AND x IS NOT ?`, `WHERE iteration IS NOT DISTINCT FROM $4 AND x IS DISTINCT FROM $5`},
		{"IS NULL stays", `WHERE a IS NULL AND b IS NOT NULL`, `WHERE a IS NULL AND b IS NOT NULL`},
		{"like ignores case", `WHERE s.model LIKE ? ESCAPE '\'`, `WHERE s.model ILIKE $1 ESCAPE '\'`},
		{"strings and identifiers are copied", `SELECT '?', "LIKE", 'it''s ?' FROM t WHERE a = ?`, `SELECT '?', "LIKE", 'it''s ?' FROM t WHERE a = $1`},
		{"comments are copied", "SELECT 1 -- what? LIKE\nFROM t WHERE a = ?", "SELECT 1 -- what? LIKE\nFROM t WHERE a = $1"},
		{"indexed by goes", `FROM agent_stream_summaries s INDEXED BY summaries_search WHERE a = ?`, `FROM agent_stream_summaries s WHERE a = $1`},
		{"cross join is a join", `FROM a CROSS JOIN b ON b.id = a.id`, `FROM a JOIN b ON b.id = a.id`},
		{"an empty blob", `VALUES (?, x'')`, `VALUES ($1, '\x')`},
		{"nulls sort as in SQLite", `ORDER BY s.estimated_usd DESC, s.file_name ASC`, `ORDER BY s.estimated_usd DESC NULLS LAST, s.file_name ASC NULLS FIRST`},
		{"full-text match", `WHERE search_fts MATCH ? AND x = ?`, `WHERE search_fts.words @@ sift_fts_query($1) AND x = $2`},
		{"casts survive", `unnest(?::text[], ?::text[])`, `unnest($1::text[], $2::text[])`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := pgTranslate(tc.in); got != tc.want {
				t.Errorf("pgTranslate(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}
