package store

import "testing"

// unmigrate0012 takes a store back to before migration 0012, as a store
// written by an older sift: the tests of earlier migrations call it first.
func unmigrate0012(t *testing.T, s *Store) {
	t.Helper()
	for _, q := range []string{
		`DROP INDEX work_item_costs_open`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN live`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN live_tool`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN live_wait`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN new_since`,
		`ALTER TABLE review_decisions DROP COLUMN seen_line`,
		`ALTER TABLE decision_latest DROP COLUMN seen_line`,
		`DELETE FROM schema_migrations WHERE version >= 12`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
