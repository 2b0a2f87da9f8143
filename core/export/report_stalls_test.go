package export

import (
	"strings"
	"testing"

	"github.com/agentsift/sift/core/summary"
)

// TestReportStallsAreOneRule: a summary stored before the notes lists a
// 5-minute tool wait (tool time, not flagged) and one flagged model
// stall; the report's stall finding counts and lists the stall only, as
// the inbox's column (StallCount) and the flag do.
func TestReportStallsAreOneRule(t *testing.T) {
	t.Parallel()
	s := &summary.Summary{
		Flags: []summary.Flag{summary.FlagStall},
		Stalls: []summary.Stall{
			{GapMs: 300_000, Kind: summary.StallTool, TurnID: "t1", Line: 4},
			{GapMs: 400_000, Kind: summary.StallLLM, TurnID: "t2", Line: 9, Flagged: true},
		},
	}
	for _, f := range FlagFindings(s) {
		if f.Flag != summary.FlagStall {
			continue
		}
		if !strings.HasPrefix(f.Sentence, "1 stall,") || len(f.Evidence) != 1 || !strings.Contains(f.Evidence[0], "t2") {
			t.Fatalf("stall finding %+v: want the one flagged stall", f)
		}
		return
	}
	t.Fatal("no stall finding")
}
