package httpapi

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
)

// orphanParentStream is the two-line claude stream of issue 12 #5 that
// crashed the summarizer: a tool result for a call the stream never
// started, then an assistant line whose parent_tool_use_id is that call.
const orphanParentStream = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_X","content":"ok"}]},"session_id":"s1"}
{"type":"assistant","message":{"id":"msg_1","model":"claude-x","role":"assistant","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":"toolu_X","session_id":"s1"}
`

// TestSummaryOfAStreamThatCrashedTheSummarizer: the summary route answers
// (it reset the connection), and once imported the session is listed.
func TestSummaryOfAStreamThatCrashedTheSummarizer(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Loopback: true})
	dir := filepath.Join(e.logs, "wi-9")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "work-1-abcdef.jsonl"), []byte(orphanParentStream), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := decode[summary.Summary](t, e.get("/workitems/wi-9/agent-streams/work-1-abcdef.jsonl/summary"), 200)
	if sum.AgentKind != "claude" || sum.LineCount != 2 || sum.ToolCallCount != 1 {
		t.Errorf("summary %+v", sum)
	}
	if res, err := ingest.Import(t.Context(), e.store, []string{dir}, storeImportOptions(), nil); err != nil || len(res.Failed) > 0 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	list := decode[sessionList](t, e.get("/sessions?workItem=wi-9"), 200)
	if len(list.Sessions) != 1 || list.Sessions[0].FileName != "work-1-abcdef.jsonl" {
		t.Errorf("sessions %+v", list.Sessions)
	}
}
