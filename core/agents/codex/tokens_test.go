package codex

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// codexCountLines returns the three token_count lines Codex 0.171.0 wrote
// in testdata/history/codex/e2e-codex-0.171.0-scripted.jsonl, copied
// verbatim into testdata/accounting (see its README): three calls of
// 1200/0/40, 1500/1000/30 and 1800/1200/50 tokens (input, cached, output).
func codexCountLines(t *testing.T) [3]string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(agentstest.MustRead(t, filepath.Join(agentstest.Testdata, "accounting", "codex-0.171.0-token-counts.jsonl")))), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d token_count lines, want 3", len(lines))
	}
	return [3]string{lines[0], lines[1], lines[2]}
}

// codexMeta is a session_meta line of the shape Codex 0.171.0 writes (the
// recorded one is 22 KB of instructions), for thread id; forkedFrom adds
// the forked_from_id a forked session's first session_meta carries.
func codexMeta(id, forkedFrom string) string {
	extra := ""
	if forkedFrom != "" {
		extra = `,"forked_from_id":"` + forkedFrom + `"`
	}
	return `{"timestamp":"2026-11-29T19:31:24.376Z","ordinal":0,"type":"session_meta","payload":{"session_id":"` + id +
		`","id":"` + id + `","cwd":"/w","originator":"codex_exec","cli_version":"0.171.0","source":"exec"` + extra + `}}`
}

// withoutKey removes one key of a token_count's info.
func withoutKey(t *testing.T, line, key string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	delete(m["payload"].(map[string]any)["info"].(map[string]any), key)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// restamped is a line with a new timestamp, as a fork's copy is written.
func restamped(line string) string {
	i := strings.Index(line, `"timestamp":"`) + len(`"timestamp":"`)
	return line[:i] + "2026-11-30T08:00:00.000Z" + line[i+len("2026-11-29T19:31:24.562Z"):]
}

// codexCall is one counted call: input (with cached), cached, output, and
// whether it was flagged as after a counter reset.
type codexCall struct {
	in, cached, out int64
	reset           bool
}

func codexCalls(t *testing.T, lines []string) ([]codexCall, []string) {
	t.Helper()
	evs, _ := agentstest.ParseBytes(t, []byte(strings.Join(lines, "\n")+"\n"), agents.Options{Agent: agents.CodexHistory})
	var calls []codexCall
	var keys []string
	for _, ev := range evs {
		u := ev.Update
		if u.SessionUpdate != event.Usage || u.Scope != event.ScopeCall {
			continue
		}
		reset, _ := ev.Extra["tokenCounterReset"].(bool)
		calls = append(calls, codexCall{*u.PromptTokens, *u.CachedTokens, *u.CompletionTokens, reset})
		k, _ := ev.Extra["callKey"].(string)
		keys = append(keys, k)
	}
	return calls, keys
}

// ccusageCodexInput is what @ccusage/codex 18.0.11 counts of the same
// lines: every token_count's last_token_usage (its loadTokenUsageEvents),
// so that a repeat counts again. Used to show both numbers where sift
// deliberately differs.
func ccusageCodexInput(t *testing.T, lines []string) int64 {
	t.Helper()
	var sum int64
	for _, l := range lines {
		var m struct {
			Payload struct {
				Type string `json:"type"`
				Info *struct {
					Last *struct {
						Input int64 `json:"input_tokens"`
					} `json:"last_token_usage"`
				} `json:"info"`
			} `json:"payload"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && m.Payload.Type == "token_count" && m.Payload.Info != nil && m.Payload.Info.Last != nil {
			sum += m.Payload.Info.Last.Input
		}
	}
	return sum
}

// TestCodexTokenAccounting pins the rules of a rollout's token accounting
// (tokens.go) on the token_count lines Codex 0.171.0 recorded, and
// the shapes other builds write (no total, no last call).
func TestCodexTokenAccounting(t *testing.T) {
	t.Parallel()
	a, b, c := func() (string, string, string) { l := codexCountLines(t); return l[0], l[1], l[2] }()
	meta := codexMeta("01a228ca-6c23-7b71-9824-63b909c09da0", "")
	three := []codexCall{{1200, 0, 40, false}, {1500, 1000, 30, false}, {1800, 1200, 50, false}}
	tests := []struct {
		name  string
		lines []string
		want  []codexCall
		// ccusage is @ccusage/codex's input total of the same lines,
		// where it differs from sift's.
		ccusage int64
	}{
		{"running totals are the truth", []string{meta, a, b, c}, three, 0},
		{"a byte-identical repeated token_count adds nothing", []string{meta, a, b, b, c, c}, three, 1200 + 1500 + 1500 + 1800 + 1800},
		{"last_token_usage only where totals are absent",
			[]string{meta, withoutKey(t, a, "total_token_usage"), withoutKey(t, b, "total_token_usage"), withoutKey(t, c, "total_token_usage")}, three, 0},
		{"totals without the last call: the change in the total",
			[]string{meta, withoutKey(t, a, "last_token_usage"), withoutKey(t, b, "last_token_usage"), withoutKey(t, c, "last_token_usage")}, three, 0},
		{"a counter reset is kept and flagged, not summed", []string{meta, a, b, restamped(a)},
			[]codexCall{{1200, 0, 40, false}, {1500, 1000, 30, false}, {1200, 0, 40, true}}, 0},
		{"a resumed run counts only its growth", []string{meta, c}, []codexCall{{1800, 1200, 50, false}}, 0},
		{"a resumed run without the last call counts its first total", []string{meta, withoutKey(t, c, "last_token_usage")},
			[]codexCall{{4500, 2200, 120, false}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := codexCalls(t, tc.lines)
			if len(got) != len(tc.want) {
				t.Fatalf("calls %+v, want %+v", got, tc.want)
			}
			var in int64
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("call %d: %+v, want %+v", i, got[i], tc.want[i])
				}
				in += got[i].in
			}
			if tc.ccusage != 0 {
				if cc := ccusageCodexInput(t, tc.lines); cc != tc.ccusage || cc == in {
					t.Errorf("ccusage counts %d input tokens (want %d, unlike sift's %d)", cc, tc.ccusage, in)
				}
				t.Logf("input tokens: sift %d, @ccusage/codex 18.0.11 %d", in, tc.ccusage)
			}
		})
	}
}

// TestCodexForkNamesCopiedCalls pins how a forked rollout's copy of its
// parent's history is recognised: the fork's first session_meta (with
// forked_from_id) is followed by its parent's, then the parent's lines
// re-stamped with the fork's time. Each call is named by the thread of
// the last session_meta and its running total, so the copies carry the
// parent's names (ingest counts a name once) and the fork's own call a
// new one.
func TestCodexForkNamesCopiedCalls(t *testing.T) {
	t.Parallel()
	l := codexCountLines(t)
	parent := "01a228ca-6c23-7b71-9824-63b909c09da0"
	_, parentKeys := codexCalls(t, []string{codexMeta(parent, ""), l[0], l[1]})
	forkLines := []string{codexMeta("01a228ff-0000-7000-8000-000000000001", parent), restamped(codexMeta(parent, "")),
		restamped(l[0]), restamped(l[1]), l[2]}
	calls, forkKeys := codexCalls(t, forkLines)
	if len(forkKeys) != 3 || forkKeys[0] != parentKeys[0] || forkKeys[1] != parentKeys[1] {
		t.Fatalf("fork keys %q, parent keys %q: the copied calls must keep their names", forkKeys, parentKeys)
	}
	if forkKeys[2] == "" || forkKeys[2] == parentKeys[1] || calls[2] != (codexCall{1800, 1200, 50, false}) {
		t.Fatalf("the fork's own call: %q %+v", forkKeys[2], calls[2])
	}
	evs, _ := agentstest.ParseBytes(t, []byte(strings.Join(forkLines, "\n")), agents.Options{Agent: agents.CodexHistory})
	if evs[0].SessionID != "01a228ff-0000-7000-8000-000000000001" {
		t.Fatalf("the fork's session is %q: a copied session_meta must not rename it", evs[0].SessionID)
	}
	// Two unrelated sessions with equal totals are not one call.
	_, other := codexCalls(t, []string{codexMeta("01a228ca-ffff-7b71-9824-63b909c09da0", ""), l[0]})
	if other[0] == parentKeys[0] {
		t.Fatal("calls of different threads share a name")
	}
	if !bytes.Contains([]byte(forkKeys[0]), []byte(parent)) {
		t.Fatalf("key %q does not name the thread", forkKeys[0])
	}
}

// TestCodexCounterRestarts pins the two readings of a running total that
// goes down. Codex 0.153.4 restarts total_token_usage when a session is
// resumed (its own rollout, testdata/accounting): the new total equals
// the resumed call's last_token_usage, so the call is counted and the sum
// of the calls is the thread's true total, as its token_usage_record
// states it (thread_token_usage: 31,923 input, 27,648 cached, 31 output).
// A drop nothing explains (the recorded 0.171.0 lines with the last one's
// last_token_usage removed) marks the session's total unknown.
func TestCodexCounterRestarts(t *testing.T) {
	t.Parallel()
	resumed := strings.Split(strings.TrimSpace(string(agentstest.MustRead(t, filepath.Join(agentstest.Testdata, "accounting", "codex-0.153.4-resume-token-counts.jsonl")))), "\n")
	calls, _ := codexCalls(t, resumed)
	want := []codexCall{{15544, 12288, 25, false}, {16379, 15360, 6, true}}
	if len(calls) != 2 || calls[0] != want[0] || calls[1] != want[1] {
		t.Fatalf("resumed 0.153.4: calls %+v, want %+v", calls, want)
	}
	if in, cached, out := calls[0].in+calls[1].in, calls[0].cached+calls[1].cached, calls[0].out+calls[1].out; in != 31923 || cached != 27648 || out != 31 {
		t.Errorf("resumed 0.153.4: calls add up to in %d, cached %d, out %d; the thread's total is 31923, 27648, 31", in, cached, out)
	}
	a, b := func() (string, string) { l := codexCountLines(t); return l[0], l[1] }()
	meta := codexMeta("01a228ca-6c23-7b71-9824-63b909c09da0", "")
	for _, tc := range []struct {
		name    string
		lines   []string
		unknown bool
	}{
		{"0.153.4's restart at a resume", resumed, false},
		{"a restart to the call's own usage", []string{meta, a, b, restamped(a)}, false},
		{"a drop without the call's own usage", []string{meta, a, b, restamped(withoutKey(t, a, "last_token_usage"))}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs, _ := agentstest.ParseBytes(t, []byte(strings.Join(tc.lines, "\n")+"\n"), agents.Options{Agent: agents.CodexHistory})
			unknown := false
			for _, ev := range evs {
				if u, _ := ev.Extra["tokenTotalUnknown"].(bool); u {
					unknown = true
				}
			}
			if unknown != tc.unknown {
				t.Errorf("tokenTotalUnknown %v, want %v", unknown, tc.unknown)
			}
		})
	}
}
