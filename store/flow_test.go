package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
)

// unmigrate0010 takes a store back to before migration 0010, as a store
// written by an earlier sift is: opened again, it migrates.
func unmigrate0010(t *testing.T, s *Store) {
	t.Helper()
	unmigrate0016(t, s)
	for _, q := range []string{
		`DROP INDEX summaries_search`,
		`DROP INDEX review_decisions_supersedes`,
		`ALTER TABLE review_decisions DROP COLUMN supersedes`,
		`DROP INDEX summaries_by_triage`,
		`CREATE INDEX summaries_by_triage ON agent_stream_summaries (triage_rank, estimated_usd, work_item_id, file_name, flagged)`,
		`ALTER TABLE agent_stream_summaries DROP COLUMN review_state`,
		`DROP INDEX summaries_by_stalls`,
		`CREATE INDEX summaries_by_stalls ON agent_stream_summaries (stall_count, work_item_id, file_name)`,
		`DROP INDEX summaries_by_errors`,
		`CREATE INDEX summaries_by_errors ON agent_stream_summaries (error_count, work_item_id, file_name)`,
		`DROP INDEX summaries_by_approvals`,
		`CREATE INDEX summaries_by_approvals ON agent_stream_summaries (approval_count, work_item_id, file_name)`,
		`CREATE INDEX summaries_search ON agent_stream_summaries (work_item_id, file_name, triage_rank, estimated_usd,
			sort_started, total_duration_ms, total_tokens, stall_count, error_count, approval_count, flagged, activity_at,
			agent_kind, status, model, flags)`,
		`DELETE FROM schema_migrations WHERE version >= 10`,
	} {
		if _, err := s.w.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// flowStore is a store of four sessions of work item w: a and d flagged
// (their turn t1 flagged), b and c not, costing 4, 3, 2 and 1.
func flowStore(t *testing.T) (*Store, func(file string) review.SessionKey) {
	t.Helper()
	s := newTestStore(t)
	writeFakes(t, s, []fake{
		{wi: "w", file: "a", usd: 4, flagged: true}, {wi: "w", file: "b", usd: 3},
		{wi: "w", file: "c", usd: 2}, {wi: "w", file: "d", usd: 1, flagged: true},
	})
	return s, func(file string) review.SessionKey { return review.SessionKey{WorkItemID: "w", FileName: file} }
}

// stateOf is a session's stored review state.
func stateOf(t *testing.T, s *Store, k review.SessionKey) review.DecisionKind {
	t.Helper()
	sess, err := s.GetSession(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	return sess.State
}

// TestTurnDecisionsRollUp: deciding every flagged turn of a session, on
// the turn or on one of its calls, decides the session: it leaves the
// undecided count and filter and the triage order's first segment, and
// its state is the decisions rolled up; undoing one brings it back.
func TestTurnDecisionsRollUp(t *testing.T) {
	t.Parallel()
	s, key := flowStore(t)
	ctx := context.Background()
	step := func(what string, wantState review.DecisionKind, wantUndecided int, order ...string) {
		t.Helper()
		if got := stateOf(t, s, key("a")); got != wantState {
			t.Errorf("after %s: state of a %q, want %q", what, got, wantState)
		}
		if _, _, u, err := s.Counts(ctx, review.Query{}); err != nil || u != wantUndecided {
			t.Errorf("after %s: %d undecided (%v), want %d", what, u, err, wantUndecided)
		}
		if n, err := s.CountSessions(ctx, review.Query{Undecided: true}); err != nil || n != wantUndecided {
			t.Errorf("after %s: undecided filter selects %d (%v), want %d", what, n, err, wantUndecided)
		}
		if got := triageOrder(t, s); !slices.Equal(got, order) {
			t.Errorf("after %s: triage order %v, want %v", what, got, order)
		}
	}
	step("the import", "", 4, "a", "d", "b", "c")
	if err := s.Decide(ctx, review.Decision{Session: key("a"), TurnID: "t1", ToolCallID: "toolu_0", Kind: review.Reviewed}); err != nil {
		t.Fatal(err)
	}
	step("its one flagged turn's call reviewed", review.Reviewed, 3, "d", "a", "b", "c")
	if err := s.Decide(ctx, review.Decision{Session: key("a"), TurnID: "t1", Kind: review.NeedsFollowup, Note: "retry"}); err != nil {
		t.Fatal(err)
	}
	step("the turn needs a follow-up", review.NeedsFollowup, 3, "d", "a", "b", "c")
	undone, err := s.Undo(ctx, key("a"), "ana")
	if err != nil || undone.Kind != review.NeedsFollowup || undone.TurnID != "t1" {
		t.Fatalf("Undo = %+v, %v: want the turn's follow-up withdrawn", undone, err)
	}
	step("the follow-up undone", review.Reviewed, 3, "d", "a", "b", "c")
	if _, err := s.Undo(ctx, key("a"), "ana"); err != nil {
		t.Fatal(err)
	}
	step("the review undone too", "", 4, "a", "d", "b", "c")
	if _, err := s.Undo(ctx, key("a"), "ana"); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("a third undo: %v, want ErrNothingToUndo", err)
	}
	// Deciding an unflagged turn decides nothing.
	if err := s.Decide(ctx, review.Decision{Session: key("b"), TurnID: "t1", Kind: review.Reviewed}); err != nil {
		t.Fatal(err)
	}
	if got := stateOf(t, s, key("b")); got != "" {
		t.Errorf("b's unflagged turn reviewed: state %q, want undecided", got)
	}
	// The state survives its summary written again, and follows it.
	if err := s.Decide(ctx, review.Decision{Session: key("d"), TurnID: "t1", Kind: review.Ignored}); err != nil {
		t.Fatal(err)
	}
	writeFakes(t, s, []fake{{wi: "w", file: "d", usd: 1, flagged: true}})
	if got := stateOf(t, s, key("d")); got != review.Ignored {
		t.Errorf("d written again: state %q, want ignored", got)
	}
}

// TestUndoIsAppendOnly: an undo is a new row of the history that names
// the decision it withdrew; the target's current decision goes back to
// the one before.
func TestUndoIsAppendOnly(t *testing.T) {
	t.Parallel()
	s, key := flowStore(t)
	ctx := context.Background()
	for _, k := range []review.DecisionKind{review.Reviewed, review.Ignored} {
		if err := s.Decide(ctx, review.Decision{Session: key("b"), Kind: k, Reviewer: "ana"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Undo(ctx, key("b"), "bo"); err != nil {
		t.Fatal(err)
	}
	hist, err := s.Decisions(ctx, key("b"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 3 || hist[2].Kind != review.Undone || hist[2].Supersedes != hist[1].ID || hist[2].Reviewer != "bo" {
		t.Fatalf("history %+v: want reviewed, ignored, then an undo of the ignore by bo", hist)
	}
	sess, err := s.GetSession(ctx, key("b"))
	if err != nil || sess.Decision == nil || sess.Decision.Kind != review.Reviewed || sess.State != review.Reviewed {
		t.Fatalf("after the undo: decision %+v, state %q, %v: want reviewed again", sess.Decision, sess.State, err)
	}
	latest, err := s.LatestDecisions(ctx, key("b"))
	if err != nil || len(latest) != 1 || latest[0].ID != hist[0].ID {
		t.Fatalf("latest %+v, %v", latest, err)
	}
	if _, err := s.w.Exec(`UPDATE review_decisions SET supersedes = 0`); err == nil {
		t.Fatal("an undo was rewritten: review_decisions is append-only")
	}
	if err := s.Decide(ctx, review.Decision{Session: key("b"), Kind: review.Undone}); err == nil {
		t.Fatal("Decide recorded an undo: undos go through Undo")
	}
}

// TestFollowups lists the open follow-ups with their failing call, and
// closes one by a later review.
func TestFollowups(t *testing.T) {
	t.Parallel()
	s, key := flowStore(t)
	ctx := context.Background()
	decide := func(d review.Decision) {
		t.Helper()
		if err := s.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	decide(review.Decision{Session: key("a"), ToolCallID: "toolu_0", Kind: review.NeedsFollowup, Note: "rerun it", Reviewer: "ana"})
	decide(review.Decision{Session: key("c"), Kind: review.NeedsFollowup, Note: "why?"})
	decide(review.Decision{Session: key("d"), TurnID: "t1", Kind: review.NeedsFollowup, Note: "closed later"})
	decide(review.Decision{Session: key("d"), Kind: review.Reviewed})
	fs, err := s.Followups(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0].Decision.Note != "rerun it" || fs[1].Decision.Note != "why?" {
		t.Fatalf("followups %+v: want a's and c's, oldest first", fs)
	}
	if fs[0].Call == nil || fs[0].Call.ID != "toolu_0" || fs[0].Session.AgentKind != "claude" || fs[0].Decision.Reviewer != "ana" {
		t.Errorf("a's follow-up: call %+v, session %s", fs[0].Call, fs[0].Session.Key())
	}
	if fs[1].Call != nil {
		t.Errorf("c's follow-up names a failing call %+v: c has none", fs[1].Call)
	}
	decide(review.Decision{Session: key("a"), ToolCallID: "toolu_0", Kind: review.Reviewed})
	if fs, err = s.Followups(ctx); err != nil || len(fs) != 1 || fs[0].Decision.Session != key("c") {
		t.Fatalf("after a's call reviewed: %+v, %v", fs, err)
	}
}

// TestLocateFollowsTheOrder finds each session at its index in several
// orders and reports one the query does not select.
func TestLocateFollowsTheOrder(t *testing.T) {
	t.Parallel()
	s, key := flowStore(t)
	ctx := context.Background()
	for _, q := range []review.Query{{Sort: review.SortTriage}, {Sort: review.SortCost, Asc: true}, {Sort: review.SortStarted},
		{Sort: review.SortTriage, GroupByWorkItem: true}, {Flagged: true}} {
		rows, err := pageRows(s.ListSessions(ctx, q))
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			if got, err := s.Locate(ctx, q, r.Key()); err != nil || got != i {
				t.Errorf("%+v: Locate(%s) = %d, %v, want %d", q, r.Key(), got, err, i)
			}
		}
	}
	if got, err := s.Locate(ctx, review.Query{Flagged: true}, key("b")); err != nil || got != -1 {
		t.Errorf("Locate of an unselected session = %d, %v, want -1", got, err)
	}
}

// TestTiesFollowTheStart: sessions with as many stalls (or errors) are
// ordered by their start, newest first largest-first, and the groups of a
// grouped order by their most urgent session, with their totals.
func TestTiesFollowTheStart(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	base := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	writeFakes(t, s, []fake{
		{wi: "z", file: "old", stalls: 1, errs: 2, started: base.Add(-3 * time.Hour), usd: 1},
		{wi: "a", file: "new", stalls: 1, errs: 2, started: base.Add(-time.Hour), usd: 2},
		{wi: "m", file: "mid", stalls: 1, errs: 2, started: base.Add(-2 * time.Hour), usd: 3, flagged: true},
		{wi: "a", file: "most", stalls: 3, started: base.Add(-4 * time.Hour), usd: 0.5},
	})
	for _, sort := range []review.SortKey{review.SortStalls, review.SortErrors} {
		rows, err := pageRows(s.ListSessions(ctx, review.Query{Sort: sort}))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"most", "new", "mid", "old"}
		if sort == review.SortErrors {
			want = []string{"new", "mid", "old", "most"}
		}
		if got := names(rows); !slices.Equal(got, want) {
			t.Errorf("by %s: %v, want ties newest first: %v", sort, got, want)
		}
	}
	p, err := s.ListSessions(ctx, review.Query{Sort: review.SortTriage, GroupByWorkItem: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p.Sessions); !slices.Equal(got, []string{"mid", "new", "most", "old"}) {
		t.Errorf("grouped triage order %v: want m's flagged session's group first, then a's (cost 2), then z's", got)
	}
	a := p.Groups["a"]
	if a.Sessions != 2 || a.Flagged != 0 || a.Undecided != 2 || a.USD == nil || *a.USD != 2.5 || len(p.Groups) != 3 {
		t.Errorf("group totals %+v", p.Groups)
	}
}

// TestMigration0010RollsUpStoredDecisions opens a store written before
// migration 0010 whose flagged session has every flagged turn decided:
// the migration states it decided and ranks it out of the first segment.
func TestMigration0010RollsUpStoredDecisions(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/sift.db"
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	writeFakes(t, s, []fake{{wi: "w", file: "a", usd: 1, flagged: true}, {wi: "w", file: "b", usd: 2, flagged: true}})
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "w", FileName: "a"}, TurnID: "t1", Kind: review.Ignored}); err != nil {
		t.Fatal(err)
	}
	unmigrate0010(t, s)
	if _, err := s.w.Exec(`UPDATE agent_stream_summaries SET triage_rank = flagged`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := stateOf(t, s, review.SessionKey{WorkItemID: "w", FileName: "a"}); got != review.Ignored {
		t.Errorf("state after the migration %q, want ignored", got)
	}
	if got := triageOrder(t, s); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("triage order after the migration %v", got)
	}
}
