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
