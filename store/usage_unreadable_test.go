package store

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// TestUsageLeavesOutUnreadableRows: in a shared database, a session row
// whose summary (brief_json) another program wrote so that it does not
// decode, and a history file's usage row whose entries do not, are left
// out of SessionTotals and UsageFiles and returned, named with why; every
// other row is read as before. The old store stopped at the first such
// row with an error.
func TestUsageLeavesOutUnreadableRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newTestStore(t)
	_, roots := historyHome(t)
	importHistory(t, s, roots)
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl", tokens: 400}, {wi: "wi", file: "b.jsonl", tokens: 800},
		{wi: "wi", file: "c.jsonl", tokens: 1200}})
	totals := func() (map[string]int64, []Unreadable) {
		t.Helper()
		got := map[string]int64{}
		bad, err := s.SessionTotals(ctx, nil, func(sum *summary.Summary, _ int64) error {
			got[sum.WorkItemID+"/"+sum.FileName] = deref(sum.InputTokens) + deref(sum.OutputTokens)
			return nil
		})
		if err != nil {
			t.Fatalf("session totals: %v", err)
		}
		return got, bad
	}
	files := func() (map[string]int, []Unreadable) {
		t.Helper()
		got := map[string]int{}
		bad, err := s.UsageFiles(ctx, "", func(f UsageFile) error {
			got[f.WorkItemID+"/"+f.FileName] = len(f.Entries)
			return nil
		})
		if err != nil {
			t.Fatalf("usage files: %v", err)
		}
		return got, bad
	}
	before, bad := totals()
	beforeFiles, badFiles := files()
	if len(bad) != 0 || len(badFiles) != 0 || before["wi/b.jsonl"] != 800 || len(beforeFiles) < 3 {
		t.Fatalf("before: totals %v (%v), files %v (%v)", before, bad, beforeFiles, badFiles)
	}
	// The history file whose usage row is broken: the first by name.
	broken := slices.Sorted(maps.Keys(beforeFiles))[0]
	wi, file, _ := strings.Cut(broken, "/")
	// A summary that is JSON but not a summary's (PostgreSQL holds it as
	// text too), and entries cut short.
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE agent_stream_summaries SET brief_json = ? WHERE work_item_id = ? AND file_name = ?`,
			[]any{`{"inputTokens":"many"}`, "wi", "b.jsonl"}},
		{`UPDATE usage_files SET entries = ? WHERE work_item_id = ? AND file_name = ?`,
			[]any{[]byte{entriesMarked, 0x02}, wi, file}},
	} {
		if _, err := s.w.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}

	after, bad := totals()
	if len(bad) != 1 || bad[0].Session != (review.SessionKey{WorkItemID: "wi", FileName: "b.jsonl"}) ||
		!strings.Contains(bad[0].Err.Error(), "decode summary") {
		t.Errorf("unreadable summaries %v, want wi/b.jsonl's, saying why", bad)
	}
	delete(before, "wi/b.jsonl")
	if len(after) != len(before) {
		t.Errorf("after: %v, want every other session %v", after, before)
	}
	for k, n := range before {
		if after[k] != n {
			t.Errorf("%s: %d tokens, was %d", k, after[k], n)
		}
	}
	afterFiles, badFiles := files()
	if len(badFiles) != 1 || badFiles[0].Session.Ref() != broken || !strings.Contains(badFiles[0].Err.Error(), "usage entries") {
		t.Errorf("unreadable usage rows %v, want %s's, saying why", badFiles, broken)
	}
	delete(beforeFiles, broken)
	if len(afterFiles) != len(beforeFiles) {
		t.Errorf("usage rows after: %v, want every other %v", afterFiles, beforeFiles)
	}
	for k, n := range beforeFiles {
		if afterFiles[k] != n {
			t.Errorf("%s: %d entries, was %d", k, afterFiles[k], n)
		}
	}
}
