package summary

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// claudeMessageLines are the five transcript lines Claude Code 2.1.38
// wrote for one message (core/agents/testdata/accounting): one line per
// content block, each repeating the message's usage.
func claudeMessageLines(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../agents/testdata/accounting/claude-2.1.38-usage.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// sidechainReplay is the first of those lines as a sidechain (a /btw side
// question, a subagent) replays it: marked isSidechain, under a request id
// of its own, with the larger cache read of ccusage's test (50,000).
func sidechainReplay(t *testing.T, line string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	m["isSidechain"], m["requestId"] = true, "req_011CYsidechainReplay000"
	m["message"].(map[string]any)["usage"].(map[string]any)["cache_read_input_tokens"] = 50000
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tokenTotals are a summary's token counts, for comparing two summaries.
func tokenTotals(t *testing.T, lines []string) [3]int64 {
	t.Helper()
	s, _, err := Analyze(strings.NewReader(strings.Join(lines, "\n")+"\n"), Options{Agent: "claude-history"})
	if err != nil {
		t.Fatal(err)
	}
	if s.InputTokens == nil || s.OutputTokens == nil || s.CachedInputTokens == nil {
		t.Fatalf("no tokens: %+v", s)
	}
	return [3]int64{*s.InputTokens, *s.OutputTokens, *s.CachedInputTokens}
}

// TestClaudeParentReplacesSidechainReplay pins ccusage's
// refreshes_dedupe_indexes_when_parent_replaces_sidechain_replay rule
// (ryoppippi/ccusage, rust/crates/ccusage/src/adapter/claude/mod.rs) on
// real transcript lines: a sidechain replay of a message, then the main
// chain's own lines of it under another request id, count the main
// chain's usage once and drop the replay's; the replay after the main
// chain is dropped too. ccusage 18.0.11, which keys by message and request
// id only, counts both (TestClaudeSidechainCcusage18 shows its number).
func TestClaudeParentReplacesSidechainReplay(t *testing.T) {
	t.Parallel()
	lines := claudeMessageLines(t)
	replay := sidechainReplay(t, lines[0])
	want := tokenTotals(t, lines)
	for _, tc := range []struct {
		name  string
		lines []string
	}{
		{"replay first", append([]string{replay}, lines...)},
		{"replay after", append(lines[:len(lines):len(lines)], replay)},
		{"replay between the parent's lines", append([]string{lines[0], replay}, lines[1:]...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tokenTotals(t, tc.lines); got != want {
				t.Errorf("tokens (in, out, cached) %v, want the parent's %v", got, want)
			}
		})
	}
}

// TestClaudeSidechainCcusage18 runs the pinned ccusage 18.0.11 on the
// replay-first transcript of TestClaudeParentReplacesSidechainReplay: it
// counts the replay and the parent (two request ids), sift the parent
// only, as ccusage's later rule does. A deliberate difference, logged with
// both numbers; it skips when ccusage is not installed.
func TestClaudeSidechainCcusage18(t *testing.T) {
	bin, err := filepath.Abs("../../testdata/ccusage/node_modules/.bin/ccusage")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("ccusage not installed; install with: npm ci --prefix testdata/ccusage")
	}
	lines := claudeMessageLines(t)
	transcript := append([]string{sidechainReplay(t, lines[0])}, lines...)
	root := filepath.Join(t.TempDir(), "claude")
	dir := filepath.Join(root, "projects", "-home-marco-projects-spotter")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "55604662-cf2a-4331-851a-ec234028f8ca.jsonl"), []byte(strings.Join(transcript, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "daily", "--json", "--offline")
	cmd.Env = append(os.Environ(), "TZ=UTC", "CLAUDE_CONFIG_DIR="+root)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ccusage: %v: %s", err, stderr.Bytes())
	}
	var rep struct {
		Totals struct {
			CacheReadTokens int64 `json:"cacheReadTokens"`
		} `json:"totals"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("ccusage output: %v\n%.500s", err, out)
	}
	parent := tokenTotals(t, lines)[2]
	sift := tokenTotals(t, transcript)[2]
	if sift != parent {
		t.Errorf("sift counts %d cache-read tokens, want the parent's %d", sift, parent)
	}
	if want := parent + 50000; rep.Totals.CacheReadTokens != want {
		t.Errorf("ccusage 18.0.11 counts %d cache-read tokens, want replay and parent (%d)", rep.Totals.CacheReadTokens, want)
	}
	t.Logf("cache-read tokens: sift %d (the parent's), ccusage 18.0.11 %d (replay and parent)", sift, rep.Totals.CacheReadTokens)
}

// codexLines returns the lines of a recorded Codex accounting file.
func codexLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile("../agents/testdata/accounting/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// TestCodexTotalAfterCounterDrop pins the session totals of a Codex
// rollout whose running total goes down. Codex 0.153.4's restart at a
// resume (its own rollout) is explained by the resumed call's own usage:
// the total is the calls' sum, the thread's true total (31,923 input, 31
// output), flagged token_counter_reset as an accounting note. A drop
// nothing explains (0.171.0's recorded lines, the last one repeated
// without its last_token_usage) leaves the tokens and the cost unknown,
// with the reason, rather than a sum (claude-code-log's monotonicity
// rule).
func TestCodexTotalAfterCounterDrop(t *testing.T) {
	t.Parallel()
	resumed := codexLines(t, "codex-0.153.4-resume-token-counts.jsonl")
	s, _, err := Analyze(strings.NewReader(strings.Join(resumed, "\n")+"\n"), Options{Agent: "codex-history"})
	if err != nil {
		t.Fatal(err)
	}
	i64(t, "input", s.InputTokens, 31923)
	i64(t, "output", s.OutputTokens, 31)
	if !hasFlag(s.Flags, FlagTokenCounterReset) || s.Flagged {
		t.Errorf("flags %v flagged %v, want token_counter_reset as an accounting note", s.Flags, s.Flagged)
	}

	counts := codexLines(t, "codex-0.171.0-token-counts.jsonl")
	var m map[string]any
	if err := json.Unmarshal([]byte(counts[0]), &m); err != nil {
		t.Fatal(err)
	}
	delete(m["payload"].(map[string]any)["info"].(map[string]any), "last_token_usage")
	dropped, _ := json.Marshal(m)
	meta := `{"timestamp":"2026-11-29T19:31:24.376Z","type":"session_meta","payload":{"id":"01a228ca-6c23-7b71-9824-63b909c09da0","cwd":"/w","cli_version":"0.171.0"}}`
	lines := []string{meta, counts[0], counts[1], string(dropped)}
	s, _, err = Analyze(strings.NewReader(strings.Join(lines, "\n")+"\n"), Options{Agent: "codex-history", Model: "gpt-5.5"})
	if err != nil {
		t.Fatal(err)
	}
	null(t, "input", s.InputTokens)
	null(t, "output", s.OutputTokens)
	if s.EstimatedUSD != nil || s.CostSource != CostUnknown {
		t.Errorf("cost %v (%s), want unknown", s.EstimatedUSD, s.CostSource)
	}
	if s.Reconciliation == nil || !strings.Contains(s.Reconciliation.Note, "tokens are unknown") {
		t.Errorf("reconciliation %+v, want the reason", s.Reconciliation)
	}
	found := false
	for _, n := range s.FlagNotes {
		if n.Flag == FlagTokenCounterReset && n.Line == 4 && strings.Contains(n.Sentence, "unknown") {
			found = true
		}
	}
	if !found || s.Flagged {
		t.Errorf("notes %+v flagged %v, want the unknown total's note at line 4, not flagged", s.FlagNotes, s.Flagged)
	}
}
