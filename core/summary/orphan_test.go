package summary

import (
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// orphanParentStream is the two-line claude stream of issue 12 #5: a tool
// result for a call the stream never started, then an assistant line whose
// parent_tool_use_id names that call.
const orphanParentStream = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_X","content":"ok"}]},"session_id":"s1"}
{"type":"assistant","message":{"id":"msg_1","model":"claude-x","role":"assistant","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":"toolu_X","session_id":"s1"}
`

func TestSubagentOfACallWithoutTurn(t *testing.T) {
	t.Parallel()
	for _, agent := range []agents.Kind{agents.Claude, ""} {
		sum, rev, err := Analyze(strings.NewReader(orphanParentStream), Options{Agent: string(agent)})
		if err != nil {
			t.Fatalf("agent %q: %v", agent, err)
		}
		if sum.LineCount != 2 || sum.ToolCallCount != 1 || sum.ToolCalls[0].ID != "toolu_X" {
			t.Errorf("agent %q: lines %d, calls %+v", agent, sum.LineCount, sum.ToolCalls)
		}
		// The call began before any turn, so its subagent's work belongs
		// to no turn of the main agent either.
		if len(sum.Turns) != 0 || sum.ToolCalls[0].TurnID != "" {
			t.Errorf("agent %q: turns %+v, call turn %q", agent, sum.Turns, sum.ToolCalls[0].TurnID)
		}
		if len(rev) == 0 {
			t.Errorf("agent %q: no review events", agent)
		}
	}
}

// TestEventsOfTurnlessCalls drives the builder with every kind of event
// whose parent is a call that belongs to no turn: none may panic, and each
// lookup by a stream-provided id copes with a call or turn that is absent.
func TestEventsOfTurnlessCalls(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(at(0), done("orphan", "ok"))
	kinds := []event.Update{
		text("subagent text"),
		{SessionUpdate: event.AgentThoughtChunk, Content: event.Text("hmm")},
		{SessionUpdate: event.Plan},
		call("child", "Bash", `{"command":"ls"}`),
		done("child", "a.go"),
		user("subagent prompt"),
		callUsage(10, 5),
		{SessionUpdate: event.Error, Message: "boom"},
	}
	for i, u := range kinds {
		ev := s.add(at(float64(i+1)), u)
		ev.ParentToolCallID = "orphan"
		ev.MessageID = "msg_sub"
	}
	// A nested subagent: its parent is the turnless call's own child.
	s.add(at(20), text("nested")).ParentToolCallID = "child"
	s.add(at(21), text("main agent"))
	s.add(at(22), result(22000, false))
	sum, _ := s.summarize(t, Options{})
	if len(sum.Turns) != 1 || sum.FinalAssistantMessage == nil || *sum.FinalAssistantMessage != "main agent" {
		t.Errorf("turns %+v, final %v", sum.Turns, sum.FinalAssistantMessage)
	}
	if sum.ToolCallCount != 2 {
		t.Errorf("tool calls %+v", sum.ToolCalls)
	}
}
