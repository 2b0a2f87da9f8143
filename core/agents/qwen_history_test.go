package agents

import (
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// recordedHistories holds real recorded histories, one folder per harness
// laid out as under the user's home (PROVENANCE.md in each).
const recordedHistories = "../../testdata/histories"

// recordedFiles lists a harness's recorded session files matching a
// pattern under its folder.
func recordedFiles(t testing.TB, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(recordedHistories, pattern))
	if err != nil || len(m) == 0 {
		t.Fatalf("no recorded files %s (%v)", pattern, err)
	}
	return m
}

// TestQwenHistoryFiles sniffs Qwen Code 0.24.4's chat records as its own
// (not as Claude Code transcript lines, whose sessionId and parentUuid
// they share), reads every line, and keeps none raw.
func TestQwenHistoryFiles(t *testing.T) {
	for _, f := range recordedFiles(t, "qwen/.qwen/projects/*/chats/*.jsonl") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs, st := parseAll(t, f, Options{})
			if Kind(st.Agent) != QwenHistory {
				t.Fatalf("sniffed %s", st.Agent)
			}
			assertEveryLine(t, f, mustRead(t, f), evs, st)
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
	for _, f := range historyFiles(t, "claude") {
		if _, st := parseAll(t, f, Options{}); Kind(st.Agent) != ClaudeHistory {
			t.Errorf("%s: a Claude Code transcript sniffed as %s", filepath.Base(f), st.Agent)
		}
	}
}

func FuzzParseQwenHistory(f *testing.F) {
	addFileSeeds(f, true, recordedFiles(f, "qwen/.qwen/projects/*/chats/*.jsonl")...)
	fuzzEveryLine(f, QwenHistory)
}

// TestPiHistoryFiles sniffs pi 0.73.1's session files as its own and
// reads every line, none raw; a failed bash call carries the exit code
// pi's tool appends to its output.
func TestPiHistoryFiles(t *testing.T) {
	for _, f := range recordedFiles(t, "pi/.pi/agent/sessions/*/*.jsonl") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs, st := parseAll(t, f, Options{})
			if Kind(st.Agent) != PiHistory {
				t.Fatalf("sniffed %s", st.Agent)
			}
			assertEveryLine(t, f, mustRead(t, f), evs, st)
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
	addFileSeeds(f, true, recordedFiles(f, "pi/.pi/agent/sessions/*/*.jsonl")...)
	fuzzEveryLine(f, PiHistory)
}

// TestCopilotHistoryFiles sniffs Copilot CLI 1.0.102's event logs as its
// own and reads every line, none raw.
func TestCopilotHistoryFiles(t *testing.T) {
	for _, f := range recordedFiles(t, "copilot/.copilot/session-state/*/events.jsonl") {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			evs, st := parseAll(t, f, Options{})
			if Kind(st.Agent) != CopilotHistory {
				t.Fatalf("sniffed %s", st.Agent)
			}
			assertEveryLine(t, f, mustRead(t, f), evs, st)
			for _, ev := range evs {
				if ev.Update.SessionUpdate == event.Raw {
					t.Errorf("line %d kept raw", ev.Line)
				}
			}
		})
	}
}

func FuzzParseCopilotHistory(f *testing.F) {
	addFileSeeds(f, true, recordedFiles(f, "copilot/.copilot/session-state/*/events.jsonl")...)
	fuzzEveryLine(f, CopilotHistory)
}
