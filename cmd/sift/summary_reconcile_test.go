package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/summary"
)

// TestSummaryReconciliation checks that `sift summary` states the
// reconciliation, in text and JSON: a Claude run whose result line leaves
// out its subagents' calls shows both figures and says the subagents
// explain the difference, a normal one: it is not flagged usage_mismatch;
// a run whose result and calls agree is not; a Codex rollout whose token
// counter went down is flagged token_counter_reset.
func TestSummaryReconciliation(t *testing.T) {
	t.Parallel()
	orchestrator := "../../testdata/streams/claude/claude-orchestrator-task-subagent-reserialized.jsonl"
	code, out, errs := runSift(t, "summary", "--json", orchestrator, claudeRun1)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var mism, agree summary.Summary
	if err := json.Unmarshal([]byte(lines[0]), &mism); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &agree); err != nil {
		t.Fatal(err)
	}
	r := mism.Reconciliation
	if r == nil || r.HarnessTotal == nil || r.CallsTotal == nil || r.HarnessTotal.Input != 50979 || r.CallsTotal.Input != 201290 ||
		r.Source != "result line" || slices.Contains(mism.Flags, summary.FlagUsageMismatch) || !strings.Contains(r.Note, "subagents' usage") {
		t.Fatalf("orchestrator: %+v, flags %v", r, mism.Flags)
	}
	if agree.Reconciliation == nil || agree.Reconciliation.HarnessTotal.Input != agree.Reconciliation.CallsTotal.Input ||
		slices.Contains(agree.Flags, summary.FlagUsageMismatch) {
		t.Fatalf("run1: %+v, flags %v", agree.Reconciliation, agree.Flags)
	}
	if _, text, _ := runSift(t, "summary", orchestrator); !strings.Contains(text, "usage check   harness (result line) in 50979 · out 161 | calls in 201290 · out 2819") {
		t.Errorf("text summary:\n%s", text)
	}

	// A rollout whose counter restarts: the recorded token_count lines,
	// the first again after the second.
	counts := strings.Split(strings.TrimSpace(string(mustReadFile(t, "../../core/agents/testdata/accounting/codex-0.171.0-token-counts.jsonl"))), "\n")
	meta := `{"timestamp":"2026-11-29T19:31:24.376Z","type":"session_meta","payload":{"id":"01a228ca-6c23-7b71-9824-63b909c09da0","cwd":"/w","cli_version":"0.171.0"}}`
	f := filepath.Join(t.TempDir(), "rollout-2026-11-29T19-31-24-01a228ca-6c23-7b71-9824-63b909c09da0.jsonl")
	if err := os.WriteFile(f, []byte(strings.Join([]string{meta, counts[0], counts[1], counts[0]}, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runSift(t, "summary", "--json", "--agent", "codex-history", f)
	var s summary.Summary
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if !slices.Contains(s.Flags, summary.FlagTokenCounterReset) || s.InputTokens == nil || *s.InputTokens != 1200+1500+1200 {
		t.Fatalf("reset rollout: flags %v, input %v", s.Flags, s.InputTokens)
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
