package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// ampThreads is where the recorded Amp threads lie under their home.
const ampThreads = ".local/share/amp/threads"

// ampWants are the recorded Amp threads (testdata/histories/amp/PROVENANCE.md)
// as they import: txcript's thread of three responses and three calls (the
// painter call failing) ended by the model's answer, its tokens the messages' usage;
// ccusage's thread, whose tokens are its usage ledger's (input and output)
// with the cache of the message the event names, and its credits Amp's
// cost at $0.01 each; and the thread a response in error ended.
func ampWants() []historyWant {
	return []historyWant{
		{workItem: "-Users-dev-proj-x", file: "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001.json", agent: agents.AmpHistory,
			model: "claude-opus-4-5-20251101", turns: 3, calls: 3, failedCalls: 1,
			input: 12 + 4 + 6 + 900 + 10 + 3400 + 4300 + 4310, cached: 3400 + 4300 + 4310, output: 80 + 60 + 20,
			outcome: summary.OutcomeCompleted},
		{workItem: "amp", file: "T-test-thread-123.json", agent: agents.AmpHistory, model: "claude-haiku-4-5-20251001",
			turns: 1, input: 100 + 500 + 200, cached: 200, output: 50, outcome: summary.OutcomeCompleted, costUSD: 1.5 * 0.01},
		{workItem: "-Users-dev-proj-x", file: "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002.json", agent: agents.AmpHistory,
			model: "claude-opus-4-5-20251101", turns: 1, input: 12 + 900 + 3400, cached: 3400, output: 80,
			outcome: summary.OutcomeFailed},
	}
}

// TestImportAmpHistory imports Amp's thread files
// (~/.local/share/amp/threads/<thread id>.json) from a temporary home: one
// session per thread id, each checked for its project, model, turns, calls,
// tokens, cost and outcome. Amp rewrites a thread whole as it goes on; the
// thread rewritten with a second prompt and answer is read again alone, and
// comes in with its second turn and the answer's tokens.
func TestImportAmpHistory(t *testing.T) {
	t.Parallel()
	home := homeOf(t, "amp")
	s := newTestStore(t)
	wants := ampWants()
	res := importHistory(t, s, homeRoots(home))
	if res.Files != len(wants) || res.Sessions != len(wants) || len(res.Failed) != 0 {
		t.Fatalf("files %d, sessions %d, failed %v; want %d", res.Files, res.Sessions, res.Failed, len(wants))
	}
	get := func(w historyWant) *summary.Summary {
		t.Helper()
		sess, err := s.GetSession(context.Background(), review.SessionKey{WorkItemID: w.workItem, FileName: w.file})
		if err != nil {
			t.Fatalf("%s/%s: %v", w.workItem, w.file, err)
		}
		return &sess.Summary
	}
	for _, w := range wants {
		checkHistorySession(t, get(w), w)
	}
	sum := get(wants[0])
	if sum.SessionID != "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001" || sum.StreamCwd != "/Users/dev/proj x" {
		t.Errorf("session id %q, folder %q; want the thread's id and its tree's folder", sum.SessionID, sum.StreamCwd)
	}
	if e := sum.OutcomeEvidence.Sentence; e != "the last assistant message ended its turn" {
		t.Errorf("outcome evidence %q, want the end_turn of the last response", e)
	}
	if e := get(wants[2]).OutcomeEvidence.Sentence; e != "the stream ends with an error entry: max_tokens" {
		t.Errorf("failed thread's evidence %q", e)
	}

	growAmpThread(t, filepath.Join(home, ampThreads, wants[0].file))
	res = importHistory(t, s, homeRoots(home))
	if res.Sessions != 1 || res.Skipped != len(wants)-1 {
		t.Fatalf("after one thread grew: %d sessions read, %d skipped; want 1 and %d", res.Sessions, res.Skipped, len(wants)-1)
	}
	w := wants[0]
	w.turns, w.input, w.cached, w.output = 4, w.input+7+4310, w.cached+4310, w.output+9
	checkHistorySession(t, get(w), w)
}

// growAmpThread writes a thread again as Amp does when it goes on: the
// whole document, with a second prompt and the model's answer appended.
func growAmpThread(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var th map[string]any
	if err := json.Unmarshal(b, &th); err != nil {
		t.Fatal(err)
	}
	msgs := th["messages"].([]any)
	msgs = append(msgs,
		map[string]any{"role": "user", "messageId": 6, "meta": map[string]any{"sentAt": 1768178300000},
			"content": []any{map[string]any{"type": "text", "text": "and add a test"}}},
		map[string]any{"role": "assistant", "messageId": 7,
			"content": []any{map[string]any{"type": "text", "text": "Added."}},
			"state":   map[string]any{"type": "complete", "stopReason": "end_turn"},
			"usage": map[string]any{"model": "claude-opus-4-5-20251101", "inputTokens": 7, "outputTokens": 9,
				"cacheCreationInputTokens": 0, "cacheReadInputTokens": 4310, "timestamp": "2026-01-12T00:38:30.000Z"}})
	th["messages"] = msgs
	th["v"] = 43
	out, err := json.MarshalIndent(th, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
