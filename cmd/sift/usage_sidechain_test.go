package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tokens of the message Claude Code 2.1.38 recorded
// (core/agents/testdata/accounting: 3 input, 13 output, 13835 cache write,
// 11515 cache read), and of sidechainReplay's replay of it.
const (
	replayedParent = 3 + 13 + 13835 + 11515
	replayTokens   = 3 + 13 + 13835 + 50000
)

// sidechainReplay lays out a Claude Code configuration folder holding one
// session as Claude Code keeps it: the main chain's transcript
// (<project>/<session>.jsonl: the message above) and a subagent's own
// (<project>/<session>/subagents/agent-a5e1de0.jsonl): a replay of the main
// chain's message under a new request id with 50000 cache-read tokens,
// written earlier, then the lines given (the subagent's own work, moved to
// the session). It returns the configuration folder.
func sidechainReplay(t *testing.T, own []byte) string {
	t.Helper()
	b, err := os.ReadFile("../../core/agents/testdata/accounting/claude-2.1.38-usage.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var replay map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &replay); err != nil {
		t.Fatal(err)
	}
	sid := replay["sessionId"].(string)
	replay["isSidechain"], replay["agentId"] = true, "a5e1de0"
	replay["requestId"], replay["timestamp"] = "req_011CYreplayed0000000000", "2026-02-10T21:11:50.000Z"
	replay["message"].(map[string]any)["usage"].(map[string]any)["cache_read_input_tokens"] = 50000
	rb, err := json.Marshal(replay)
	if err != nil {
		t.Fatal(err)
	}
	side := append(rb, '\n')
	side = append(side, own...)
	claude := filepath.Join(t.TempDir(), "claude")
	project := filepath.Join(claude, "projects", "-home-marco-projects-spotter")
	for name, body := range map[string][]byte{
		sid + ".jsonl": b,
		filepath.Join(sid, "subagents", "agent-a5e1de0.jsonl"): side,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(project, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return claude
}

// TestSidechainReplayDiffersFromCcusage18 shows both numbers of a
// sidechain's replay of a main-chain message in its own file (a subagent's
// transcript, read before the session's). `sift usage` and the inbox count
// the main chain's usage once and drop the replay, as ccusage's Rust loader
// does (refreshes_dedupe_indexes_when_parent_replaces_sidechain_replay);
// ccusage 18.0.11 keys by message and request id only and counts both.
func TestSidechainReplayDiffersFromCcusage18(t *testing.T) {
	cc := ccusagePath(t)
	claude := sidechainReplay(t, nil)
	db := importClaude(t, claude)
	ccTotal, sift, inbox := claudeTotals(t, cc, claude, db)
	t.Logf("tokens: sift usage %d, inbox %d (the main chain's message once; ccusage's Rust loader: %d); ccusage 18.0.11 daily %d (the replay too: %d + %d)",
		sift, inbox, replayedParent, ccTotal, replayedParent, replayTokens)
	if sift != replayedParent || inbox != replayedParent {
		t.Errorf("sift usage %d tokens, inbox %d, want the main chain's %d alone", sift, inbox, replayedParent)
	}
	if ccTotal != replayedParent+replayTokens {
		t.Errorf("ccusage 18.0.11 %d tokens, want the message and its replay, %d", ccTotal, replayedParent+replayTokens)
	}
}

// TestSidechainReplayInOwnFileInboxEqualsUsage: one counting rule for the
// inbox and `sift usage` (issue 31, clarification 5) when a subagent's own
// transcript replays a message of its session's main chain before going on
// with its own work (a real subagent transcript's, moved to the session).
// Session by session, the inbox's rows add up to `sift usage --by
// session`: the main chain's message once, the replay in neither, the
// subagent's own calls in both, as the subagent's work imported without
// the replay counts them. The old inbox counted the replay on the
// subagent's row.
func TestSidechainReplayInOwnFileInboxEqualsUsage(t *testing.T) {
	b, err := os.ReadFile("../../testdata/history/claude/spotter-subagent-agent-aac57f5.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	own := []byte(strings.ReplaceAll(string(b), "ae4a77f8-aedd-4bc1-888f-c94edc91af04", "55604662-cf2a-4331-851a-ec234028f8ca"))
	// The subagent's own calls, counted alone: its transcript without the
	// replay or the session's main chain.
	alone := filepath.Join(t.TempDir(), "claude")
	copyTo(t, "../../testdata/history/claude/spotter-subagent-agent-aac57f5.jsonl",
		filepath.Join(alone, "projects", "-home-user-projects-spotter", "ae4a77f8.jsonl"))
	_, ownTokens := inboxTokens(t, importClaude(t, alone))
	if ownTokens == 0 {
		t.Fatal("the subagent's transcript alone counts no tokens")
	}

	db := importClaude(t, sidechainReplay(t, own))
	perSession, inbox := inboxTokens(t, db)
	bySession := usageJSON(t, db, "--by", "session")
	got := map[string]int64{}
	for _, r := range bySession.Rows {
		got[r.Key] = r.TotalTokens
	}
	if len(perSession) != 1 || len(got) != 1 {
		t.Fatalf("sessions: inbox %v, usage %v; want the one session", perSession, got)
	}
	for k, n := range perSession {
		if got[k] != n {
			t.Errorf("session %s: usage %d tokens, inbox %d", k, got[k], n)
		}
	}
	if want := replayedParent + ownTokens; inbox != want || bySession.Totals.TotalTokens != want {
		t.Errorf("inbox %d tokens, usage %d; want the main chain's %d and the subagent's own %d (%d), not the replay's %d",
			inbox, bySession.Totals.TotalTokens, replayedParent, ownTokens, want, replayTokens)
	}
}
