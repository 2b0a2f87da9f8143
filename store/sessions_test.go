package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

func names(ss []review.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.FileName)
	}
	return out
}

func TestListSessionsSortAndFilter(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	now := time.Now()
	writeFakes(t, s, []fake{
		{wi: "w1", file: "a", dur: 5000, usd: 0.50, tokens: 900, stalls: 0, errs: 2, approvals: 0, started: now.Add(-1 * time.Hour), model: "opus"},
		{wi: "w1", file: "b", dur: 9000, usd: 0.10, tokens: 100, stalls: 3, errs: 0, approvals: 1, started: now.Add(-2 * time.Hour), flagged: true},
		{wi: "w2", file: "c", dur: 1000, usd: 2.00, tokens: 5000, stalls: 1, errs: 1, approvals: 4, started: now.Add(-72 * time.Hour), agent: "codex",
			final: "All tests pass."},
		{wi: "w2", file: "d", dur: 3000, usd: 0.20, tokens: 300, stalls: 2, errs: 5, approvals: 2, started: now.Add(-30 * time.Minute)},
	})
	tests := []struct {
		q    review.Query
		want []string
	}{
		{review.Query{}, []string{"d", "a", "b", "c"}},
		{review.Query{Sort: review.SortStarted, Asc: true}, []string{"c", "b", "a", "d"}},
		{review.Query{Sort: review.SortDuration}, []string{"b", "a", "d", "c"}},
		{review.Query{Sort: review.SortCost}, []string{"c", "a", "d", "b"}},
		{review.Query{Sort: review.SortCost, Asc: true}, []string{"b", "d", "a", "c"}},
		{review.Query{Sort: review.SortStalls}, []string{"b", "d", "c", "a"}},
		{review.Query{Sort: review.SortErrors}, []string{"d", "a", "c", "b"}},
		{review.Query{Sort: review.SortApprovals}, []string{"c", "d", "b", "a"}},
		{review.Query{Sort: review.SortTokens}, []string{"c", "a", "d", "b"}},
		{review.Query{Sort: review.SortCost, Limit: 2}, []string{"c", "a"}},
		{review.Query{Sort: review.SortCost, Limit: 2, Offset: 2}, []string{"d", "b"}},
		{review.Query{Sort: review.SortCost, Offset: 3}, []string{"b"}},
		{review.Query{Flagged: true}, []string{"b"}},
		{review.Query{Agent: "codex"}, []string{"c"}},
		{review.Query{WorkItem: "w1"}, []string{"a", "b"}},
		{review.Query{Since: now.Add(-3 * time.Hour)}, []string{"d", "a", "b"}},
		{review.Query{Text: "tests pass"}, []string{"c"}},
		{review.Query{Text: "opus"}, []string{"a"}},
		{review.Query{Text: "%"}, nil},
	}
	for _, tc := range tests {
		got, err := pageRows(s.ListSessions(ctx, tc.q))
		if err != nil {
			t.Fatalf("%+v: %v", tc.q, err)
		}
		if !slices.Equal(names(got), tc.want) {
			t.Errorf("ListSessions(%+v) = %v, want %v", tc.q, names(got), tc.want)
		}
		q := tc.q
		q.Limit, q.Offset = 0, 0
		all, _ := pageRows(s.ListSessions(ctx, q))
		if n, err := s.CountSessions(ctx, tc.q); err != nil || n != len(all) {
			t.Errorf("CountSessions(%+v) = %d, %v; want %d", tc.q, n, err, len(all))
		}
	}
	if _, err := pageRows(s.ListSessions(ctx, review.Query{Sort: "vibes"})); err == nil {
		t.Error("an unknown sort was accepted")
	}
	// A list row is brief; GetSession and Full have the parts.
	brief, _ := pageRows(s.ListSessions(ctx, review.Query{Limit: 1}))
	full, _ := pageRows(s.ListSessions(ctx, review.Query{Limit: 1, Full: true}))
	one, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "w2", FileName: "d"})
	if err != nil {
		t.Fatal(err)
	}
	if brief[0].ToolCalls != nil || len(full[0].ToolCalls) != 1 || len(one.ToolCalls) != 1 || len(one.Turns) != 1 ||
		one.ToolCallCount != 1 || *one.TotalDurationMs != 3000 {
		t.Fatalf("brief %d calls, full %d, summary %+v", len(brief[0].ToolCalls), len(full[0].ToolCalls), one)
	}
	evs, err := s.ReviewEvents(ctx, review.SessionKey{WorkItemID: "w2", FileName: "d"})
	if err != nil || len(evs) != 1 || evs[0].Type != summary.ReviewPrompt {
		t.Fatalf("ReviewEvents = %+v, %v", evs, err)
	}
}

// TestListSessionsUsesIndexes pins that every sort is answered by an index
// rather than by sorting the table.
func TestListSessionsUsesIndexes(t *testing.T) {
	t.Parallel()
	sqliteOnly(t, "it reads SQLite's EXPLAIN QUERY PLAN")
	s := newTestStore(t)
	for _, k := range review.SortKeys() {
		for _, asc := range []bool{true, false} {
			order, err := orderBy(review.Query{Sort: k, Asc: asc})
			if err != nil {
				t.Fatal(err)
			}
			dir := map[bool]string{true: "ASC", false: "DESC"}[asc]
			plan := queryPlan(t, s, "SELECT s.brief_json, "+decisionCols+sessionFrom+order+" LIMIT 50")
			if !strings.Contains(plan, "USING INDEX summaries_by_") || strings.Contains(plan, "TEMP B-TREE") {
				t.Errorf("sort %s %s: plan %s", k, dir, plan)
			}
		}
	}
}

// TestStartedOrderPlacesUntimedStreams checks that a stream without
// timestamps (codex prints none) sorts by its file's time among the
// others, not after all of them, while its startedAt stays null; the
// session carries that time (ActiveAt) for the list and the inbox to
// show where the start would be, found by a search too (issue 29, item 9:
// they showed —).
func TestStartedOrderPlacesUntimedStreams(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	now := time.Now()
	writeFakes(t, s, []fake{{wi: "w", file: "yesterday", started: now.Add(-24 * time.Hour)}, {wi: "w", file: "last-week", started: now.Add(-7 * 24 * time.Hour)}})
	root := t.TempDir()
	p := copyFile(t, filepath.Join(fixtures, "codex", "evolve-run1-reasoning-file-change.jsonl"), filepath.Join(root, "w", "codex-now.jsonl"))
	mt := now.Add(-time.Hour)
	os.Chtimes(p, mt, mt)
	mustImport(t, s, root)
	rows, err := pageRows(s.ListSessions(ctx, review.Query{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(rows); !slices.Equal(got, []string{"codex-now.jsonl", "yesterday", "last-week"}) {
		t.Fatalf("started order %v", got)
	}
	if rows[0].StartedAt != nil {
		t.Fatalf("an unknown start was filled in: %v", rows[0].StartedAt)
	}
	if a := rows[0].ActiveAt; a == nil || !a.Equal(mt.Truncate(time.Millisecond)) || rows[1].ActiveAt != nil {
		t.Errorf("ActiveAt %v, want the file's time %v; a timed session's %v, want nil", a, mt, rows[1].ActiveAt)
	}
	found, err := pageRows(s.ListSessions(ctx, review.Query{Search: "agent:codex"}))
	if err != nil || len(found) != 1 || found[0].ActiveAt == nil || !found[0].ActiveAt.Equal(*rows[0].ActiveAt) {
		t.Errorf("searched: %+v, %v", found, err)
	}
	one, err := s.GetSession(ctx, rows[0].Key())
	if err != nil || one.ActiveAt == nil || !one.ActiveAt.Equal(*rows[0].ActiveAt) {
		t.Errorf("GetSession: ActiveAt %v, %v", one.ActiveAt, err)
	}
}

// TestListSessionsTotal checks a page's total whether the page is full
// (counted), short (the last page) or past the end.
func TestListSessionsTotal(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	writeFakes(t, s, []fake{{wi: "w", file: "a", flagged: true}, {wi: "w", file: "b"}, {wi: "w", file: "c"}, {wi: "w", file: "d"}})
	if p, _ := s.ListSessions(context.Background(), review.Query{Limit: 2}); p.Total != 0 {
		t.Errorf("a page not asked to count has a total of %d", p.Total)
	}
	for _, tc := range []struct {
		q           review.Query
		rows, total int
	}{
		{review.Query{Count: true}, 4, 4},
		{review.Query{Count: true, Limit: 2}, 2, 4},
		{review.Query{Count: true, Limit: 2, Offset: 2}, 2, 4},
		{review.Query{Count: true, Limit: 3, Offset: 2}, 2, 4},
		{review.Query{Count: true, Offset: 1}, 3, 4},
		{review.Query{Count: true, Limit: 2, Offset: 10}, 0, 4},
		{review.Query{Count: true, Flagged: true, Limit: 5}, 1, 1},
		{review.Query{Count: true, Sort: review.SortTriage, Search: "zzz", Limit: 5}, 0, 0},
	} {
		p, err := s.ListSessions(context.Background(), tc.q)
		if err != nil || len(p.Sessions) != tc.rows || p.Total != tc.total {
			t.Errorf("%+v: %d rows of %d (%v), want %d of %d", tc.q, len(p.Sessions), p.Total, err, tc.rows, tc.total)
		}
	}
}
