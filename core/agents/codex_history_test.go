package agents

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// builtDir holds history lines built after the CLIs' sources (see its
// README); real recordings, when present, are in historyDir.
const builtDir = "testdata/history-built"

// historyFiles lists the files of one history format: the built ones and
// any real recording.
func historyFiles(t testing.TB, agent string) []string {
	t.Helper()
	var out []string
	for _, dir := range []string{builtDir, historyDir} {
		for _, pat := range []string{"*.jsonl", "*.json"} {
			m, _ := filepath.Glob(filepath.Join(dir, agent, pat))
			out = append(out, m...)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s history files", agent)
	}
	return out
}

// checkHistoryFile sniffs and parses a history file, checks that no line
// is raw or lost, and compares the events with their golden.
func checkHistoryFile(t *testing.T, f string, want Kind) []*event.Event {
	t.Helper()
	evs, st := parseAll(t, f, Options{})
	if Kind(st.Agent) != want {
		t.Fatalf("sniffed %s, want %s", st.Agent, want)
	}
	assertEveryLine(t, f, mustRead(t, f), evs, st)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.Raw {
			t.Errorf("line %d kept as raw: %.120s", ev.Line, ev.Update.Text)
		}
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	compareGolden(t, filepath.Join("testdata", "events", "history", string(want.Harness()),
		strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))+".jsonl"), buf.Bytes())
	return evs
}

// usageSum adds the per-call usage of events.
func usageSum(evs []*event.Event) (calls int, prompt, cached, output int64) {
	for _, ev := range evs {
		u := ev.Update
		if u.SessionUpdate != event.Usage || u.Scope != event.ScopeCall {
			continue
		}
		calls++
		if u.PromptTokens != nil {
			prompt += *u.PromptTokens
		}
		if u.CachedTokens != nil {
			cached += *u.CachedTokens
		}
		if u.CompletionTokens != nil {
			output += *u.CompletionTokens
		}
	}
	return
}

func TestCodexHistoryFiles(t *testing.T) {
	for _, f := range historyFiles(t, "codex") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs := checkHistoryFile(t, f, CodexHistory)
			if len(evs) == 0 || evs[0].Update.SessionUpdate != event.SessionStart || evs[0].Update.Cwd == "" {
				t.Fatalf("first event is not a session start with a cwd: %+v", evs[0])
			}
		})
	}
}

// TestCodexHistoryUsage pins the token accounting of a rollout: one call
// per token_count, the last call's counts, and a token_count repeated with
// only new rate limits (the same running total) not counted again. The
// sum equals the last running total.
func TestCodexHistoryUsage(t *testing.T) {
	f := filepath.Join(builtDir, "codex", "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl")
	evs, _ := parseAll(t, f, Options{Agent: CodexHistory})
	calls, prompt, cached, output := usageSum(evs)
	if calls != 4 || prompt != 9120+9480+9650+9800 || cached != 0+9088+9344+9600 || output != 180+96+40+52 {
		t.Fatalf("calls %d, prompt %d, cached %d, output %d", calls, prompt, cached, output)
	}
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.Usage && ev.Model != "gpt-5-codex" {
			t.Fatalf("usage without the turn's model: %q", ev.Model)
		}
	}
}

// TestCodexHistoryToolResults pins both shapes of a shell result: the
// older JSON string with metadata.exit_code and the newer "Exit code: N"
// text.
func TestCodexHistoryToolResults(t *testing.T) {
	f := filepath.Join(builtDir, "codex", "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl")
	evs, _ := parseAll(t, f, Options{Agent: CodexHistory})
	got := map[string]string{}
	for _, ev := range evs {
		u := ev.Update
		if u.SessionUpdate != event.ToolCallUpdate {
			continue
		}
		code := "none"
		if u.ExitCode != nil {
			code = string(rune('0' + *u.ExitCode))
		}
		got[u.ToolCallID] = string(u.Status) + "/" + code
	}
	want := map[string]string{"call_A1": "failed/1", "call_A2": "completed/0", "call_A3": "completed/0"}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %s, want %s", id, got[id], w)
		}
	}
}

// TestCodexHistoryNotClaimedByStream checks that the stdout parsers do not
// take rollout lines, nor the rollout parser stdout lines.
func TestCodexHistoryNotClaimedByStream(t *testing.T) {
	reg := Default()
	line := []byte(`{"timestamp":"2026-03-02T10:00:04.310Z","type":"event_msg","payload":{"type":"token_count","info":null}}`)
	if k := reg.Sniff([][]byte{line}); k != CodexHistory {
		t.Fatalf("rollout line sniffed as %s", k)
	}
	for _, l := range []string{`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`, `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"hi"}}`} {
		if (codexHistoryParser{}).Claims([]byte(l)) {
			t.Errorf("rollout parser claims %s", l)
		}
	}
}

func FuzzParseCodexHistory(f *testing.F) {
	addFileSeeds(f, false, historyFiles(f, "codex")...)
	fuzzEveryLine(f, CodexHistory)
}
