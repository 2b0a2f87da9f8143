package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSidechainReplayDiffersFromCcusage18 shows both numbers of a
// sidechain's replay of a main-chain message in its own file (a subagent's
// transcript, read before the session's): the message Claude Code 2.1.38
// recorded (core/agents/testdata/accounting: 3 input, 13 output, 13835
// cache write, 11515 cache read) and a replay of it under a new request id
// with 50000 cache-read tokens, written earlier. `sift usage` counts the
// main chain's usage once and drops the replay, as ccusage's Rust loader
// does (refreshes_dedupe_indexes_when_parent_replaces_sidechain_replay);
// ccusage 18.0.11 keys by message and request id only and counts both.
func TestSidechainReplayDiffersFromCcusage18(t *testing.T) {
	cc := ccusagePath(t)
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
	claude := filepath.Join(t.TempDir(), "claude")
	project := filepath.Join(claude, "projects", "-home-marco-projects-spotter")
	for name, body := range map[string][]byte{
		sid + ".jsonl": b,
		filepath.Join(sid, "subagents", "agent-a5e1de0.jsonl"): append(rb, '\n'),
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(project, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const parent, replayed = 3 + 13 + 13835 + 11515, 3 + 13 + 13835 + 50000
	db := importClaude(t, claude)
	ccTotal, sift, inbox := claudeTotals(t, cc, claude, db)
	// The inbox adds each file's summary, the subagent's replay too: the
	// rule across files is `sift usage`'s alone so far.
	t.Logf("inbox (input and output per session, added) %d", inbox)
	t.Logf("tokens: sift usage %d (the main chain's message once; ccusage's Rust loader: %d); ccusage 18.0.11 daily %d (the replay too: %d + %d)",
		sift, parent, ccTotal, parent, replayed)
	if sift != parent {
		t.Errorf("sift usage %d tokens, want the main chain's %d alone", sift, parent)
	}
	if ccTotal != parent+replayed {
		t.Errorf("ccusage 18.0.11 %d tokens, want the message and its replay, %d", ccTotal, parent+replayed)
	}
}
