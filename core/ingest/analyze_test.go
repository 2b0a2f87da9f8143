package ingest

import (
	"strings"
	"testing"

	"github.com/agentsift/sift/core/summary"
)

// orphanParentStream is a subagent's line whose parent call has no turn.
const orphanParentStream = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_X","content":"ok"}]},"session_id":"s1"}
{"type":"assistant","message":{"id":"msg_1","model":"claude-x","role":"assistant","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":"toolu_X","session_id":"s1"}
`

// TestAnalyzeReportsAFaultAsOneLine: a fault met while summarizing (here a
// panicking callback, standing in for a bug a stream finds) is returned as
// one error line, never a crash of the caller.
func TestAnalyzeReportsAFaultAsOneLine(t *testing.T) {
	t.Parallel()
	opt := summary.Options{WantReviewEvents: func(*summary.Summary) bool { panic("boom\nsecond line") }}
	sum, rev, err := Analyze(strings.NewReader(orphanParentStream), opt)
	if err == nil || sum != nil || rev != nil {
		t.Fatalf("summary %v, review %v, err %v", sum, rev, err)
	}
	if got := err.Error(); got != "summarize: internal error after line 2: boom second line" {
		t.Errorf("error %q", got)
	}
}

// TestPiReplyCutShortIsNotCompleted: pi records why a reply ended
// (stopReason); a session whose last reply stopped at the length limit
// did not end its turn, so it is not completed. The stop reason must ride
// on the reply when it is emitted (pi_history.go once set it after).
func TestPiReplyCutShortIsNotCompleted(t *testing.T) {
	t.Parallel()
	const session = `{"type":"session","version":3,"id":"01a24763-db29-7324-bb23-1cde9552e0f5","timestamp":"2026-12-05T18:07:36.235Z","cwd":"/tmp/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-12-05T18:07:36.300Z","message":{"role":"user","content":[{"type":"text","text":"write it all"}],"timestamp":1796494056300}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-12-05T18:07:37.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Here is the first half"}],"api":"openai-completions","provider":"mock","model":"mock-model","usage":{"input":10,"output":4,"cacheRead":0,"cacheWrite":0,"totalTokens":14},"stopReason":"%s","timestamp":1796494057000}}
`
	for stop, want := range map[string]summary.Outcome{"stop": summary.OutcomeCompleted, "length": summary.OutcomeUnknown} {
		sum, _, err := Analyze(strings.NewReader(strings.Replace(session, "%s", stop, 1)), summary.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sum.AgentKind != "pi-history" || sum.Outcome != want {
			t.Errorf("stopReason %s: %s session, outcome %s; want pi-history, %s", stop, sum.AgentKind, sum.Outcome, want)
		}
	}
}
