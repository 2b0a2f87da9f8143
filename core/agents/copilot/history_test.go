package copilot

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// TestCopilotHistoryFiles sniffs Copilot CLI 1.0.102's event logs as its
// own and reads every line, none raw.
func TestCopilotHistoryFiles(t *testing.T) {
	for _, f := range agentstest.RecordedFiles(t, "copilot/.copilot/session-state/*/events.jsonl") {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			evs, st := agentstest.ParseAll(t, f, agents.Options{})
			if agents.Kind(st.Agent) != agents.CopilotHistory {
				t.Fatalf("sniffed %s", st.Agent)
			}
			agentstest.AssertEveryLine(t, f, agentstest.MustRead(t, f), evs, st)
			for _, ev := range evs {
				if ev.Update.SessionUpdate == event.Raw {
					t.Errorf("line %d kept raw", ev.Line)
				}
			}
		})
	}
}

func FuzzParseCopilotHistory(f *testing.F) {
	agentstest.AddFileSeeds(f, true, agentstest.RecordedFiles(f, "copilot/.copilot/session-state/*/events.jsonl")...)
	agentstest.FuzzEveryLine(f, agents.CopilotHistory)
}
