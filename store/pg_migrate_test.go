package store

import (
	"testing"

	"github.com/agentsift/sift/store/pgtest"
)

// TestPostgresMigration0013MapsStatuses is TestMigration0013MapsStatuses
// on PostgreSQL: a database of the schema before 0013_outcome.pg.sql (the
// status column, migration 0013 and those after it undone), opened again, maps each
// status to the outcome its row's evidence says, as SQLite's 0013 does.
func TestPostgresMigration0013MapsStatuses(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	writeFakes(t, s, outcomeFakes)
	for _, q := range []string{
		// 0019, 0017, 0016, 0015 and 0014, applied after 0013 (0017's
		// triggers go with their function; 0018 only marks a repair).
		`ALTER TABLE decision_latest DROP COLUMN decided_at`,
		`DROP FUNCTION sift_changed CASCADE`,
		`DROP FUNCTION search_fts_words CASCADE`,
		`DROP TABLE review_claims`,
		`DROP INDEX summaries_retention`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN host_id`,
		`DROP TABLE sweep_runs`,
		`DROP TABLE import_runs`,
		`DELETE FROM meta WHERE key = 'legacy_host'`,
		`ALTER TABLE work_item_costs DROP COLUMN git_head_before`,
		`ALTER TABLE work_item_costs DROP COLUMN git_head_after`,
		// 0013.
		`DROP INDEX summaries_by_outcome`,
		`DROP FUNCTION sift_jsonb`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN outcome_rank`,
		`ALTER TABLE agent_stream_summaries RENAME COLUMN outcome TO status`,
		`UPDATE agent_stream_summaries SET brief_json = (brief_json::jsonb - 'outcome' - 'outcomeEvidence' - 'flagNotes')::text`,
		`DELETE FROM schema_migrations WHERE version >= 13`,
		// The statuses and evidence the mapping reads.
		`UPDATE agent_stream_summaries SET status = 'success' WHERE file_name IN ('success', 'flagged')`,
		`UPDATE agent_stream_summaries SET status = 'error' WHERE file_name IN ('error', 'signal', 'dead')`,
		`UPDATE agent_stream_summaries SET brief_json = (brief_json::jsonb || '{"exitCode": 143}')::text WHERE file_name = 'signal'`,
		`UPDATE agent_stream_summaries SET tool_call_count = 0, turns_json = '[]'::bytea WHERE file_name = 'dead'`,
		`UPDATE agent_stream_summaries SET status = 'incomplete' WHERE file_name IN ('cut', 'incomplete')`,
		`UPDATE agent_stream_summaries SET flags = 'stall unfinished_tool' WHERE file_name = 'cut'`,
		`UPDATE agent_stream_summaries SET status = 'unknown' WHERE file_name = 'unknown'`,
		`UPDATE agent_stream_summaries SET brief_json = jsonb_set(brief_json::jsonb, '{status}', to_jsonb(status))::text`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	if s, err = Open(db); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkMappedOutcomes(t, s)
}
