package droid

import (
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

func TestDroidEditsAndExecutionLinksEveryToolCall(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Droid, agentstest.StreamFixture(t, "droid/vibekanban-edits-and-execution.jsonl"))
	if raw := agentstest.OfKind(evs, event.Raw); len(raw) > 0 {
		t.Fatalf("raw events: %v", raw[0].Update.Text)
	}
	start := agentstest.OfKind(evs, event.SessionStart)
	if len(start) != 1 || start[0].Model != "gpt-5-codex" || start[0].Update.Cwd != "/Users/tempuser/projects/droid-simple" ||
		len(start[0].Update.Tools) != 14 || start[0].SessionID != "7bfd351f-5a70-46f6-8532-be03587d858d" {
		t.Fatalf("session_start = %+v", start)
	}
	calls, updates := agentstest.OfKind(evs, event.ToolCall), agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(calls) != 12 || len(updates) != 12 {
		t.Fatalf("%d calls, %d updates; want 12 each", len(calls), len(updates))
	}
	for i, c := range calls {
		u := updates[i]
		if u.Update.ToolCallID != c.Update.ToolCallID || u.Update.Status != event.StatusCompleted {
			t.Errorf("call %s: update %+v", c.Update.ToolCallID, u.Update)
		}
		if c.Timestamp.IsZero() || c.SessionID == "" {
			t.Errorf("call %s lacks time or session", c.Update.ToolCallID)
		}
	}
	exec := updates[10]
	if calls[10].Update.ToolName != "Execute" || calls[10].Update.ToolKind != event.ToolExecute || exec.Update.ExitCode == nil || *exec.Update.ExitCode != 0 {
		t.Errorf("Execute: call %+v, update exit %v", calls[10].Update, exec.Update.ExitCode)
	}
	if g := calls[1].Update; g.Title != "Search: README.* readme.* docs/** **/*.md" || len(g.Locations) != 1 ||
		g.Locations[0].Path != "/Users/tempuser/projects/droid-simple" {
		t.Errorf("Glob call = %+v", g)
	}
	patch := calls[8].Update
	if patch.ToolName != "ApplyPatch" || patch.ToolKind != event.ToolEdit || len(patch.Locations) != 1 ||
		patch.Locations[0].Path != "/Users/tempuser/projects/droid-simple/sorting_algorithms.py" {
		t.Errorf("ApplyPatch call = %+v", patch)
	}
	if len(updates[8].Update.RawOutput) == 0 {
		t.Errorf("ApplyPatch result keeps no structured output")
	}
	if plans := agentstest.OfKind(evs, event.Plan); len(plans) != 7 || plans[0].Update.Entries[0].Status != "pending" {
		t.Errorf("TodoWrite plans = %d", len(plans))
	}
	msgs := agentstest.OfKind(evs, event.AgentMessageChunk)
	if len(msgs) != 1 || !strings.HasPrefix(msgs[0].Update.Content.Text, "# Summary") ||
		!msgs[0].Timestamp.Equal(time.UnixMilli(1760807405426)) {
		t.Errorf("final message = %+v", msgs)
	}
	if len(agentstest.OfKind(evs, event.Result)) != 0 || len(agentstest.OfKind(evs, event.Error)) != 0 {
		t.Errorf("a stream ending on a message has no result and no error")
	}
}

func TestDroidCancelledToolBeforeInsufficientPermissionIsApprovalBlocked(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Droid, agentstest.StreamFixture(t, "droid/vibekanban-insufficient-perms.jsonl"))
	var blocked *event.Event
	for _, u := range agentstest.OfKind(evs, event.ToolCallUpdate) {
		if u.Update.ToolCallID == "call_W4t4W4TDhrZFiM9DxVox21PW" {
			blocked = u
		}
	}
	if blocked == nil || !blocked.Update.ApprovalRequired || blocked.Update.Status != event.StatusFailed ||
		blocked.Update.Message != "Error: tool execution cancelled" || blocked.Line != 8 {
		t.Fatalf("cancelled Execute = %+v", blocked)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Line < evs[i-1].Line {
			t.Fatalf("events out of line order: %d after %d", evs[i].Line, evs[i-1].Line)
		}
	}
	errs := agentstest.OfKind(evs, event.Error)
	if len(errs) != 1 || !errs[0].Update.Fatal || errs[0].Line != 10 || errs[0].Extra["source"] != "cli" {
		t.Fatalf("errors = %+v", errs)
	}
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || res[0].Update.IsError == nil || !*res[0].Update.IsError || res[0].Line != 10 {
		t.Fatalf("result = %+v", res)
	}
}

func TestDroidErrorFollowedByALineIsNotFatal(t *testing.T) {
	t.Parallel()
	in := `{"type":"error","source":"cli","message":"transient","timestamp":1}
{"type":"message","role":"assistant","id":"m","text":"recovered","timestamp":2,"session_id":"s"}
`
	evs := agentstest.EventsOf(t, agents.Droid, in)
	errs := agentstest.OfKind(evs, event.Error)
	if len(errs) != 1 || errs[0].Update.Fatal || errs[0].Line != 1 || errs[0].Update.Message != "transient" {
		t.Fatalf("errors = %+v", errs)
	}
	if len(agentstest.OfKind(evs, event.Result)) != 0 {
		t.Fatal("a non-terminal error made a result")
	}
}

func TestDroidCancelledToolWithoutPermissionWordIsAPlainFailure(t *testing.T) {
	t.Parallel()
	in := `{"type":"tool_call","id":"c1","toolName":"Execute","parameters":{"command":"sleep 9"},"timestamp":1}
{"type":"tool_result","id":"c1","isError":true,"error":{"type":"tool_error","message":"Error: tool execution cancelled"},"timestamp":2}
{"type":"message","role":"assistant","id":"m","text":"The user interrupted.","timestamp":3}
`
	u := agentstest.OfKind(agentstest.EventsOf(t, agents.Droid, in), event.ToolCallUpdate)
	if len(u) != 1 || u[0].Update.ApprovalRequired || u[0].Update.Status != event.StatusFailed {
		t.Fatalf("update = %+v", u)
	}
}

func TestDroidToolResultWithoutIDLinksOldestOpenCall(t *testing.T) {
	t.Parallel()
	in := `{"type":"tool_call","id":"a","toolName":"Read","parameters":{"file_path":"/x"},"timestamp":1}
{"type":"tool_call","id":"b","toolName":"Grep","parameters":{"pattern":"y"},"timestamp":2}
{"type":"tool_result","isError":false,"value":"x body","timestamp":3}
{"type":"tool_result","isError":true,"error":{"type":"tool_error","message":"bad regex"},"timestamp":4}
`
	u := agentstest.OfKind(agentstest.EventsOf(t, agents.Droid, in), event.ToolCallUpdate)
	if len(u) != 2 || u[0].Update.ToolCallID != "a" || u[0].Update.ToolName != "Read" ||
		u[0].Update.Content.Text != "x body" || u[1].Update.ToolCallID != "b" ||
		u[1].Update.Status != event.StatusFailed || u[1].Update.Message != "bad regex" {
		t.Fatalf("updates = %+v", u)
	}
}

// The completion line was not in any capture; its shape is the one
// FORMATS.md [S13] (evolve's droid parser test) and other public droid
// integrations document: {finalText, numTurns, durationMs, usage}.
func TestDroidCompletionIsRunUsageAndResult(t *testing.T) {
	t.Parallel()
	in := `{"type":"message","role":"assistant","id":"a1","text":"Done.","timestamp":1762517062000,"session_id":"s"}
{"type":"completion","finalText":"Done.","numTurns":2,"durationMs":3000,"session_id":"s","timestamp":1762517064000,"usage":{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":50,"cache_creation_input_tokens":10}}
`
	evs := agentstest.EventsOf(t, agents.Droid, in)
	us := agentstest.OfKind(evs, event.Usage)
	if len(us) != 1 {
		t.Fatalf("usage = %+v", us)
	}
	u := us[0].Update
	if u.Scope != event.ScopeRun || *u.PromptTokens != 160 || *u.CachedTokens != 50 || *u.CompletionTokens != 20 ||
		u.UsageExtra["cache_creation_input_tokens"] != 10 || u.CostUSD != nil {
		t.Fatalf("usage = %+v", u)
	}
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || *res[0].Update.IsError || res[0].Update.Text != "Done." || *res[0].Update.NumTurns != 2 ||
		*res[0].Update.DurationMs != 3000 || res[0].SessionID != "s" || res[0].Line != 2 {
		t.Fatalf("result = %+v", res)
	}
}

func TestDroidCompletionWithoutUsageHasNoUsage(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Droid, `{"type":"completion","finalText":"ok"}`)
	if len(agentstest.OfKind(evs, event.Usage)) != 0 || len(agentstest.OfKind(evs, event.Result)) != 1 {
		t.Fatalf("events = %+v", evs)
	}
	if r := agentstest.OfKind(evs, event.Result)[0].Update; r.NumTurns != nil || r.DurationMs != nil {
		t.Fatalf("absent fields were filled: %+v", r)
	}
}

func TestDroidOfflineStreamJustStops(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Droid, agentstest.StreamFixture(t, "droid/vibekanban-offline-no-reply.jsonl"))
	if len(evs) != 2 || evs[0].Update.SessionUpdate != event.SessionStart ||
		evs[1].Update.SessionUpdate != event.UserMessageChunk || evs[1].Update.Content.Text != "testing droid while offline" {
		t.Fatalf("events = %+v", evs)
	}
}

func TestDroidClaimsOnlyItsOwnLines(t *testing.T) {
	t.Parallel()
	p := droidParser{}
	for _, tc := range []struct {
		name, line string
		want       bool
	}{
		{"init is claude's shape", `{"type":"system","subtype":"init","session_id":"s","model":"m"}`, false},
		{"message with epoch ms", `{"type":"message","role":"user","id":"i","text":"t","timestamp":1760806536533}`, true},
		{"gemini message has an iso time", `{"type":"message","role":"user","content":"t","timestamp":"2025-12-01T10:00:00Z"}`, false},
		{"tool_call with toolName", `{"type":"tool_call","id":"c","toolName":"LS","parameters":{}}`, true},
		{"tool_result with isError", `{"type":"tool_result","id":"c","isError":false,"value":"v"}`, true},
		{"gemini tool_result", `{"type":"tool_result","tool_id":"t","status":"success"}`, false},
		{"completion", `{"type":"completion","finalText":"x"}`, true},
		{"cli error is too generic", `{"type":"error","source":"cli","message":"m"}`, false},
	} {
		if got := p.Claims([]byte(tc.line)); got != tc.want {
			t.Errorf("%s: Claims = %v", tc.name, got)
		}
	}
	if k := agents.Default().Sniff([][]byte{[]byte(strings.SplitN(agentstest.StreamFixture(t, "droid/vibekanban-offline-no-reply.jsonl"), "\n", 2)[1])}); k != agents.Droid {
		t.Errorf("sniffed %s", k)
	}
}

func FuzzParseDroid(f *testing.F) {
	seeds := agentstest.FixtureSeeds(f, "droid")
	seeds = append(seeds, `{"type":"completion","finalText":"x","usage":{"input_tokens":1}}`,
		"{\"type\":\"error\",\"source\":\"cli\",\"message\":\"m\"}\n\x01\x01{\"type\":\"tool_result\",\"isError\":true}")
	agentstest.FuzzParser(f, agents.Droid, seeds...)
}
