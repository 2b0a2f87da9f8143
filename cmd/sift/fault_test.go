package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/summary"
)

// orphanParentStream is the two-line claude stream of issue 12 #5 that
// crashed the summarizer: a tool result for a call the stream never
// started, then an assistant line whose parent_tool_use_id is that call.
const orphanParentStream = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_X","content":"ok"}]},"session_id":"s1"}
{"type":"assistant","message":{"id":"msg_1","model":"claude-x","role":"assistant","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":"toolu_X","session_id":"s1"}
`

func TestSummaryCommandOrphanParent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "orphan.jsonl")
	if err := os.WriteFile(path, []byte(orphanParentStream), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runSift(t, "summary", "--json", path)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var s summary.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.AgentKind != "claude" || s.LineCount != 2 || s.ToolCallCount != 1 {
		t.Errorf("summary %+v", s)
	}
}

// TestRunCommandExitsWithTheAgentsCodeWhateverItPrints: a stream that once
// crashed the summarizer still ends `sift run` with the agent's status, and
// its session is recorded.
func TestRunCommandExitsWithTheAgentsCodeWhateverItPrints(t *testing.T) {
	t.Parallel()
	e := newRunEnv(t, "")
	stream := filepath.Join(e.dir, "orphan.jsonl")
	if err := os.WriteFile(stream, []byte(orphanParentStream), 0o600); err != nil {
		t.Fatal(err)
	}
	agent := fakeAgent(t, e.dir, "claude", "cat "+stream+"\n")
	code, stdout, stderr := e.run(t, "--agent", "claude", "--bin", agent, "--work-item", "wi-orphan")
	if code != 0 {
		t.Fatalf("exit %d, want the agent's 0; stderr:\n%s", code, stderr)
	}
	if stdout != orphanParentStream || strings.Contains(stderr, "warning") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	code, out, errs := runSift(t, "list", "--json", "--db", e.db, "--config", e.config)
	var sums []summary.Summary
	if err := json.Unmarshal([]byte(out), &sums); code != 0 || err != nil {
		t.Fatalf("list: exit %d, %v, %s", code, err, errs)
	}
	if len(sums) != 1 || sums[0].WorkItemID != "wi-orphan" || sums[0].ToolCallCount != 1 {
		t.Errorf("stored sessions %+v", sums)
	}
}
