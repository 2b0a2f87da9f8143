package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// unmigrate0013 takes a store back to before migration 0013, as a store
// written by an earlier sift is: the status column, under its old name,
// holding the outcomes (a test sets the old values it needs).
func unmigrate0013(t *testing.T, s *Store) {
	t.Helper()
	unmigrate0015(t, s)
	for _, q := range []string{
		// Migration 0014, applied after 0013.
		`ALTER TABLE work_item_costs DROP COLUMN git_head_before`,
		`ALTER TABLE work_item_costs DROP COLUMN git_head_after`,
		`DROP INDEX summaries_by_outcome`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN outcome_rank`,
		`ALTER TABLE agent_stream_summaries RENAME COLUMN outcome TO status`,
		`UPDATE agent_stream_summaries SET brief_json = json_set(json_remove(brief_json, '$.outcome', '$.outcomeEvidence', '$.flagNotes'), '$.status', status)`,
		`DELETE FROM schema_migrations WHERE version >= 13`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// outcomeOrder lists the file names of a query's sessions and their
// outcomes.
func outcomeOrder(t *testing.T, s *Store, q review.Query) ([]string, []summary.Outcome) {
	t.Helper()
	p, err := s.ListSessions(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	var outs []summary.Outcome
	for _, r := range p.Sessions {
		files = append(files, r.FileName)
		outs = append(outs, r.Outcome)
	}
	return files, outs
}

// TestSortAndFilterByOutcome: the outcome sort puts the most urgent first
// (failed, died before start, interrupted, unknown, completed), ties by
// start; outcome: filters on the column.
func TestSortAndFilterByOutcome(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	base := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	writeFakes(t, s, []fake{
		{wi: "w", file: "done", outcome: summary.OutcomeCompleted, started: base},
		{wi: "w", file: "failed", outcome: summary.OutcomeFailed, started: base.Add(time.Minute)},
		{wi: "w", file: "died-old", outcome: summary.OutcomeDiedBeforeStart, started: base.Add(2 * time.Minute)},
		{wi: "w", file: "died-new", outcome: summary.OutcomeDiedBeforeStart, started: base.Add(3 * time.Minute)},
		{wi: "w", file: "cut", outcome: summary.OutcomeInterrupted, started: base.Add(4 * time.Minute)},
		{wi: "w", file: "quiet", outcome: summary.OutcomeUnknown, started: base.Add(5 * time.Minute)},
	})
	files, _ := outcomeOrder(t, s, review.Query{Sort: review.SortOutcome})
	if want := []string{"failed", "died-new", "died-old", "cut", "quiet", "done"}; !slices.Equal(files, want) {
		t.Errorf("outcome order %v, want %v", files, want)
	}
	files, _ = outcomeOrder(t, s, review.Query{Sort: review.SortOutcome, Asc: true})
	if want := []string{"done", "quiet", "cut", "died-old", "died-new", "failed"}; !slices.Equal(files, want) {
		t.Errorf("ascending outcome order %v, want %v", files, want)
	}
	for search, want := range map[string][]string{
		"outcome:died":           {"died-new", "died-old"},
		"outcome:interrupted":    {"cut"},
		"-outcome:completed":     {"quiet", "cut", "died-new", "died-old", "failed"},
		"outcome:success":        {"done"},
		"outcome:failed":         {"failed"},
		"outcome:unknown agent:": {"quiet"},
	} {
		files, _ := outcomeOrder(t, s, review.Query{Search: search, Typing: true})
		if !slices.Equal(files, want) {
			t.Errorf("%s: %v, want %v", search, files, want)
		}
	}
}

// TestMigration0013MapsStatuses opens a store written before migration
// 0013: each stored status becomes the outcome its row's evidence says,
// the summary JSON follows, and the files whose outcome the row cannot
// tell, or that are flagged, are marked to be read again.
func TestMigration0013MapsStatuses(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/sift.db"
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFakes(t, s, outcomeFakes)
	unmigrate0013(t, s)
	for _, q := range []string{
		`UPDATE agent_stream_summaries SET status = 'success' WHERE file_name IN ('success', 'flagged')`,
		`UPDATE agent_stream_summaries SET status = 'error' WHERE file_name IN ('error', 'signal', 'dead')`,
		`UPDATE agent_stream_summaries SET brief_json = json_set(brief_json, '$.exitCode', 143) WHERE file_name = 'signal'`,
		`UPDATE agent_stream_summaries SET tool_call_count = 0, turns_json = '[]' WHERE file_name = 'dead'`,
		`UPDATE agent_stream_summaries SET status = 'incomplete' WHERE file_name IN ('cut', 'incomplete')`,
		`UPDATE agent_stream_summaries SET flags = 'stall unfinished_tool' WHERE file_name = 'cut'`,
		`UPDATE agent_stream_summaries SET status = 'unknown' WHERE file_name = 'unknown'`,
		`UPDATE agent_stream_summaries SET brief_json = json_set(brief_json, '$.status', status)`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkMappedOutcomes(t, s)
}

// outcomeFakes are the sessions whose stored statuses the outcome
// migration maps, on either backend.
var outcomeFakes = []fake{
	{wi: "w", file: "success"}, {wi: "w", file: "error"}, {wi: "w", file: "signal"},
	{wi: "w", file: "dead"}, {wi: "w", file: "cut"}, {wi: "w", file: "incomplete"},
	{wi: "w", file: "unknown"}, {wi: "w", file: "flagged", flagged: true},
}

// checkMappedOutcomes checks the outcomes, ranks, summary JSON and
// re-read marks of outcomeFakes after the migration mapped their
// statuses.
func checkMappedOutcomes(t *testing.T, s *Store) {
	t.Helper()
	want := map[string]summary.Outcome{
		"success": summary.OutcomeCompleted, "flagged": summary.OutcomeCompleted, "error": summary.OutcomeFailed,
		"signal": summary.OutcomeInterrupted, "dead": summary.OutcomeDiedBeforeStart, "cut": summary.OutcomeInterrupted,
		"incomplete": summary.OutcomeUnknown, "unknown": summary.OutcomeUnknown,
	}
	ctx := context.Background()
	for file, o := range want {
		sess, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "w", FileName: file})
		if err != nil {
			t.Fatal(err)
		}
		if sess.Outcome != o || sess.OutcomeEvidence.Sentence == "" {
			t.Errorf("%s: outcome %q (%q), want %s", file, sess.Outcome, sess.OutcomeEvidence.Sentence, o)
		}
		var rank, size int
		var brief string
		if err := s.r.QueryRow(`SELECT s.outcome_rank, s.brief_json, f.size FROM agent_stream_summaries s
			JOIN stream_files f ON f.work_item_id = s.work_item_id AND f.file_name = s.file_name
			WHERE s.file_name = ?`, file).Scan(&rank, &brief, &size); err != nil {
			t.Fatal(err)
		}
		if rank != o.Rank() {
			t.Errorf("%s: rank %d, want %d", file, rank, o.Rank())
		}
		reread := o == summary.OutcomeUnknown || o == summary.OutcomeInterrupted || file == "flagged"
		if (size == -1) != reread {
			t.Errorf("%s: ingest size %d, want re-read %v", file, size, reread)
		}
	}
	files, _ := outcomeOrder(t, s, review.Query{Search: "outcome:died"})
	if !slices.Equal(files, []string{"dead"}) {
		t.Errorf("outcome:died after the migration: %v", files)
	}
}
