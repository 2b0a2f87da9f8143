package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/core/summary"
)

// TestTwoSessionsFindOneRun: two files of one work item, phase, iteration
// and agent, imported in one batch, both match a recorded run that names
// no file. As the SQLite writer's loop does, the first file's summary
// takes the run's cost row and the second gets a row of its own; on
// PostgreSQL, whose writer looks the rows up for a whole batch at once
// (pgWriteRun), the second is looked up again after the first's write.
func TestTwoSessionsFindOneRun(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	for _, name := range []string{"work-1-0a0b0c.jsonl", "work-1-0d0e0f.jsonl"} {
		copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.0.65-oauth-write.jsonl"), filepath.Join(root, "wi-2", name))
	}
	start := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	id, err := s.RecordInvocation(ctx, Invocation{WorkItemID: "wi-2", Phase: "work", Iteration: 1, AgentKind: "claude", Start: start})
	if err != nil {
		t.Fatal(err)
	}
	if err := finishInvocation(ctx, s, id, start.Add(time.Minute), 0); err != nil {
		t.Fatal(err)
	}
	if res := mustImport(t, s, root); res.Sessions != 2 {
		t.Fatalf("import: %+v", res)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, COALESCE(file_name, '') FROM work_item_costs WHERE work_item_id = 'wi-2' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	files := map[string]int{}
	var ids []int64
	for rows.Next() {
		var rid int64
		var f string
		if err := rows.Scan(&rid, &f); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rid)
		files[f]++
	}
	if len(ids) != 2 || ids[0] != id || files["work-1-0a0b0c.jsonl"] != 1 || files["work-1-0d0e0f.jsonl"] != 1 {
		t.Fatalf("cost rows %v naming %v; want the run's (%d) and one more, one per file", ids, files, id)
	}
}

// TestDistinctRuns: a batch that holds a session twice is cut before the
// second, so that each pipeline writes a session once, in the loop's
// order.
func TestDistinctRuns(t *testing.T) {
	t.Parallel()
	row := func(wi, file string) *sessionRow {
		return &sessionRow{sum: &summary.Summary{WorkItemID: wi, FileName: file}}
	}
	a, b, c, a2 := row("w", "a"), row("w", "b"), row("v", "a"), row("w", "a")
	runs := distinctRuns([]*sessionRow{a, b, c, a2, b})
	if len(runs) != 2 || len(runs[0]) != 3 || len(runs[1]) != 2 || runs[1][0] != a2 || runs[1][1] != b {
		t.Fatalf("runs %v", runs)
	}
	if runs := distinctRuns([]*sessionRow{a}); len(runs) != 1 || len(runs[0]) != 1 {
		t.Fatalf("one row: runs %v", runs)
	}
}
