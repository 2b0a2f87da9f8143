package store

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// triageOrder lists the sessions in the triage order.
func triageOrder(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := pageRows(s.ListSessions(context.Background(), review.Query{Sort: review.SortTriage}))
	if err != nil {
		t.Fatal(err)
	}
	return names(rows)
}

// TestTriageRankFollowsEveryWrite checks the stored triage order after
// each kind of write that changes it: a decision on the session, on a
// turn and on a tool call (and one that closes a follow-up), a summary
// written again with other flags and another cost, and a work item run
// again.
func TestTriageRankFollowsEveryWrite(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	fakes := []fake{
		{wi: "w", file: "a", usd: 1, flagged: true},
		{wi: "w", file: "b", usd: 5},
		{wi: "w", file: "c", usd: 0.5},
		{wi: "w", file: "d", usd: 0.1, flagged: true},
	}
	writeFakes(t, s, fakes)
	step := func(what string, want ...string) {
		t.Helper()
		if got := triageOrder(t, s); !slices.Equal(got, want) {
			t.Fatalf("after %s: triage order %v, want %v", what, got, want)
		}
	}
	decide := func(file, turn, call string, k review.DecisionKind) {
		t.Helper()
		d := review.Decision{Session: review.SessionKey{WorkItemID: "w", FileName: file}, TurnID: turn, ToolCallID: call, Kind: k}
		if err := s.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	callOf := func(file string) string {
		t.Helper()
		sess, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "w", FileName: file})
		if err != nil {
			t.Fatal(err)
		}
		return sess.ToolCalls[0].ID
	}
	step("the import: flagged first, each part by cost", "a", "d", "b", "c")
	decide("a", "", "", review.Reviewed)
	step("a session decided", "d", "b", "a", "c")
	decide("c", "", callOf("c"), review.NeedsFollowup)
	step("a follow-up on a tool call", "c", "d", "b", "a")
	decide("c", "", callOf("c"), review.Reviewed)
	step("the follow-up closed", "d", "b", "a", "c")
	decide("b", "t1", "", review.NeedsFollowup)
	step("a follow-up on a turn", "b", "d", "a", "c")
	fakes[3].flagged = false // the roll-up no longer flags d
	fakes[1].usd = 0.01      // and b costs less
	writeFakes(t, s, fakes)
	step("the summaries written again", "b", "a", "c", "d")
	decide("b", "", "", review.NeedsFollowup)
	step("a session-level follow-up decides the session", "a", "c", "d", "b")
	if err := s.RetryWorkItem(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	step("the work item reopened")
	writeFakes(t, s, fakes)
	step("the work item summarized again, its decisions kept", "a", "c", "d", "b")
}

// TestMigrationRanksStoredSessions drops what migration 0007 adds, from a
// store with sessions and decisions, and opens it again: the migration
// ranks the stored sessions and lists their tool names as the writes do.
func TestMigrationRanksStoredSessions(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/sift.db"
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	writeFakes(t, s, []fake{{wi: "w", file: "a", usd: 1, flagged: true}, {wi: "w", file: "b", usd: 2}, {wi: "w", file: "c", usd: 3, flagged: true}})
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "w", FileName: "c"}, Kind: review.Ignored}); err != nil {
		t.Fatal(err)
	}
	want := triageOrder(t, s)
	unmigrate0010(t, s)
	for _, q := range []string{
		`DROP INDEX summaries_by_triage`,
		`DROP INDEX summaries_search`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN triage_rank`,
		`DROP TABLE session_filter`,
		`DROP TABLE search_docs`,
		`DROP TABLE search_fts`,
		`DELETE FROM schema_migrations WHERE version >= 7`,
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
	if got := triageOrder(t, s); !slices.Equal(got, want) || !slices.Equal(got, []string{"a", "c", "b"}) {
		t.Fatalf("triage order after the migration %v, want %v", got, want)
	}
	var names string
	if err := s.r.QueryRow(`SELECT string_agg(tool_names, ' ') FROM session_filter`).Scan(&names); err != nil {
		t.Fatal(err)
	}
	if names != `["Bash"] ["Bash"] ["Bash"]` {
		t.Fatalf("tool names after the migration: %s", names)
	}
}

// TestCountsReadOneIndex pins that the inbox's unfiltered counts and its
// first page in the triage order read an index, not the table.
func TestCountsReadOneIndex(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "it reads SQLite's EXPLAIN QUERY PLAN")
	s := newTestStore(t)
	order, err := orderBy(review.Query{Sort: review.SortTriage})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ query, want string }{
		{countsSQL, "SCAN s USING COVERING INDEX summaries_by_triage"},
		{"SELECT s.brief_json, " + decisionCols + sessionFrom + order + " LIMIT 120", "SCAN s USING INDEX summaries_by_triage"},
	} {
		if plan := queryPlan(t, s, tc.query); !strings.Contains(plan, tc.want) || strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("plan %s, want %s", plan, tc.want)
		}
	}
}

// TestGrownSessionRanksAgain: a flagged session decided before it grew is
// undecided again once its new lines are imported, and ranks with the
// sessions to review in the same write: the rank is of the review state
// the import makes, not of the one the row held.
func TestGrownSessionRanksAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newTestStore(t)
	g := decideThenGrow(t, s, filepath.Join(fixtures, "claude", "claude-orchestrator-task-subagent-reserialized.jsonl"))
	g.grow()
	k := g.k
	got := getSession(t, s, k)
	var rank int
	if err := s.r.QueryRowContext(ctx, `SELECT triage_rank FROM agent_stream_summaries WHERE work_item_id = ? AND file_name = ?`,
		k.WorkItemID, k.FileName).Scan(&rank); err != nil {
		t.Fatal(err)
	}
	if got.State != "" || !got.Flagged || rank != 1 {
		t.Errorf("after the session grew: state %q, flagged %v, triage rank %d; want undecided, flagged, 1", got.State, got.Flagged, rank)
	}
}
