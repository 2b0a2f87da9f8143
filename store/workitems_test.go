package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
)

// auditFixture is a claude stream with the harness's own cost.
const auditFixture = "claude/evolve-2.1.7-run1-write-file.jsonl"

func TestCostReconciliation(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	audit := copyFile(t, filepath.Join(fixtures, auditFixture), filepath.Join(root, "wi-1", "audit-llm-security:llm-review-3-d4e5f6.jsonl"))
	plain := copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.0.65-oauth-write.jsonl"), filepath.Join(root, "wi-1", "work-1-0a0b0c.jsonl"))
	start := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)

	// Two invocations of the canonical audit phase, iteration 3: the newer
	// one is the one that wrote the file. One of another iteration, one of
	// another agent kind.
	var ids []int64
	for _, inv := range []Invocation{
		{WorkItemID: "wi-1", Phase: "audit-llm-security", Iteration: 3, AgentKind: "claude", Start: start},
		{WorkItemID: "wi-1", Phase: "audit-llm-security", Iteration: 3, AgentKind: "claude", Start: start.Add(time.Hour), File: audit},
		{WorkItemID: "wi-1", Phase: "audit-llm-security", Iteration: 2, AgentKind: "claude", Start: start},
		{WorkItemID: "wi-1", Phase: "audit-llm-security", Iteration: 3, AgentKind: "codex", Start: start},
	} {
		id, err := s.RecordInvocation(ctx, inv)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if st, _ := s.WorkItemState(ctx, "wi-1"); st != WorkItemRunning {
		t.Fatalf("state after RecordInvocation = %q", st)
	}
	// While the work item runs, imports leave its files alone.
	res := mustImport(t, s, root)
	if res.Deferred != 2 || res.Sessions != 0 {
		t.Fatalf("import of a running work item: %+v", res)
	}
	for i, id := range ids[:3] {
		if err := finishInvocation(ctx, s, id, start.Add(time.Duration(i+1)*time.Minute), 0); err != nil {
			t.Fatal(err)
		}
	}
	if st, _ := s.WorkItemState(ctx, "wi-1"); st != WorkItemRunning {
		t.Fatal("work item terminal while an invocation still runs")
	}
	if err := finishInvocation(ctx, s, ids[3], start.Add(2*time.Hour), 1); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.WorkItemState(ctx, "wi-1"); st != WorkItemTerminal {
		t.Fatalf("state after the last FinishInvocation = %q", st)
	}
	sum, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-1", FileName: filepath.Base(audit)})
	if err != nil {
		t.Fatalf("terminal transition did not summarize: %v", err)
	}
	if sum.EstimatedUSD == nil || sum.CostSource != "harness" {
		t.Fatalf("fixture has no harness cost: %+v", sum)
	}
	costs, err := s.Costs(ctx, "wi-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(costs) != 5 {
		t.Fatalf("%d cost rows, want the 4 invocations and one stream-sourced", len(costs))
	}
	for i, c := range costs[:4] {
		updated := c.CostUSD != nil
		if updated != (i == 1) {
			t.Errorf("row %d (%s it %v %s) updated=%v", i, c.Phase, *c.Iteration, c.AgentKind, updated)
		}
	}
	if got := costs[1]; *got.CostUSD != *sum.EstimatedUSD || got.FileName != filepath.Base(audit) ||
		got.InputTokens == nil || *got.ExitCode != 0 || *got.Start != start.Add(time.Hour).UnixMilli() {
		t.Errorf("reconciled row: %+v", got)
	}
	stream := costs[4]
	var meta map[string]any
	if err := json.Unmarshal([]byte(stream.RawMetadataJSON), &meta); err != nil {
		t.Fatal(err)
	}
	if meta["source"] != SourceStreamAnalyser || stream.FileName != filepath.Base(plain) || stream.Phase != "work" ||
		stream.CostUSD == nil {
		t.Errorf("stream-sourced row: %+v %v", stream, meta)
	}
	// Re-summarizing updates the same rows; it inserts no more.
	if _, err := ingest.CompleteWorkItem(ctx, s, "wi-1", nil, tiered(ingest.Options{})); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.Costs(ctx, "wi-1"); len(again) != 5 {
		t.Fatalf("%d cost rows after a second pass, want 5", len(again))
	}
}

// TestCostRowPerFile: files of the same work item, phase, iteration and
// agent (a project's history sessions, a resumed run's second file) each
// keep a cost row of their own; an invocation row no file has claimed yet
// goes to the first.
func TestCostRowPerFile(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	a := copyFile(t, filepath.Join(fixtures, auditFixture), filepath.Join(root, "wi-9", "work-1-aaaaaa.jsonl"))
	b := copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.0.65-oauth-write.jsonl"), filepath.Join(root, "wi-9", "work-1-bbbbbb.jsonl"))
	id, err := s.RecordInvocation(ctx, Invocation{WorkItemID: "wi-9", Phase: "work", Iteration: 1, AgentKind: "claude",
		Start: time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if err := finishInvocation(ctx, s, id, time.Date(2026, 11, 3, 9, 5, 0, 0, time.UTC), 0); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second pass changes nothing
		if _, err := ingest.Import(ctx, s, []string{root}, tiered(ingest.Options{Force: true}), nil); err != nil {
			t.Fatal(err)
		}
		costs, err := s.Costs(ctx, "wi-9")
		if err != nil {
			t.Fatal(err)
		}
		if len(costs) != 2 {
			t.Fatalf("%d cost rows, want one per file: %+v", len(costs), costs)
		}
		byFile := map[string]Cost{}
		for _, c := range costs {
			byFile[c.FileName] = c
		}
		for _, f := range []string{a, b} {
			name := filepath.Base(f)
			sum, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-9", FileName: name})
			if err != nil {
				t.Fatal(err)
			}
			c, ok := byFile[name]
			if !ok || c.InputTokens == nil || sum.InputTokens == nil || *c.InputTokens != *sum.InputTokens {
				t.Errorf("%s: cost row %+v, summary input tokens %v", name, c, sum.InputTokens)
			}
		}
		if byFile[filepath.Base(a)].ID != id && byFile[filepath.Base(b)].ID != id {
			t.Errorf("the invocation row %d went to neither file: %+v", id, costs)
		}
	}
}

// TestReimportKeepsOneCostRowPerFile: files with no invocation get their
// cost row inserted without a search; importing them again (forced)
// updates those rows and adds none.
func TestReimportKeepsOneCostRowPerFile(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	for _, name := range []string{"work-1-aaaaaa.jsonl", "work-1-bbbbbb.jsonl", "rework-2-cccccc.jsonl"} {
		copyFile(t, filepath.Join(fixtures, auditFixture), filepath.Join(root, "wi-7", name))
	}
	for pass := range 3 {
		if _, err := ingest.Import(ctx, s, []string{root}, tiered(ingest.Options{Force: pass > 0}), nil); err != nil {
			t.Fatal(err)
		}
		costs, err := s.Costs(ctx, "wi-7")
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]int{}
		for _, c := range costs {
			files[c.FileName]++
		}
		if len(costs) != 3 || len(files) != 3 {
			t.Fatalf("pass %d: %d cost rows for %v, want one per file", pass, len(costs), files)
		}
	}
}

// TestInvocationWindowProjects checks that a stream without timestamps is
// placed in its invocation's window and that the declared agent kind wins.
func TestInvocationWindowProjects(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	file := copyFile(t, filepath.Join(fixtures, "codex", "takopi-banteg-commands-reasoning.jsonl"), filepath.Join(root, "wi-2", "work-1-123abc.jsonl"))
	start := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	end := start.Add(90 * time.Second)
	id, err := s.RecordInvocation(ctx, Invocation{WorkItemID: "wi-2", Phase: "work", Iteration: 1, AgentKind: "codex", File: file, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	if err := finishInvocation(ctx, s, id, end, 0); err != nil {
		t.Fatal(err)
	}
	sum, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-2", FileName: "work-1-123abc.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.AgentKind != "codex" || sum.StartedAt == nil || sum.StartedAt.Before(start) || sum.EndedAt == nil || sum.EndedAt.After(end) {
		t.Fatalf("projection: agent %s, %v – %v, want within %v – %v", sum.AgentKind, sum.StartedAt, sum.EndedAt, start, end)
	}
}

func TestRetryInvalidatesUntilDone(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	copyFile(t, filepath.Join(fixtures, auditFixture), filepath.Join(root, "wi-3", "work-1-aaaaaa.jsonl"))
	mustImport(t, s, root)
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi-3", FileName: "work-1-aaaaaa.jsonl"}, Kind: review.NeedsFollowup}); err != nil {
		t.Fatal(err)
	}
	if err := s.RetryWorkItem(ctx, "wi-3"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-3", FileName: "work-1-aaaaaa.jsonl"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("summary after retry: %v, want ErrNotFound", err)
	}
	if res := mustImport(t, s, root); res.Deferred != 1 || res.Sessions != 0 {
		t.Fatalf("import during retry: %+v", res)
	}
	res, err := ingest.CompleteWorkItem(ctx, s, "wi-3", []string{root}, tiered(ingest.Options{}))
	if err != nil || res.Sessions != 1 {
		t.Fatalf("done: %+v, %v", res, err)
	}
	sum, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi-3", FileName: "work-1-aaaaaa.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Decision == nil || sum.Decision.Kind != review.NeedsFollowup {
		t.Fatalf("decision lost across retry: %+v", sum.Decision)
	}
	if err := s.RetryWorkItem(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("retry of an unknown work item: %v", err)
	}
	if _, err := ingest.CompleteWorkItem(ctx, s, "nope", nil, tiered(ingest.Options{})); !errors.Is(err, ErrNotFound) {
		t.Fatalf("done of an unknown work item: %v", err)
	}
}

func TestRebuildKeepsDecisions(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	for _, f := range fixtureFiles(t)[:6] {
		copyFile(t, f, filepath.Join(root, filepath.Base(filepath.Dir(f)), filepath.Base(f)))
	}
	first := mustImport(t, s, root)
	rows, _ := pageRows(s.ListSessions(ctx, review.Query{}))
	key := review.SessionKey{WorkItemID: rows[0].WorkItemID, FileName: rows[0].FileName}
	for _, k := range []review.DecisionKind{review.NeedsFollowup, review.Reviewed} {
		if err := s.Decide(ctx, review.Decision{Session: key, Kind: k, Note: string(k)}); err != nil {
			t.Fatal(err)
		}
	}
	// A stray row that a rebuild must drop.
	if _, err := s.w.ExecContext(ctx, `UPDATE agent_stream_summaries SET stall_count = 99`); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Rebuild(ctx, s, nil, tiered(ingest.Options{}), nil)
	if err != nil || res.Sessions != first.Sessions || len(res.Failed) != 0 {
		t.Fatalf("rebuild: %+v, %v (first import %d sessions)", res, err, first.Sessions)
	}
	if n, _ := s.CountSessions(ctx, review.Query{Sort: review.SortStalls}); n != first.Sessions {
		t.Fatalf("%d sessions after rebuild", n)
	}
	if top, _ := pageRows(s.ListSessions(ctx, review.Query{Sort: review.SortStalls, Limit: 1})); top[0].StallCount == 99 {
		t.Fatal("rebuild kept derived data")
	}
	var rebuilding int
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM meta WHERE key = ?`, metaRebuilding).Scan(&rebuilding)
	if rebuilding != 0 {
		t.Fatal("a completed rebuild left its mark: sweeps would never sweep decisions")
	}
	hist, err := s.Decisions(ctx, key)
	if err != nil || len(hist) != 2 {
		t.Fatalf("decisions after rebuild: %+v, %v", hist, err)
	}
	sum, _ := s.GetSession(ctx, key)
	if sum.Decision == nil || sum.Decision.Kind != review.Reviewed {
		t.Fatalf("current decision after rebuild: %+v", sum.Decision)
	}
	costs, _ := s.Costs(ctx, key.WorkItemID)
	var streamRows int
	for _, c := range costs {
		if strings.Contains(c.RawMetadataJSON, SourceStreamAnalyser) {
			streamRows++
		}
	}
	if streamRows == 0 || streamRows > len(costs) {
		t.Fatalf("stream-sourced cost rows after rebuild: %d of %d", streamRows, len(costs))
	}
}

// TestInvocationCwd: RecordInvocation keeps the run's working directory,
// made absolute; InvocationCwd gives it to the session its file became,
// the newest run naming the file winning; a file no run recorded a
// directory for has none.
func TestInvocationCwd(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	root := t.TempDir()
	file := filepath.Join(root, "wi-1", "work-1-a1b2c3.jsonl")
	for _, inv := range []Invocation{
		{WorkItemID: "wi-1", Phase: "work", Iteration: 1, AgentKind: "claude", File: file, Cwd: "/srv/old"},
		{WorkItemID: "wi-1", Phase: "work", Iteration: 1, AgentKind: "claude", File: file, Cwd: "/srv/app/./src/.."},
		{WorkItemID: "wi-1", Phase: "rework", Iteration: 1, AgentKind: "claude", File: filepath.Join(root, "wi-1", "rework-1-d4e5f6.jsonl")},
	} {
		if _, err := s.RecordInvocation(ctx, inv); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ wi, file, want string }{
		{"wi-1", "work-1-a1b2c3.jsonl", "/srv/app"},
		{"wi-1", "rework-1-d4e5f6.jsonl", ""},
		{"wi-1", "work-9-000000.jsonl", ""},
		{"wi-2", "work-1-a1b2c3.jsonl", ""},
	}
	for _, tc := range tests {
		got, err := s.InvocationCwd(ctx, tc.wi, tc.file)
		if err != nil || got != tc.want {
			t.Errorf("InvocationCwd(%s, %s) = %q, %v; want %q", tc.wi, tc.file, got, err, tc.want)
		}
	}
}

// TestInvocationArgsIgnoresAHugeValue: a row of a shared database whose
// recorded arguments are far larger than sift run writes is not read
// back into the session.
func TestInvocationArgsIgnoresAHugeValue(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	for name, args := range map[string][]string{"small.jsonl": {"-p", "hi"}, "huge.jsonl": {strings.Repeat("x", maxArgsJSON)}} {
		if _, err := s.RecordInvocation(ctx, Invocation{WorkItemID: "wi-a", Phase: "work", Iteration: 1, AgentKind: "claude",
			File: "/logs/wi-a/" + name, Start: time.Now(), Args: args}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.InvocationArgs(ctx, "wi-a", "small.jsonl"); err != nil || len(got) != 2 || got[1] != "hi" {
		t.Errorf("small: %q %v", got, err)
	}
	if got, err := s.InvocationArgs(ctx, "wi-a", "huge.jsonl"); err != nil || got != nil {
		t.Errorf("huge: %d args, %v", len(got), err)
	}
}
