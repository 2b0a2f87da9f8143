package store

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// historiesDir holds real recorded histories, one folder per harness laid
// out as under the user's home (testdata/histories/<harness>/PROVENANCE.md).
const historiesDir = "../testdata/histories"

// historyWant is what one recorded session must import as.
type historyWant struct {
	workItem, file string
	agent          agents.Kind
	model          string
	turns, calls   int
	failedCalls    int
	// input, cached and output are the session's tokens; notRecorded
	// says the harness records none, and the cost basis says so.
	input, cached, output int64
	notRecorded           bool
	outcome               summary.Outcome
	// costUSD is the harness's own cost of the session, when it records
	// one; 0 when it does not.
	costUSD float64
}

// homeOf copies a harness's recorded folder into a temporary home, as the
// harness lays it out there, and returns the home.
func homeOf(t *testing.T, harness string) string {
	t.Helper()
	return homeOfIn(t, historiesDir, harness)
}

// homeOfIn is homeOf of a harness's folder under dir.
func homeOfIn(t *testing.T, dir, harness string) string {
	t.Helper()
	home := t.TempDir()
	src := filepath.Join(dir, harness)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "PROVENANCE.md" {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		copyFile(t, path, filepath.Join(home, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return home
}

// checkHarnessHistory imports a harness's recorded sessions from a
// temporary home, checks each against its want, then grows the first
// session's file by a copy of its last line and checks that the reimport
// reads that file alone.
func checkHarnessHistory(t *testing.T, harness string, wants []historyWant) {
	t.Helper()
	home := homeOf(t, harness)
	s := newTestStore(t)
	res := importHistory(t, s, homeRoots(home))
	if res.Files != len(wants) || res.Sessions != len(wants) {
		t.Fatalf("files %d, sessions %d; want %d", res.Files, res.Sessions, len(wants))
	}
	var first string
	for i, w := range wants {
		sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: w.workItem, FileName: w.file})
		if err != nil {
			t.Fatalf("%s/%s: %v", w.workItem, w.file, err)
		}
		if i == 0 {
			first = sess.Path
		}
		checkHistorySession(t, &sess.Summary, w)
	}
	grow(t, first)
	res = importHistory(t, s, homeRoots(home))
	if res.Sessions != 1 || res.Skipped != len(wants)-1 {
		t.Fatalf("after one file grew: %d sessions read, %d skipped; want 1 and %d", res.Sessions, res.Skipped, len(wants)-1)
	}
}

// checkHistorySession compares one imported session with its want.
func checkHistorySession(t *testing.T, sum *summary.Summary, w historyWant) {
	t.Helper()
	failed := 0
	for _, c := range sum.ToolCalls {
		if c.Success != nil && !*c.Success {
			failed++
		}
	}
	got := historyWant{workItem: sum.WorkItemID, file: sum.FileName, agent: agents.Kind(sum.AgentKind), model: sum.Model,
		turns: len(sum.Turns), calls: sum.ToolCallCount, failedCalls: failed, outcome: sum.Outcome,
		input: deref(sum.InputTokens), cached: deref(sum.CachedInputTokens), output: deref(sum.OutputTokens),
		notRecorded: sum.InputTokens == nil && sum.OutputTokens == nil}
	if sum.CostSource == summary.CostHarness && sum.EstimatedUSD != nil {
		got.costUSD = *sum.EstimatedUSD
	}
	if got.costUSD != 0 && w.costUSD != 0 && abs(got.costUSD-w.costUSD) < 1e-9 {
		got.costUSD = w.costUSD
	}
	if got != w {
		t.Errorf("%s:\n got %+v\nwant %+v (outcome: %s)", w.file, got, w, sum.OutcomeEvidence.Sentence)
	}
	if w.notRecorded && !strings.Contains(sum.CostBasis, "tokens not recorded by") {
		t.Errorf("%s: cost basis %q does not say the harness records no tokens", w.file, sum.CostBasis)
	}
}

// grow appends a copy of a file's last line, as the harness appends a
// record to a session it goes on with.
func grow(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines[len(lines)-1] + "\n"); err != nil {
		t.Fatal(err)
	}
}

func abs(f float64) float64 { return max(f, -f) }

// TestImportQwenHistory imports Qwen Code 0.24.4's own chat recordings
// (~/.qwen/projects/<project>/chats/<session id>.jsonl): a session of two
// shell calls, the second failing with exit 2, ended by the model's answer;
// and one the model's HTTP 400 ended, recorded as an api_error
// ui_telemetry record.
func TestImportQwenHistory(t *testing.T) {
	t.Parallel()
	checkHarnessHistory(t, "qwen", []historyWant{
		{workItem: "-tmp-qrec-work", file: "cdc50ce4-7120-4c05-85d4-baf9df39184c.jsonl", agent: agents.QwenHistory,
			model: "mock-model", turns: 3, calls: 2, failedCalls: 1, input: 4500, cached: 2200, output: 120,
			outcome: summary.OutcomeCompleted},
		{workItem: "-tmp-qfail-work", file: "2c89e6fa-0a86-4692-877e-98b6b45e8258.jsonl", agent: agents.QwenHistory,
			model: "mock-model", turns: 1, calls: 1, input: 1200, output: 40, outcome: summary.OutcomeFailed},
	})
}

// TestImportPiHistory imports pi 0.73.1's own session files
// (~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl), the same two
// scripts: the whole one, whose costs pi records per response, and the one
// a refused request ended (an assistant message with stopReason error).
func TestImportPiHistory(t *testing.T) {
	t.Parallel()
	checkHarnessHistory(t, "pi", []historyWant{
		{workItem: "-tmp-prec-work", file: "2026-12-05T18-07-36-235Z_01a24763-db29-7324-bb23-1cde9552e0f5.jsonl",
			agent: agents.PiHistory, model: "mock-model", turns: 3, calls: 2, failedCalls: 1,
			input: 4500, cached: 2200, output: 120, outcome: summary.OutcomeCompleted, costUSD: 0.0042 + 0.00225 + 0.00291},
		{workItem: "-tmp-pfail-work", file: "2026-12-05T18-08-07-538Z_01a24764-5571-7504-97a5-ce1eccfb2ea3.jsonl",
			agent: agents.PiHistory, model: "mock-model", turns: 1, calls: 1, input: 1200, output: 40,
			outcome: summary.OutcomeFailed, costUSD: 0.0042},
	})
}

// TestImportCopilotHistory imports GitHub Copilot CLI 1.0.102's own event
// logs (~/.copilot/session-state/<id>/events.jsonl; the workspace.yaml
// beside each is no session), the same two scripts played through its
// BYOK provider: the whole one, and the one a refused request ended with
// a session.error.
func TestImportCopilotHistory(t *testing.T) {
	t.Parallel()
	checkHarnessHistory(t, "copilot", []historyWant{
		{workItem: "-tmp-crec-work", file: "275ef4a3-72da-42ce-9400-6dbfe9d119ba.jsonl", agent: agents.CopilotHistory,
			model: "mock-model", turns: 3, calls: 2, failedCalls: 1, input: 4500, cached: 2200, output: 120,
			outcome: summary.OutcomeCompleted},
		{workItem: "-tmp-cfail-work", file: "b9242455-d064-452c-a77d-f6154938966c.jsonl", agent: agents.CopilotHistory,
			model: "mock-model", turns: 1, calls: 1, input: 1200, output: 40, outcome: summary.OutcomeFailed},
	})
}
