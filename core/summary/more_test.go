package summary

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

func TestSubagentWorkStaysInItsParentTurn(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(at(0), text("delegating")).MessageID = "m1"
	s.same(call("task1", "Task", `{"description":"find files"}`))
	sub := func(ev *event.Event, msg string) {
		ev.ParentToolCallID, ev.MessageID = "task1", msg
	}
	sub(s.add(at(1), user("find the python files")), "")
	sub(s.add(at(2), text("looking")), "sub1")
	sub(s.same(callUsage(500, 5)), "sub1")
	sub(s.same(call("g1", "Glob", `{"pattern":"**/*.py"}`)), "sub1")
	sub(s.add(at(3), done("g1", "a.py")), "")
	sub(s.add(at(4), text("found a.py")), "sub2")
	s.add(at(5), done("task1", "a.py"))
	s.add(at(6), text("There is one file.")).MessageID = "m2"
	sum, rev := s.summarize(t, Options{})
	if len(sum.Turns) != 2 {
		t.Fatalf("turns = %d, want 2: subagent responses are not turns of the session", len(sum.Turns))
	}
	if ids := sum.Turns[0].ToolCallIDs; len(ids) != 2 || ids[1] != "g1" {
		t.Errorf("t1 calls = %v, want the subagent's call inside it", ids)
	}
	if sum.ToolCalls[1].ParentToolCallID != "task1" || sum.ToolCalls[1].TurnID != "t1" {
		t.Errorf("subagent call: %+v", sum.ToolCalls[1])
	}
	i64(t, "t1.inputTokens", sum.Turns[0].InputTokens, 500)
	if m := sum.FinalAssistantMessage; m == nil || *m != "There is one file." {
		t.Errorf("final = %v", m)
	}
	for _, r := range rev {
		if r.Type == ReviewPrompt {
			t.Errorf("the subagent's prompt became a session prompt: %+v", r)
		}
	}
}

func TestSeveralResultLines(t *testing.T) {
	t.Parallel()
	var s stream
	for i, d := range []int64{1000, 2500} {
		s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
		s.add(time.Time{}, text("run"))
		r := result(d, false)
		r.NumTurns = event.Int(i + 2)
		s.add(time.Time{}, r)
	}
	sum, _ := s.summarize(t, Options{})
	i64(t, "totalDurationMs", sum.TotalDurationMs, 3500)
	if sum.NumTurns == nil || *sum.NumTurns != 5 {
		t.Errorf("numTurns = %v, want 2+3", sum.NumTurns)
	}
	if len(sum.Turns) != 2 {
		t.Errorf("turns = %d, want one per run", len(sum.Turns))
	}
}

func TestToolIDReusedAfterItEnds(t *testing.T) {
	t.Parallel()
	// Codex numbers items item_0, item_1, … afresh in every invocation.
	var s stream
	s.add(at(0), call("item_0", "command_execution", `{"command":"ls"}`))
	s.add(at(1), done("item_0", "a"))
	s.add(at(2), text("again"))
	s.add(at(3), call("item_0", "command_execution", `{"command":"pwd"}`))
	s.add(at(5), done("item_0", "/"))
	sum, _ := s.summarize(t, Options{})
	if sum.ToolCallCount != 2 || sum.ToolCalls[1].InputSummary != "pwd" {
		t.Fatalf("calls = %+v", sum.ToolCalls)
	}
	i64(t, "second.durationMs", sum.ToolCalls[1].DurationMs, 2000)
	i64(t, "executingMs", sum.ExecutingMs, 3000)
}

func TestHarnessToolTimesWin(t *testing.T) {
	t.Parallel()
	// opencode prints one line per finished call, with the call's own
	// start and end inside it.
	var s stream
	u := call("c1", "bash", `{"command":"make"}`)
	u.Status = event.StatusCompleted
	u.StartedAt, u.EndedAt = at(10), at(14)
	s.add(at(15), u)
	s.add(at(16), text("built"))
	sum, _ := s.summarize(t, Options{})
	c := sum.ToolCalls[0]
	if c.StartedAt == nil || !c.StartedAt.Equal(at(10)) || c.EndedAt == nil || !c.EndedAt.Equal(at(14)) {
		t.Errorf("call times %v–%v, want the harness's 10 s–14 s", c.StartedAt, c.EndedAt)
	}
	i64(t, "durationMs", c.DurationMs, 4000)
	if c.Success == nil || !*c.Success {
		t.Errorf("success = %v", c.Success)
	}
}

func TestStreamClockCarriesForward(t *testing.T) {
	t.Parallel()
	// Claude 2.1.226: times on assistant and user lines, none on the
	// init or result lines.
	var s stream
	s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
	s.add(at(2), text("hi"))
	s.add(at(50), text("later"))
	s.add(time.Time{}, result(60_000, false))
	sum, _ := s.summarize(t, Options{})
	if sum.StartedAt == nil || !sum.StartedAt.Equal(at(2)) || !sum.EndedAt.Equal(at(50)) {
		t.Errorf("window %v–%v", sum.StartedAt, sum.EndedAt)
	}
	if len(sum.Stalls) != 1 || sum.Stalls[0].GapMs != 48_000 || sum.Stalls[0].Kind != StallLLM {
		t.Errorf("stalls = %+v", sum.Stalls)
	}
	i64(t, "totalDurationMs", sum.TotalDurationMs, 60_000)
	// With a window, the untimed init line is projected into it.
	sum, _ = s.summarize(t, Options{Start: t0, End: at(60)})
	i64(t, "timeToFirstTokenMs", sum.TimeToFirstTokenMs, 2000)
}

func TestApprovalThenApproved(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(at(0), call("a", "Bash", `{"command":"rm -rf build"}`))
	ask := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: "a", Status: event.StatusPending, ApprovalRequired: true}
	s.add(at(1), ask)
	s.add(at(9), done("a", ""))
	sum, rev := s.summarize(t, Options{})
	c := sum.ToolCalls[0]
	if !c.ApprovalRequired || c.Success == nil || !*c.Success {
		t.Errorf("approved call: approval %v success %v", c.ApprovalRequired, c.Success)
	}
	if len(rev) != 4 || rev[2].Type != ReviewApprovalRequired || rev[3].Type != ReviewToolCallCompleted {
		t.Errorf("review events = %+v", rev)
	}
	if !hasFlag(sum.Flags, FlagApproval) || hasFlag(sum.Flags, FlagToolFailed) {
		t.Errorf("flags = %v", sum.Flags)
	}
}

func TestProjectedStallsSurvivePruning(t *testing.T) {
	t.Parallel()
	// 300 events on consecutive lines, then three far apart, over 1000
	// lines and 1000 s: of the 302 projected gaps (more than the builder
	// keeps while reading, so it prunes) only the long ones are stalls.
	var evs []*event.Event
	for _, line := range append(seq(1, 300), 700, 800, 1000) {
		evs = append(evs, &event.Event{Line: line, Update: text("x")})
	}
	st := event.Stats{Agent: string(agents.Claude), EndsWithResult: true, Lines: 1000, Bytes: 100_000}
	b := NewBuilder(Options{Start: t0, End: at(1000), StallThreshold: 10 * time.Second})
	for _, ev := range evs {
		b.Add(ev)
	}
	if len(b.projected) >= 302 {
		t.Fatalf("kept %d candidates: pruning never ran", len(b.projected))
	}
	sum, _ := b.Finish(st)
	var got []int64
	for _, s := range sum.Stalls {
		got = append(got, s.GapMs)
	}
	if len(got) != 3 || got[0] != 400_000 || got[1] != 100_000 || got[2] != 200_000 {
		t.Errorf("stalls = %v, want [400000 100000 200000]", got)
	}
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

func TestDeclaredModelPricesCodex(t *testing.T) {
	t.Parallel()
	path := filepath.Join(streamsDir, "codex", "evolve-run1-reasoning-file-change.jsonl")
	s, _, err := AnalyzeFile(path, Options{Agent: string(agents.Codex)})
	if err != nil {
		t.Fatal(err)
	}
	if s.Model != "" || s.CostSource != CostUnknown {
		t.Fatalf("codex names no model: model %q cost %s", s.Model, s.CostSource)
	}
	s, _, err = AnalyzeFile(path, Options{Agent: string(agents.Codex), Model: "gpt-5-codex"})
	if err != nil {
		t.Fatal(err)
	}
	// 22438 in (11008 cached), 101 out at 1.25 / 0.125 / 10 per million.
	want := (float64(22438-11008)*1.25 + 11008*0.125 + 101*10) / 1e6
	if s.Model != "gpt-5-codex" || s.CostSource != CostEstimate || s.EstimatedUSD == nil || *s.EstimatedUSD != want {
		t.Errorf("model %q cost %v (%s), want %v", s.Model, s.EstimatedUSD, s.CostSource, want)
	}
}

func TestDenialListedOnTheResultLine(t *testing.T) {
	t.Parallel()
	// Claude reports a denied call first as a failed tool result, and
	// names it a permission denial only on the result line.
	var s stream
	s.add(time.Time{}, text("writing")).MessageID = "m1"
	s.same(call("w", "Write", `{"file_path":"a.txt"}`))
	s.add(time.Time{}, failed("w", "Claude requested permissions to write to a.txt"))
	s.add(time.Time{}, text("I could not write it.")).MessageID = "m2"
	den := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: "w", Status: event.StatusFailed,
		ApprovalRequired: true, Message: "permission denied"}
	s.add(time.Time{}, den)
	s.same(result(100, false))
	sum, rev := s.summarize(t, Options{})
	if got := sum.Turns[0].Flags; len(got) != 1 || got[0] != FlagApproval {
		t.Errorf("t1 flags = %v, want [approval_required] only", got)
	}
	if sum.ErrorCount != 0 || sum.ApprovalCount != 1 || hasFlag(sum.Flags, FlagToolFailed) {
		t.Errorf("errors %d approvals %d flags %v", sum.ErrorCount, sum.ApprovalCount, sum.Flags)
	}
	for _, r := range rev {
		if r.Type == ReviewToolCallFailed {
			t.Errorf("a denial also reported as a failure: %+v", r)
		}
	}
	if e := sum.ToolCalls[0].Error; e == nil || *e != "Claude requested permissions to write to a.txt" {
		t.Errorf("error text = %v", e)
	}
}

func TestResultWithoutVerdictAndLaterText(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, text("first run"))
	s.add(time.Time{}, event.Update{SessionUpdate: event.Result, Text: "first answer"})
	sum, _ := s.summarize(t, Options{})
	if sum.Outcome != OutcomeCompleted || *sum.FinalAssistantMessage != "first answer" {
		t.Errorf("status %s final %q", sum.Outcome, *sum.FinalAssistantMessage)
	}
	s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
	s.add(time.Time{}, text("second run, cut short"))
	sum, _ = s.summarize(t, Options{})
	if *sum.FinalAssistantMessage != "second run, cut short" {
		t.Errorf("final %q, want the later run's text", *sum.FinalAssistantMessage)
	}
}

func TestZeroUsageTurnNeedsNoPrice(t *testing.T) {
	t.Parallel()
	var s stream
	e := s.add(time.Time{}, text("API Error: overloaded"))
	e.MessageID, e.Model = "m0", "<synthetic>"
	s.same(callUsage(0, 0))
	e = s.add(time.Time{}, text("retried"))
	e.MessageID, e.Model = "m1", "claude-haiku-4-5"
	s.same(callUsage(1_000_000, 0))
	sum, _ := s.summarize(t, Options{})
	if sum.CostSource != CostEstimate || sum.EstimatedUSD == nil || *sum.EstimatedUSD != 1 {
		t.Errorf("cost %v (%s), want 1 (estimate)", sum.EstimatedUSD, sum.CostSource)
	}
}

// TestLongParentIDKeepsTheSubagentInItsTurn pins that a parent call id
// longer than MaxCallID (kept hashed) still finds its call: the subagent's
// work stays in the parent's turn instead of starting turns of its own.
func TestLongParentIDKeepsTheSubagentInItsTurn(t *testing.T) {
	t.Parallel()
	long := "task-" + strings.Repeat("x", MaxCallID+40)
	var s stream
	s.add(at(0), text("delegating")).MessageID = "m1"
	s.same(call(long, "Task", `{"description":"find files"}`))
	sub := s.add(at(1), text("looking"))
	sub.ParentToolCallID, sub.MessageID = long, "sub1"
	s.add(at(2), done(long, "a.py"))
	s.add(at(3), text("There is one file.")).MessageID = "m2"
	sum, _ := s.summarize(t, Options{})
	if len(sum.Turns) != 2 {
		t.Fatalf("turns = %d, want 2: a subagent response under a long parent id became a turn", len(sum.Turns))
	}
}
