package pi

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// TestPiHistoryFiles sniffs pi 0.73.1's session files as its own and
// reads every line, none raw; a failed bash call carries the exit code
// pi's tool appends to its output.
func TestPiHistoryFiles(t *testing.T) {
	for _, f := range agentstest.RecordedFiles(t, "pi/.pi/agent/sessions/*/*.jsonl") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs, st := agentstest.ParseAll(t, f, agents.Options{})
			if agents.Kind(st.Agent) != agents.PiHistory {
				t.Fatalf("sniffed %s", st.Agent)
			}
			agentstest.AssertEveryLine(t, f, agentstest.MustRead(t, f), evs, st)
			for _, ev := range evs {
				u := ev.Update
				if u.SessionUpdate == event.Raw {
					t.Errorf("line %d kept raw", ev.Line)
				}
				if u.SessionUpdate == event.ToolCallUpdate && u.Status == event.StatusFailed &&
					(u.ExitCode == nil || *u.ExitCode != 2) {
					t.Errorf("line %d: a failed ls without its exit code 2", ev.Line)
				}
			}
		})
	}
}

func FuzzParsePiHistory(f *testing.F) {
	agentstest.AddFileSeeds(f, true, agentstest.RecordedFiles(f, "pi/.pi/agent/sessions/*/*.jsonl")...)
	agentstest.FuzzEveryLine(f, agents.PiHistory)
}
