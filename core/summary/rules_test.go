package summary

import (
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/event"
)

func TestParallelOverlappingToolsCountOnce(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(at(0), user("go"))
	s.add(at(1), call("a", "Bash", `{"command":"sleep 10"}`))
	s.add(at(5), call("b", "Bash", `{"command":"sleep 10"}`))
	s.add(at(11), done("a", ""))
	s.add(at(15), done("b", ""))
	s.add(at(20), call("c", "Read", `{"file_path":"x"}`))
	s.add(at(25), done("c", "x"))
	s.add(at(30), result(30_000, false))
	sum, _ := s.summarize(t, Options{})
	// [1,15] ∪ [20,25] = 14 + 5 s.
	i64(t, "executingMs", sum.ExecutingMs, 19_000)
	i64(t, "thinkingMs", sum.ThinkingMs, 11_000)
	i64(t, "totalDurationMs", sum.TotalDurationMs, 30_000)
	i64(t, "a.durationMs", sum.ToolCalls[0].DurationMs, 10_000)
	i64(t, "b.durationMs", sum.ToolCalls[1].DurationMs, 10_000)
}

func TestExplicitDurationWithoutTimestamps(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, call("a", "Bash", `{"command":"make"}`))
	u := done("a", "ok")
	u.DurationMs = event.Int64(1500)
	s.add(time.Time{}, u)
	s.add(time.Time{}, call("b", "Bash", `{"command":"make test"}`))
	u = done("b", "ok")
	u.DurationMs = event.Int64(700)
	s.add(time.Time{}, u)
	s.add(time.Time{}, result(5000, false))
	sum, _ := s.summarize(t, Options{})
	i64(t, "executingMs", sum.ExecutingMs, 2200)
	i64(t, "thinkingMs", sum.ThinkingMs, 2800)
	c := sum.ToolCalls[0]
	i64(t, "durationMs", c.DurationMs, 1500)
	if c.StartedAt != nil || c.EndedAt != nil {
		t.Errorf("explicit duration formed an interval: %v %v", c.StartedAt, c.EndedAt)
	}
}

func TestThinkingClampedAtZero(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, call("a", "Bash", ""))
	u := done("a", "")
	u.DurationMs = event.Int64(9000)
	s.add(time.Time{}, u)
	s.add(time.Time{}, result(4000, false))
	sum, _ := s.summarize(t, Options{})
	i64(t, "thinkingMs", sum.ThinkingMs, 0)
}

func TestStallAfterResultIgnored(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(at(0), text("hi"))
	s.add(at(1), result(1000, false))
	s.add(at(200), event.Update{SessionUpdate: event.Stderr, Text: "late noise"})
	s.add(at(400), event.Update{SessionUpdate: event.Raw, Text: "more"})
	sum, _ := s.summarize(t, Options{})
	if len(sum.Stalls) != 0 {
		t.Errorf("stalls after result: %+v", sum.Stalls)
	}
	// A new run in the same file is watched again.
	s.add(at(500), event.Update{SessionUpdate: event.SessionStart})
	s.add(at(600), text("back"))
	sum, _ = s.summarize(t, Options{})
	if len(sum.Stalls) != 1 || sum.Stalls[0].GapMs != 100_000 {
		t.Errorf("stall in the second run not seen: %+v", sum.Stalls)
	}
}

func TestStallClasses(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(at(0), event.Update{SessionUpdate: event.SessionStart})
	s.add(at(40), user("do it"))                        // unknown: nothing outstanding
	s.add(at(41), text("ok"))                           // t1
	s.add(at(42), call("a", "Bash", `{"command":"x"}`)) // t1
	s.add(at(100), done("a", ""))                       // tool_execution, 58 s
	s.add(at(150), text("next"))                        // llm after a tool result, 50 s: t2
	s.add(at(185), text(" more"))                       // llm after text, 35 s: t2
	s.add(at(200), result(200_000, false))
	sum, _ := s.summarize(t, Options{})
	want := []Stall{
		{StartedAt: at(0), GapMs: 40_000, Kind: StallUnknown, TurnID: "", FromLine: 1, Line: 2, Flagged: true},
		// Tool time: listed, not flagged, not counted.
		{StartedAt: at(42), GapMs: 58_000, Kind: StallTool, TurnID: "t1", FromLine: 4, Line: 5, ToolCallID: "a"},
		{StartedAt: at(100), GapMs: 50_000, Kind: StallLLM, TurnID: "t2", FromLine: 5, Line: 6, Flagged: true},
		{StartedAt: at(150), GapMs: 35_000, Kind: StallLLM, TurnID: "t2", FromLine: 6, Line: 7, Flagged: true},
	}
	if len(sum.Stalls) != len(want) {
		t.Fatalf("stalls = %+v, want %+v", sum.Stalls, want)
	}
	for i := range want {
		if sum.Stalls[i] != want[i] {
			t.Errorf("stall %d = %+v, want %+v", i, sum.Stalls[i], want[i])
		}
	}
	if hasFlag(sum.Turns[0].Flags, FlagStall) || !hasFlag(sum.Turns[1].Flags, FlagStall) || sum.StallCount != 3 {
		t.Errorf("turn flags: %+v %+v, %d stalls", sum.Turns[0].Flags, sum.Turns[1].Flags, sum.StallCount)
	}
	var notes []string
	for _, n := range sum.Turns[1].FlagNotes {
		notes = append(notes, n.String())
	}
	if want := "model silent 50 s after the tool result (lines 5–6)|model silent 35 s (lines 6–7)"; strings.Join(notes, "|") != want {
		t.Errorf("t2 notes %q, want %q", notes, want)
	}
	if n := sum.FlagNotes[0]; n.String() != "no events for 40 s (lines 1–2)" || n.TurnID != "" {
		t.Errorf("the session's own stall: %+v", n)
	}
	if !hasFlag(sum.Flags, FlagStall) || !sum.Flagged {
		t.Errorf("session flags: %v", sum.Flags)
	}
	// A higher threshold keeps only the longest.
	sum, _ = s.summarize(t, Options{StallThreshold: 55 * time.Second})
	if len(sum.Stalls) != 1 || sum.Stalls[0].Kind != StallTool {
		t.Errorf("threshold 55s: %+v", sum.Stalls)
	}
}

func TestProjectionByLine(t *testing.T) {
	t.Parallel()
	// Ten timestamp-less lines over a 100 s window: line n sits at
	// (n-1)*10 s.
	var s stream
	s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
	s.add(time.Time{}, user("go"))
	s.add(time.Time{}, text("thinking about it")) // line 3: 20 s
	s.add(time.Time{}, call("a", "Bash", `{"command":"x"}`))
	for range 4 {
		s.add(time.Time{}, event.Update{SessionUpdate: event.Raw, Text: "progress"})
	}
	s.add(time.Time{}, done("a", "")) // line 9: 80 s
	s.add(time.Time{}, text("done"))
	opt := Options{Start: t0, End: at(100), StallThreshold: 45 * time.Second}
	sum, _ := s.summarize(t, opt)
	i64(t, "totalDurationMs", sum.TotalDurationMs, 100_000)
	i64(t, "timeToFirstTokenMs", sum.TimeToFirstTokenMs, 20_000)
	i64(t, "executingMs", sum.ExecutingMs, 50_000)
	i64(t, "thinkingMs", sum.ThinkingMs, 50_000)
	if c := sum.ToolCalls[0]; c.StartedAt == nil || !c.StartedAt.Equal(at(30)) || !c.EndedAt.Equal(at(80)) {
		t.Errorf("tool interval %v–%v, want 30 s–80 s", c.StartedAt, c.EndedAt)
	}
	if sum.StartedAt == nil || !sum.StartedAt.Equal(t0) || !sum.EndedAt.Equal(at(100)) {
		t.Errorf("window %v–%v", sum.StartedAt, sum.EndedAt)
	}
	// Raw lines are 10 s apart: no stall at 45 s; at 5 s each is one.
	if len(sum.Stalls) != 0 {
		t.Errorf("stalls at 45 s: %+v", sum.Stalls)
	}
	opt.StallThreshold = 5 * time.Second
	sum, _ = s.summarize(t, opt)
	if len(sum.Stalls) != 9 {
		t.Errorf("stalls at 5 s = %d, want 9", len(sum.Stalls))
	}
}

// TestProjectionFollowsTheHarnessDuration: when the harness reports its
// own duration, shorter than the invocation's window, the events are spread
// over that duration, so the turns and stalls add up to the total shown.
func TestProjectionFollowsTheHarnessDuration(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
	s.add(time.Time{}, user("go"))
	s.add(time.Time{}, text("thinking about it"))
	s.add(time.Time{}, call("a", "Bash", `{"command":"x"}`))
	s.add(time.Time{}, done("a", ""))
	s.add(time.Time{}, text("done"))
	s.add(time.Time{}, result(10_000, false)) // 10 s, in a 1,000 s window
	opt := Options{Start: t0, End: at(1000), StallThreshold: 30 * time.Second}
	sum, _ := s.summarize(t, opt)
	i64(t, "totalDurationMs", sum.TotalDurationMs, 10_000)
	if len(sum.Stalls) != 0 {
		t.Errorf("stalls over a 10 s run: %+v", sum.Stalls)
	}
	var turns int64
	for _, tr := range sum.Turns {
		if tr.DurationMs != nil {
			turns += *tr.DurationMs
		}
	}
	if turns > *sum.TotalDurationMs {
		t.Errorf("turns add to %d ms, more than the %d ms total", turns, *sum.TotalDurationMs)
	}
	if c := sum.ToolCalls[0]; c.DurationMs == nil || *c.DurationMs > 10_000 {
		t.Errorf("tool call duration %v over a 10 s run", c.DurationMs)
	}
}

func TestProjectionByOffset(t *testing.T) {
	t.Parallel()
	var s stream
	a := s.add(time.Time{}, call("a", "Bash", `{"command":"x"}`))
	b := s.add(time.Time{}, done("a", ""))
	c := s.add(time.Time{}, text("ok"))
	// A long tool output line: the result starts at byte 100, the text
	// at byte 900, of 1000 bytes.
	a.Offset, b.Offset, c.Offset = 0, 100, 900
	st := s.stats()
	st.Bytes = 1000
	sum, _ := Events(s.evs, st, Options{Start: t0, End: at(10), Projection: ProjectByOffset})
	i64(t, "executingMs", sum.ExecutingMs, 1000)
	i64(t, "turn 2 start", ms(sum.Turns[1].StartedAt), 9000)
	// By line the same events sit at 0, 3.33 and 6.67 s.
	sum, _ = Events(s.evs, st, Options{Start: t0, End: at(10)})
	i64(t, "executingMs by line", sum.ExecutingMs, 3333)
}

// ms returns the milliseconds from t0 to a time.
func ms(p *time.Time) *int64 {
	if p == nil {
		return nil
	}
	v := p.Sub(t0).Milliseconds()
	return &v
}

func TestNoWindow(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, user("go"))
	s.add(time.Time{}, text("on it")).MessageID = "m1"
	s.same(callUsage(1000, 10))
	s.add(time.Time{}, call("a", "Bash", `{"command":"ls"}`))
	s.add(time.Time{}, done("a", "a.go"))
	sum, _ := s.summarize(t, Options{})
	null(t, "totalDurationMs", sum.TotalDurationMs)
	null(t, "timeToFirstTokenMs", sum.TimeToFirstTokenMs)
	null(t, "executingMs", sum.ExecutingMs)
	null(t, "thinkingMs", sum.ThinkingMs)
	if sum.StartedAt != nil || len(sum.Stalls) != 0 {
		t.Errorf("timing without a window: %v %v", sum.StartedAt, sum.Stalls)
	}
	i64(t, "inputTokens", sum.InputTokens, 1000)
	if sum.ToolCallCount != 1 || len(sum.Turns) != 1 || sum.ToolCalls[0].Success == nil {
		t.Errorf("counts without a window: %+v", sum)
	}
}

func TestUsageRepeatedAcrossContentBlocks(t *testing.T) {
	t.Parallel()
	var s stream
	// One message in three content blocks: each repeats its usage
	// snapshot (output 1, 1, 172); then a second message.
	for _, out := range []int64{1, 1, 172} {
		e := s.add(time.Time{}, text("block"))
		e.MessageID = "msg_A"
		s.same(callUsage(26805, out))
	}
	e := s.add(time.Time{}, text("second"))
	e.MessageID = "msg_B"
	u := callUsage(27000, 50)
	u.CachedTokens = event.Int64(26000)
	s.same(u)
	sum, _ := s.summarize(t, Options{})
	i64(t, "inputTokens", sum.InputTokens, 26805+27000)
	i64(t, "outputTokens", sum.OutputTokens, 172+50)
	i64(t, "cachedInputTokens", sum.CachedInputTokens, 26000)
	null(t, "cacheWriteTokens", sum.CacheWriteTokens)
	if len(sum.Turns) != 2 {
		t.Fatalf("turns = %d, want 2", len(sum.Turns))
	}
	i64(t, "t1.outputTokens", sum.Turns[0].OutputTokens, 172)
}

func TestRunUsageIsAuthoritativeAndLastWins(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, text("a")).MessageID = "m1"
	s.same(callUsage(100, 10))
	run := func(in, out int64) event.Update {
		return event.Update{SessionUpdate: event.Usage, Scope: event.ScopeRun,
			PromptTokens: event.Int64(in), CompletionTokens: event.Int64(out)}
	}
	s.add(time.Time{}, run(500, 50))
	s.add(time.Time{}, run(900, 90)) // thread-cumulative: the last one
	sum, _ := s.summarize(t, Options{})
	i64(t, "inputTokens", sum.InputTokens, 900)
	i64(t, "outputTokens", sum.OutputTokens, 90)
	null(t, "cachedInputTokens", sum.CachedInputTokens)
}

func TestCounterNotPrintedStaysNull(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, text("hello"))
	sum, _ := s.summarize(t, Options{})
	for name, p := range map[string]*int64{
		"inputTokens": sum.InputTokens, "outputTokens": sum.OutputTokens,
		"cachedInputTokens": sum.CachedInputTokens, "cacheWriteTokens": sum.CacheWriteTokens,
	} {
		null(t, name, p)
	}
	if sum.EstimatedUSD != nil || sum.CostSource != CostUnknown {
		t.Errorf("cost = %v %s, want unknown", sum.EstimatedUSD, sum.CostSource)
	}
}

func TestUnfinishedTool(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(at(0), text("let me run it"))
	s.add(at(1), call("a", "Bash", `{"command":"sleep 1000"}`))
	s.add(at(2), call("b", "Read", `{"file_path":"x"}`))
	s.add(at(3), done("b", "x"))
	sum, _ := s.summarize(t, Options{})
	a := sum.ToolCalls[0]
	if a.EndedAt != nil || a.DurationMs != nil || a.Success != nil {
		t.Errorf("unfinished call: end %v, duration %v, success %v", a.EndedAt, a.DurationMs, a.Success)
	}
	if a.StartedAt == nil || !a.StartedAt.Equal(at(1)) {
		t.Errorf("startedAt = %v", a.StartedAt)
	}
	i64(t, "executingMs", sum.ExecutingMs, 1000) // only b
	if !hasFlag(sum.Turns[0].Flags, FlagUnfinishedTool) || !hasFlag(sum.Flags, FlagUnfinishedTool) {
		t.Errorf("flags: %v / %v", sum.Turns[0].Flags, sum.Flags)
	}
}

func TestToolFailedAndApprovalIsNotAnError(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(at(0), text("try"))
	s.add(at(1), call("a", "Write", `{"file_path":"/etc/x","content":"y"}`))
	den := failed("a", "Claude requested permissions to write to /etc/x")
	den.ApprovalRequired = true
	s.add(at(2), den)
	s.add(at(3), text("then"))
	s.add(at(4), call("b", "Bash", `{"command":"false"}`))
	f := failed("b", "exit status 1")
	f.ExitCode = event.Int(1)
	s.add(at(5), f)
	s.add(at(6), result(6000, false))
	sum, rev := s.summarize(t, Options{})
	if got := sum.Turns[0].Flags; len(got) != 1 || got[0] != FlagApproval {
		t.Errorf("t1 flags = %v, want [approval_required]", got)
	}
	if got := sum.Turns[1].Flags; len(got) != 1 || got[0] != FlagToolFailed {
		t.Errorf("t2 flags = %v, want [tool_failed]", got)
	}
	if sum.ErrorCount != 1 || sum.ApprovalCount != 1 {
		t.Errorf("errors %d, approvals %d; want 1, 1", sum.ErrorCount, sum.ApprovalCount)
	}
	if sum.Outcome != OutcomeCompleted || hasFlag(sum.Flags, FlagRunFailed) {
		t.Errorf("status %s flags %v", sum.Outcome, sum.Flags)
	}
	b := sum.ToolCalls[1]
	if b.ExitCode == nil || *b.ExitCode != 1 || b.Error == nil || *b.Error != "exit status 1" {
		t.Errorf("failed call: %+v", b)
	}
	var kinds []string
	for _, r := range rev {
		if r.Type == ReviewApprovalRequired || r.Type == ReviewToolCallFailed {
			kinds = append(kinds, string(r.Type)+"/"+r.ErrorKind)
		}
	}
	if strings.Join(kinds, " ") != "approval_required/approval_required tool_call_failed/exit_code" {
		t.Errorf("review kinds = %v", kinds)
	}
}

func TestRunFailure(t *testing.T) {
	t.Parallel()
	var s stream
	s.add(time.Time{}, text("ok"))
	s.add(time.Time{}, result(10, false))
	sum, _ := s.summarize(t, Options{})
	if sum.Outcome != OutcomeCompleted || sum.Flagged {
		t.Errorf("clean run: %s %v", sum.Outcome, sum.Flags)
	}
	sum, _ = s.summarize(t, Options{ExitCode: event.Int(3)})
	if sum.Outcome != OutcomeFailed || !hasFlag(sum.Flags, FlagRunFailed) || !sum.Flagged {
		t.Errorf("non-zero exit: %s %v", sum.Outcome, sum.Flags)
	}
	if sum.ExitCode == nil || *sum.ExitCode != 3 {
		t.Errorf("exitCode = %v, want 3", sum.ExitCode)
	}
	var e stream
	e.add(time.Time{}, text("ok"))
	e.add(time.Time{}, result(10, true))
	sum, _ = e.summarize(t, Options{})
	if sum.Outcome != OutcomeFailed || !hasFlag(sum.Flags, FlagRunFailed) {
		t.Errorf("is_error result: %s %v", sum.Outcome, sum.Flags)
	}
	var h stream
	h.add(time.Time{}, text("working"))
	h.add(time.Time{}, event.Update{SessionUpdate: event.Error, Message: "Reconnecting... 1/5"})
	sum, _ = h.summarize(t, Options{})
	if !hasFlag(sum.Turns[0].Flags, FlagHarnessError) || sum.Outcome != OutcomeUnknown {
		t.Errorf("harness error: %v %s", sum.Turns[0].Flags, sum.Outcome)
	}
}

func TestTokenSpike(t *testing.T) {
	t.Parallel()
	build := func(sizes ...int64) *stream {
		var s stream
		for i, n := range sizes {
			e := s.add(time.Time{}, text("turn"))
			e.MessageID = "m" + itoa(int64(i))
			s.same(callUsage(n, 0))
		}
		return &s
	}
	spiked := func(sum *Summary) []string {
		var ids []string
		for _, tu := range sum.Turns {
			if hasFlag(tu.Flags, FlagTokenSpike) {
				ids = append(ids, tu.TurnID)
			}
		}
		return ids
	}
	tests := []struct {
		name  string
		sizes []int64
		opt   Options
		want  string
	}{
		{"3x median and over 20k", []int64{1000, 1000, 1000, 25_000}, Options{}, "t4"},
		{"exactly 3x median and 20k", []int64{6000, 6000, 6666, 20_000}, Options{}, "t4"},
		{"over 20k but under 3x median", []int64{10_000, 10_000, 10_000, 25_000}, Options{}, ""},
		{"3x median but under 20k", []int64{100, 100, 100, 5000}, Options{}, ""},
		{"factor 2", []int64{10_000, 10_000, 10_000, 25_000}, Options{SpikeFactor: 2}, "t4"},
		{"min 1000", []int64{100, 100, 100, 5000}, Options{SpikeMinTokens: 1000}, "t4"},
		{"one turn is never a spike", []int64{90_000}, Options{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sum, _ := build(tc.sizes...).summarize(t, tc.opt)
			if got := strings.Join(spiked(sum), ","); got != tc.want {
				t.Errorf("spikes = %q, want %q", got, tc.want)
			}
			if tc.want != "" && !hasFlag(sum.Flags, FlagTokenSpike) {
				t.Errorf("session not flagged: %v", sum.Flags)
			}
		})
	}
}

func TestCostSources(t *testing.T) {
	t.Parallel()
	withModel := func(model string, usage ...event.Update) *stream {
		var s stream
		e := s.add(time.Time{}, event.Update{SessionUpdate: event.SessionStart})
		e.Model = model
		for i, u := range usage {
			m := s.add(time.Time{}, text("x"))
			m.MessageID, m.Model = "m"+itoa(int64(i)), model
			s.same(u)
		}
		return &s
	}
	cu := func(in, out, cached int64, cost *float64) event.Update {
		u := callUsage(in, out)
		u.CachedTokens, u.CostUSD = event.Int64(cached), cost
		return u
	}
	// Harness run total wins over everything.
	s := withModel("claude-opus-4-5", cu(1000, 10, 0, nil))
	s.add(time.Time{}, event.Update{SessionUpdate: event.Usage, Scope: event.ScopeRun,
		PromptTokens: event.Int64(1000), CompletionTokens: event.Int64(10), CostUSD: event.Float64(0.5)})
	sum, _ := s.summarize(t, Options{})
	if sum.CostSource != CostHarness || *sum.EstimatedUSD != 0.5 {
		t.Errorf("run cost: %s %v", sum.CostSource, sum.EstimatedUSD)
	}
	// Per-step costs are added (opencode).
	s = withModel("", cu(100, 1, 0, event.Float64(0.25)), cu(100, 1, 0, event.Float64(0.125)))
	sum, _ = s.summarize(t, Options{})
	if sum.CostSource != CostHarness || *sum.EstimatedUSD != 0.375 {
		t.Errorf("step costs: %s %v", sum.CostSource, sum.EstimatedUSD)
	}
	// No harness figure: the table, each turn at its model's price.
	s = withModel("claude-opus-4-5-20251101", cu(1_000_000, 0, 0, nil), cu(1_000_000, 1_000_000, 1_000_000, nil))
	sum, _ = s.summarize(t, Options{})
	if sum.CostSource != CostEstimate || *sum.EstimatedUSD != 5+25+0.5 ||
		!strings.Contains(sum.CostBasis, "claude-opus-4-5") || !strings.Contains(sum.CostBasis, "2026-") {
		t.Errorf("estimate: %s %v %q", sum.CostSource, *sum.EstimatedUSD, sum.CostBasis)
	}
	// An unpriced model leaves the cost unknown.
	s = withModel("Auto", cu(1000, 10, 0, nil))
	sum, _ = s.summarize(t, Options{})
	if sum.CostSource != CostUnknown || sum.EstimatedUSD != nil {
		t.Errorf("unpriced: %s %v", sum.CostSource, sum.EstimatedUSD)
	}
}

func TestFinalMessageAndReviewEvents(t *testing.T) {
	t.Parallel()
	secret := "sk-ant-api03-" + strings.Repeat("A", 40)
	var s stream
	s.add(at(0), user("deploy with key "+secret))
	s.add(at(1), text("I'll run it")).MessageID = "m1"
	s.same(call("a", "Bash", `{"command":"ANTHROPIC_API_KEY=`+secret+` ./deploy.sh","description":"Deploy"}`))
	s.add(at(3), done("a", "deployed\nall good"))
	s.add(at(4), text("Deployed.")).MessageID = "m2"
	s.same(callUsage(2000, 20))
	sum, rev := s.summarize(t, Options{})
	if sum.FinalAssistantMessage == nil || *sum.FinalAssistantMessage != "Deployed." {
		t.Errorf("final = %v", sum.FinalAssistantMessage)
	}
	c := sum.ToolCalls[0]
	if strings.Contains(c.InputSummary, secret) || !strings.Contains(c.InputSummary, "./deploy.sh") {
		t.Errorf("input summary not redacted: %q", c.InputSummary)
	}
	var got []string
	for _, r := range rev {
		if strings.Contains(r.Summary, secret) {
			t.Errorf("secret in review event %s: %q", r.Type, r.Summary)
		}
		got = append(got, string(r.Type)+"|"+r.TurnID+"|"+r.Actor+"|"+r.DisplayName+"|"+r.ToolCallID)
	}
	want := []string{
		"prompt||user||",
		"response|t1|agent||",
		"tool_call_started|t1|agent|Ran a command|a",
		"tool_call_completed|t1|tool|Ran a command|a",
		"response|t2|agent||",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("review events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r := rev[3]; r.DurationMs == nil || *r.DurationMs != 2000 || r.Summary != "deployed …" {
		t.Errorf("completed event: %+v", r)
	}
	if r := rev[4]; r.InputTokens == nil || *r.InputTokens != 2000 || r.Summary != "Deployed." {
		t.Errorf("cost row: %+v", r)
	}
}

func TestDisplayNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		kind event.ToolKind
		want string
	}{
		{"Bash", event.ToolExecute, "Ran a command"},
		{"Read", event.ToolRead, "Read a file"},
		{"Write", event.ToolEdit, "Wrote a file"},
		{"run_shell_command", event.ToolExecute, "Ran a command"},
		{"mcp__browser-use__browser_task", event.ToolOther, "Used browser_task (browser-use)"},
		{"frobnicate", event.ToolSearch, "Searched files"},
		{"frobnicate", event.ToolOther, "Used frobnicate"},
	}
	for _, tc := range tests {
		if got := DisplayName(tc.name, tc.kind); got != tc.want {
			t.Errorf("DisplayName(%q, %s) = %q, want %q", tc.name, tc.kind, got, tc.want)
		}
	}
}
