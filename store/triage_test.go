package store

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
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
	s := newTestStore(t)
	g := decideThenGrow(t, s, filepath.Join(fixtures, "claude", "claude-orchestrator-task-subagent-reserialized.jsonl"))
	g.grow()
	k := g.k
	got := getSession(t, s, k)
	rank := rankOf(t, s, k)
	if got.State != "" || !got.Flagged || rank/4 < review.TierFlagged {
		t.Errorf("after the session grew: state %q, flagged %v, triage rank %d; want undecided, flagged, in a tier to review", got.State, got.Flagged, rank)
	}
}

// TestTriageByHarm pins the triage order of issue 29: a run waiting for
// approval first; then the undecided runs that failed, died before their
// start or were interrupted; then the undecided flagged ones; then the
// rest. Inside a tier a captured run comes before an agent's own history
// session, and an unknown cost before a known one (a codex exec import
// has none: it must not sink). The stored rank is the rule of
// review.TriageFacts, and migration 0021 ranks rows stored before it the
// same way. On the old rank (flagged and undecided, then cost) the failed
// runs mixed with the flagged ones by cost and the unknown costs sank.
func TestTriageByHarm(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := testDB(t)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFakes(t, s, []fake{
		{wi: "w", file: "flagged-5", usd: 5, flagged: true},
		{wi: "w", file: "failed-cheap", usd: 0.01, flagged: true, outcome: summary.OutcomeFailed},
		{wi: "w", file: "died-unknown-cost", agent: "codex", unknownCost: true, flagged: true, outcome: summary.OutcomeDiedBeforeStart},
		{wi: "w", file: "interrupted-history", agent: "claude-history", usd: 9, flagged: true, outcome: summary.OutcomeInterrupted},
		{wi: "w", file: "rest-10", usd: 10},
		{wi: "w", file: "flagged-unknown-cost", unknownCost: true, flagged: true},
		{wi: "w", file: "failed-decided", usd: 0.5, flagged: true, outcome: summary.OutcomeFailed},
		{wi: "w", file: "waiting", usd: 0.02},
		{wi: "w", file: "flagged-history", agent: "claude-history", usd: 7, flagged: true},
	})
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "w", FileName: "failed-decided"}, Kind: review.Reviewed}); err != nil {
		t.Fatal(err)
	}
	// A running session that waits, as live.go writes it.
	if _, err := s.w.ExecContext(ctx, liveSQL, "Bash", string(review.WaitApproval), "w", "waiting"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, rankSQL, "w", "waiting"); err != nil {
		t.Fatal(err)
	}
	want := []string{"waiting", "died-unknown-cost", "failed-cheap", "interrupted-history",
		"flagged-unknown-cost", "flagged-5", "flagged-history", "rest-10", "failed-decided"}
	if got := triageOrder(t, s); !slices.Equal(got, want) {
		t.Fatalf("triage order\n got %v\nwant %v", got, want)
	}
	// Left to review: flagged and undecided, as the quick filters f and
	// u together and as the search is:flagged is:undecided say.
	for _, q := range []review.Query{{}, {Flagged: true, Undecided: true}, {Search: "is:flagged is:undecided"}, {Search: "is:fl -is:und"}} {
		c, err := s.Counts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		wantToReview := 6
		switch {
		case q.Search == "is:fl -is:und":
			wantToReview = 0
			if c.Total != 1 {
				t.Errorf("%+v selects %d sessions, want the one flagged and decided", q, c.Total)
			}
		case q.Search != "" || q.Flagged:
			if c.Total != 6 {
				t.Errorf("%+v selects %d sessions, want 6", q, c.Total)
			}
		default:
			if c.Total != 9 || c.Flagged != 7 || c.Undecided != 8 {
				t.Errorf("counts %+v, want 9 sessions, 7 flagged, 8 undecided", c)
			}
		}
		if c.ToReview != wantToReview {
			t.Errorf("%+v: %d to review, want %d", q, c.ToReview, wantToReview)
		}
	}
	// The stored rank is review's rule.
	for _, f := range want {
		k := review.SessionKey{WorkItemID: "w", FileName: f}
		sess := getSession(t, s, k)
		facts := review.TriageFacts{Live: sess.Live, LiveWait: sess.LiveWait, Undecided: sess.State == "", Flagged: sess.Flagged,
			Outcome: sess.Outcome, AgentKind: sess.AgentKind, CostKnown: sess.EstimatedUSD != nil}
		if got, want := rankOf(t, s, k), facts.TriageRank(); got != want {
			t.Errorf("%s: stored rank %d, review.TriageFacts %d (%+v)", f, got, want, facts)
		}
	}
	// Rows ranked before migration 0021 are ranked again by it.
	for _, q := range []string{`UPDATE agent_stream_summaries SET triage_rank = 0`, `DELETE FROM schema_migrations WHERE version >= 21`} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := triageOrder(t, s); !slices.Equal(got, want) {
		t.Fatalf("triage order after migration 0021\n got %v\nwant %v", got, want)
	}
}

// rankOf reads a session's stored triage rank.
func rankOf(t *testing.T, s *Store, k review.SessionKey) int {
	t.Helper()
	var rank int
	if err := s.r.QueryRowContext(context.Background(), `SELECT triage_rank FROM agent_stream_summaries WHERE work_item_id = ? AND file_name = ?`,
		k.WorkItemID, k.FileName).Scan(&rank); err != nil {
		t.Fatal(err)
	}
	return rank
}
