package codex

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

func TestCodexHistoryFiles(t *testing.T) {
	for _, f := range agentstest.HistoryFiles(t, "codex") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs := agentstest.CheckHistoryFile(t, f, agents.CodexHistory)
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
	f := filepath.Join(agentstest.BuiltDir, "codex", "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl")
	evs, _ := agentstest.ParseAll(t, f, agents.Options{Agent: agents.CodexHistory})
	calls, prompt, cached, output := agentstest.UsageSum(evs)
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
	f := filepath.Join(agentstest.BuiltDir, "codex", "rollout-2026-03-02T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl")
	evs, _ := agentstest.ParseAll(t, f, agents.Options{Agent: agents.CodexHistory})
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
	reg := agents.Default()
	line := []byte(`{"timestamp":"2026-03-02T10:00:04.310Z","type":"event_msg","payload":{"type":"token_count","info":null}}`)
	if k := reg.Sniff([][]byte{line}); k != agents.CodexHistory {
		t.Fatalf("rollout line sniffed as %s", k)
	}
	for _, l := range []string{`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`, `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"hi"}}`} {
		if (codexHistoryParser{}).Claims([]byte(l)) {
			t.Errorf("rollout parser claims %s", l)
		}
	}
}

func FuzzParseCodexHistory(f *testing.F) {
	agentstest.AddFileSeeds(f, false, agentstest.HistoryFiles(f, "codex")...)
	agentstest.FuzzEveryLine(f, agents.CodexHistory)
}
