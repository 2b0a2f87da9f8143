package store

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/historydb/historydbtest"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/summary"
)

// cursorChat writes the recorded chat (testdata/histories/cursor,
// PROVENANCE.md) into a temporary HOME as cursor-agent keeps it, cut after
// its first n messages (all for n < 0): historydbtest.CursorChat.
func cursorChat(t *testing.T, home string, n int) string {
	t.Helper()
	return historydbtest.CursorChat(t, home, filepath.Join(historiesFixtures, "cursor", "store-db-sample.json"), n)
}

// TestImportCursorChat imports a cursor-agent chat from a temporary HOME:
// keyed by its agentId in its store.db, in the workspace its root names,
// the three prompts the person typed (not the <user_info> context
// cursor-agent adds), the two Shell calls with their results, the model
// of its replies, no tokens (the store records none), and completed by
// the agent's last reply. Cut after a tool call it is not completed; the
// grown chat is read again; unchanged it is skipped.
func TestImportCursorChat(t *testing.T) {
	home, _ := storedHome(t, "cursor")
	path := cursorChat(t, home, 6) // system, context, prompt, reply, prompt, tool call
	roots := homeRoots(home)
	s := newTestStore(t)
	if res := importHistory(t, s, roots); res.Sessions != 1 {
		t.Fatalf("imported %d sessions, want 1 (%+v)", res.Sessions, res)
	}
	const id = "782a8d20-bbae-4776-9cda-17cce05b3b92"
	sess, key := storedSession(t, s, agents.CursorHistory)
	if sum := sess.Summary; sum.Outcome == summary.OutcomeCompleted || sum.ToolCallCount != 1 {
		t.Errorf("cut after a tool call: outcome %s, %d tool calls", sum.Outcome, sum.ToolCallCount)
	}
	if again := importHistory(t, s, roots); again.Skipped != 1 || again.Sessions != 0 {
		t.Errorf("unchanged: skipped %d, read %d", again.Skipped, again.Sessions)
	}

	cursorChat(t, home, -1)
	if again := importHistory(t, s, roots); again.Sessions != 1 {
		t.Fatalf("grown chat: read %d, want 1 (%+v)", again.Sessions, again)
	}
	sess, key = storedSession(t, s, agents.CursorHistory)
	sum := sess.Summary
	if key != path+"#"+id || sum.WorkItemID != ingest.ProjectID("/private/tmp") {
		t.Errorf("indexed as %q in %s, want the chat's store.db and its workspace", key, sum.WorkItemID)
	}
	if sum.ToolCallCount != 2 {
		t.Fatalf("%d tool calls, want 2", sum.ToolCallCount)
	}
	for _, c := range sum.ToolCalls {
		if c.Success == nil || !*c.Success {
			t.Errorf("%s: success %v", c.Name, c.Success)
		}
	}
	if sum.Model != "cursor-grok-4.5-high" {
		t.Errorf("model %q", sum.Model)
	}
	// The store keeps one time per chat, its creation: no gap between
	// its events is a stall.
	if len(sum.Stalls) != 0 {
		t.Errorf("%d stalls in a chat with one recorded time", len(sum.Stalls))
	}
	if sum.InputTokens != nil || sum.OutputTokens != nil {
		t.Errorf("tokens in %v out %v, but the store records none", sum.InputTokens, sum.OutputTokens)
	}
	if sum.CostBasis != "tokens not recorded by cursor" || sum.EstimatedUSD != nil {
		t.Errorf("cost %v, basis %q: want unknown, saying Cursor records no tokens", sum.EstimatedUSD, sum.CostBasis)
	}
	if sum.Outcome != summary.OutcomeCompleted || !strings.Contains(sum.OutcomeEvidence.Sentence, "reply") || !strings.Contains(deref(sum.FinalAssistantMessage), "hub-probe") {
		t.Errorf("outcome %s (%s), last reply %q", sum.Outcome, sum.OutcomeEvidence.Sentence, deref(sum.FinalAssistantMessage))
	}

	// The detail renders the chat again by its key: the prompts as typed,
	// the second call's output, and not the meta row's secret.
	lines, ok, err := agents.RenderStored(key)
	if err != nil || !ok {
		t.Fatalf("render: ok %v, %v", ok, err)
	}
	if strings.Contains(string(lines), "a-secret-the-render-drops") {
		t.Error("the render carries the meta row's blobEncryptionKey")
	}
	d := storedDetail(t, rootDirs(roots), key, agents.CursorHistory)
	var prompts []string
	for _, p := range d.Conv.Prompts.Lines {
		prompts = append(prompts, p.Text)
	}
	if len(prompts) != 3 || prompts[0] != "只回复两个字：收到" {
		t.Errorf("prompts %q, want the three typed ones", prompts)
	}
	const second = "call-255a20e4-57d4-48ca-8114-29d46c222ff2-1\nfc_07de2c7c-5611-996e-ae72-00da76f91161_0"
	if c := d.Calls[second]; c == nil || !strings.Contains(c.Output.String(), "hub-probe") {
		t.Errorf("the detail of the second Shell call lacks its output")
	}
}
