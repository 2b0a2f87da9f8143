package qwen

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// TestQwenHistoryFiles sniffs Qwen Code 0.24.4's chat records as its own
// (not as Claude Code transcript lines, whose sessionId and parentUuid
// they share), reads every line, and keeps none raw.
func TestQwenHistoryFiles(t *testing.T) {
	for _, f := range agentstest.RecordedFiles(t, "qwen/.qwen/projects/*/chats/*.jsonl") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs, st := agentstest.ParseAll(t, f, agents.Options{})
			if agents.Kind(st.Agent) != agents.QwenHistory {
				t.Fatalf("sniffed %s", st.Agent)
			}
			agentstest.AssertEveryLine(t, f, agentstest.MustRead(t, f), evs, st)
			if evs[0].Update.SessionUpdate != event.SessionStart || evs[0].Update.Cwd == "" {
				t.Fatalf("first event %+v", evs[0])
			}
			for _, ev := range evs {
				if ev.Update.SessionUpdate == event.Raw {
					t.Errorf("line %d kept raw", ev.Line)
				}
			}
		})
	}
	for _, f := range agentstest.HistoryFiles(t, "claude") {
		if _, st := agentstest.ParseAll(t, f, agents.Options{}); agents.Kind(st.Agent) != agents.ClaudeHistory {
			t.Errorf("%s: a Claude Code transcript sniffed as %s", filepath.Base(f), st.Agent)
		}
	}
}

func FuzzParseQwenHistory(f *testing.F) {
	agentstest.AddFileSeeds(f, true, agentstest.RecordedFiles(f, "qwen/.qwen/projects/*/chats/*.jsonl")...)
	agentstest.FuzzEveryLine(f, agents.QwenHistory)
}
