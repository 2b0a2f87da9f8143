package antigravity

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// No agy capture is in the fixtures. The lines below follow the
// stream-json shape that public agy integrations quote from their captures
// (agy 1.1.17: a tool step ending in state ERROR with a step-level
// `error{type,message}` and a step-level `output`; agy 1.2.x: `tool_info`
// with `output`, `subagent_info.subagents[]`, `error_message` steps, usage
// with `cache_read_tokens`, the `--output-format json` envelope). Values
// are made up.
const agyRun = `{"event":"init","conversation_id":"c1","init":{"model":"gemini-3-flash","cwd":"/work","tools":["run_command","view_file","write_to_file"],"permission_mode":"always-proceed"}}
{"event":"step_update","step_update":{"conversation_id":"c1","step_index":0,"state":"DONE","step_type":"user_input"}}
{"event":"step_update","step_update":{"conversation_id":"c1","step_index":1,"state":"DONE","step_type":"agent_response","duration_seconds":2.5,"usage":{"input_tokens":1000,"output_tokens":300,"thinking_tokens":200,"cache_read_tokens":0,"total_tokens":1300}}}
{"event":"step_update","step_update":{"conversation_id":"c1","step_index":2,"state":"ACTIVE","step_type":"tool","tool_name":"write_to_file","tool_info":{"name":"write_to_file","parameters":{"TargetFile":"/work/a.txt"}}}}
{"event":"step_update","step_update":{"conversation_id":"c1","step_index":2,"state":"DONE","step_type":"tool","tool_name":"write_to_file","duration_seconds":0.0275,"tool_info":{"name":"write_to_file","parameters":{"TargetFile":"/work/a.txt"}}}}
{"event":"step_update","step_update":{"conversation_id":"c1","step_index":3,"state":"ACTIVE","step_type":"tool","tool_name":"run_command","tool_info":{"name":"run_command","parameters":{"CommandLine":"cat a.txt"}}}}
{"event":"step_update","step_update":{"conversation_id":"c1","step_index":3,"state":"DONE","step_type":"tool","tool_name":"run_command","duration_seconds":0.031,"tool_info":{"name":"run_command","parameters":{"CommandLine":"cat a.txt"},"output":"a\r\n"}}}
{"event":"step_update","step_update":{"conversation_id":"c1","step_index":4,"state":"ACTIVE","step_type":"agent_response","text_delta":"Wrote a"}}
{"event":"step_update","step_update":{"conversation_id":"c1","step_index":4,"state":"DONE","step_type":"agent_response","text_delta":".txt\n","duration_seconds":1,"usage":{"input_tokens":500,"output_tokens":20,"thinking_tokens":0,"cache_read_tokens":4000,"total_tokens":520}}}
{"event":"result","result":{"conversation_id":"c1","status":"SUCCESS","response":"Wrote a.txt\n","duration_seconds":4.6341,"num_turns":1,"usage":{"input_tokens":1500,"output_tokens":320,"thinking_tokens":200,"cache_read_tokens":4000,"total_tokens":1820}}}
`

func TestAntigravityStepsToolsAndUsage(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Antigravity, agyRun)
	raw := agentstest.OfKind(evs, event.Raw)
	if len(raw) != 1 || raw[0].Line != 2 {
		t.Fatalf("raw = %+v; want only the bodiless user_input step", raw)
	}
	st := agentstest.OfKind(evs, event.SessionStart)
	if len(st) != 1 || st[0].Model != "gemini-3-flash" || st[0].SessionID != "c1" || st[0].Extra["permission_mode"] != "always-proceed" {
		t.Fatalf("session_start = %+v", st)
	}
	calls, ups := agentstest.OfKind(evs, event.ToolCall), agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(calls) != 2 || len(ups) != 2 {
		t.Fatalf("%d calls, %d updates", len(calls), len(ups))
	}
	w, r := calls[0].Update, calls[1].Update
	if w.ToolCallID != "c1:2" || w.ToolKind != event.ToolEdit || w.Title != "Edit: /work/a.txt" ||
		len(w.Locations) != 1 || w.Locations[0].Path != "/work/a.txt" || w.Status != event.StatusInProgress {
		t.Errorf("write_to_file = %+v", w)
	}
	if r.ToolCallID != "c1:3" || r.ToolKind != event.ToolExecute || r.Title != "Run: cat a.txt" {
		t.Errorf("run_command = %+v", r)
	}
	if u := ups[1].Update; u.ToolCallID != "c1:3" || u.Status != event.StatusCompleted || u.Content.Text != "a\r\n" ||
		*u.DurationMs != 31 || !strings.Contains(string(u.RawOutput), `"output":"a\r\n"`) {
		t.Errorf("run_command result = %+v", u)
	}
	if u := ups[0].Update; u.Content != nil || *u.DurationMs != 28 {
		t.Errorf("write_to_file result = %+v", u)
	}
	var text strings.Builder
	for _, m := range agentstest.OfKind(evs, event.AgentMessageChunk) {
		text.WriteString(m.Update.Content.Text)
		if m.MessageID != "c1:4" {
			t.Errorf("chunk message id %q", m.MessageID)
		}
	}
	if text.String() != "Wrote a.txt\n" {
		t.Errorf("text = %q; the result's response must not repeat", text.String())
	}
	us := agentstest.OfKind(evs, event.Usage)
	if len(us) != 3 || us[0].Update.Scope != event.ScopeCall || us[0].MessageID != "c1:1" || *us[0].Update.PromptTokens != 1000 ||
		*us[1].Update.PromptTokens != 4500 || *us[1].Update.CachedTokens != 4000 || *us[1].Update.CompletionTokens != 20 ||
		us[0].Update.UsageExtra["thinking_tokens"] != 200 {
		t.Fatalf("usage = %+v", us)
	}
	run := us[2].Update
	if run.Scope != event.ScopeRun || *run.PromptTokens != 5500 || *run.CompletionTokens != 320 || run.UsageExtra["total_tokens"] != 1820 {
		t.Fatalf("run usage = %+v", run)
	}
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || *res[0].Update.IsError || res[0].Update.Subtype != "SUCCESS" || *res[0].Update.DurationMs != 4634 ||
		*res[0].Update.NumTurns != 1 || res[0].Update.Text != "Wrote a.txt\n" {
		t.Fatalf("result = %+v", res)
	}
	if len(agentstest.OfKind(evs, event.Error)) != 0 {
		t.Error("a successful run has no error")
	}
}

func TestAntigravityDeniedCommandIsApprovalBlocked(t *testing.T) {
	t.Parallel()
	in := `{"event":"step_update","step_update":{"conversation_id":"c2","step_index":7,"state":"ACTIVE","step_type":"tool","tool_name":"run_command","tool_info":{"name":"run_command","parameters":{"CommandLine":"rm -rf build"}}}}
{"event":"step_update","step_update":{"conversation_id":"c2","step_index":7,"state":"ERROR","step_type":"tool","tool_name":"run_command","duration_seconds":0.066,"tool_info":{"name":"run_command","parameters":{"CommandLine":"rm -rf build"}},"error":{"type":"TOOL_ERROR","message":"permission check failed"}}}
{"event":"result","result":{"conversation_id":"c2","status":"ERROR","response":"","error":"permission check failed for command \"rm -rf build\": user denied permission","duration_seconds":8,"num_turns":1,"usage":{"input_tokens":10,"output_tokens":1,"thinking_tokens":0,"cache_read_tokens":0,"total_tokens":11}}}
`
	evs := agentstest.EventsOf(t, agents.Antigravity, in)
	ups := agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(ups) != 1 || ups[0].Update.Status != event.StatusFailed || !ups[0].Update.ApprovalRequired ||
		ups[0].Update.Message != "permission check failed" || ups[0].Update.ToolCallID != "c2:7" {
		t.Fatalf("update = %+v", ups)
	}
	errs := agentstest.OfKind(evs, event.Error)
	if len(errs) != 1 || !errs[0].Update.Fatal || !strings.Contains(errs[0].Update.Message, "user denied permission") {
		t.Fatalf("errors = %+v", errs)
	}
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || !*res[0].Update.IsError || res[0].Update.Subtype != "ERROR" || res[0].Update.Text != "" {
		t.Fatalf("result = %+v", res)
	}
}

func TestAntigravityDoneWithoutActiveOpensTheCall(t *testing.T) {
	t.Parallel()
	in := `{"event":"step_update","step_update":{"conversation_id":"x","step_index":2,"state":"DONE","step_type":"tool","tool_name":"run_command","tool_info":{"name":"run_command","parameters":{"CommandLine":"false"},"error":{"type":"ExitError","message":"exited 1"}}}}`
	evs := agentstest.EventsOf(t, agents.Antigravity, in)
	if len(evs) != 2 || evs[0].Update.SessionUpdate != event.ToolCall || evs[1].Update.SessionUpdate != event.ToolCallUpdate ||
		evs[1].Update.Status != event.StatusFailed || evs[1].Update.Message != "exited 1" || evs[1].Update.ApprovalRequired {
		t.Fatalf("events = %+v", evs)
	}
}

func TestAntigravitySubagentStepNamesTheChildConversation(t *testing.T) {
	t.Parallel()
	info := `{"subagents":[{"type_name":"counter","role":"File Counter","initial_prompt":"Count the files","conversation_id":"child-1","log_uri":"file:///h/.gemini/antigravity-cli/brain/child-1/.system_generated/logs/transcript.jsonl"}]}`
	in := `{"event":"step_update","step_update":{"conversation_id":"p","step_index":2,"state":"ACTIVE","step_type":"subagent","tool_name":"invoke_subagent","subagent_info":` + info + `}}
{"event":"step_update","step_update":{"conversation_id":"p","step_index":2,"state":"DONE","step_type":"subagent","tool_name":"invoke_subagent","duration_seconds":0.02,"subagent_info":` + info + `}}
{"event":"step_update","step_update":{"conversation_id":"p","step_index":3,"state":"DONE","step_type":"system_message"}}
`
	evs := agentstest.EventsOf(t, agents.Antigravity, in)
	c := agentstest.OfKind(evs, event.ToolCall)
	if len(c) != 1 || c[0].Update.ToolName != "invoke_subagent" || c[0].Update.ToolKind != event.ToolThink ||
		c[0].Update.Title != "Task: counter" || string(c[0].Update.RawInput) != info {
		t.Fatalf("call = %+v", c)
	}
	u := agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(u) != 1 || u[0].Update.Status != event.StatusCompleted || string(u[0].Update.RawOutput) != info ||
		!strings.Contains(u[0].Update.Content.Text, "conversation child-1, log file:///h/.gemini/") {
		t.Fatalf("update = %+v", u)
	}
	if raw := agentstest.OfKind(evs, event.Raw); len(raw) != 1 || raw[0].Line != 3 {
		t.Fatalf("the bodiless system_message is kept raw: %+v", raw)
	}
}

func TestAntigravityUnknownStepsAndEventsStayRaw(t *testing.T) {
	t.Parallel()
	in := `{"event":"step_update","step_update":{"conversation_id":"c","step_index":4,"state":"DONE","step_type":"telemetry_ping"}}
{"event":"control_request","control_request":{"kind":"permission"}}
{"event":"step_update","step_update":{"conversation_id":"c","step_index":5,"state":"DONE","step_type":"checkpoint","usage":{"input_tokens":1}}}
`
	evs := agentstest.EventsOf(t, agents.Antigravity, in)
	if len(evs) != 3 || len(agentstest.OfKind(evs, event.Raw)) != 3 {
		t.Fatalf("events = %+v", evs)
	}
}

func TestAntigravityRetriedModelErrorsThenFatalResult(t *testing.T) {
	t.Parallel()
	step := `{"event":"step_update","step_update":{"conversation_id":"e","step_index":1,"state":"DONE","step_type":"error_message","duration_seconds":0}}` + "\n"
	in := step + step + `{"event":"result","result":{"conversation_id":"e","status":"ERROR","response":"","error":"API error (attempt 2): Error 429","duration_seconds":91.9,"num_turns":1,"usage":{"input_tokens":0,"output_tokens":0,"thinking_tokens":0,"cache_read_tokens":0,"total_tokens":0}}}`
	errs := agentstest.OfKind(agentstest.EventsOf(t, agents.Antigravity, in), event.Error)
	if len(errs) != 3 || errs[0].Update.Fatal || errs[1].Update.Fatal || !errs[2].Update.Fatal || errs[2].Line != 3 {
		t.Fatalf("errors = %+v", errs)
	}
}

func TestAntigravityJSONEnvelope(t *testing.T) {
	t.Parallel()
	in := `{"conversation_id":"j1","status":"SUCCESS","response":"OK\n","duration_seconds":1.05,"num_turns":1,"usage":{"input_tokens":12,"output_tokens":1,"thinking_tokens":0,"cache_read_tokens":0,"total_tokens":13}}`
	evs := agentstest.EventsOf(t, agents.Antigravity, in)
	if len(evs) != 3 || evs[0].Update.SessionUpdate != event.AgentMessageChunk || evs[0].Update.Content.Text != "OK\n" ||
		evs[1].Update.Scope != event.ScopeRun || evs[2].Update.SessionUpdate != event.Result || evs[2].SessionID != "j1" {
		t.Fatalf("events = %+v", evs)
	}
}

// Older agy builds print Claude's stream-json: every such line goes to the
// Claude-shaped parser, attributed to antigravity.
func TestAntigravityDelegatesClaudeShapedLines(t *testing.T) {
	t.Parallel()
	in := agentstest.StreamFixture(t, "claude/evolve-2.1.7-run1-write-file.jsonl")
	asClaude, asAgy := agentstest.EventsOf(t, agents.Claude, in), agentstest.EventsOf(t, agents.Antigravity, in)
	if len(asAgy) == 0 || len(asAgy) != len(asClaude) {
		t.Fatalf("%d events as antigravity, %d as claude", len(asAgy), len(asClaude))
	}
	for i := range asAgy {
		a, c := strip(t, asAgy[i]), strip(t, asClaude[i])
		if !reflect.DeepEqual(a, c) {
			t.Fatalf("event %d differs:\nagy    %s\nclaude %s", i, a, c)
		}
	}
	if len(agentstest.OfKind(asAgy, event.Raw)) != 0 || len(agentstest.OfKind(asAgy, event.Result)) != 1 {
		t.Fatal("the Claude-shaped run was not read whole")
	}
}

// strip returns an event's JSON without the harness name fields that may
// legitimately differ by kind.
func strip(t *testing.T, e *event.Event) map[string]any {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestAntigravityClaimsNothing(t *testing.T) {
	t.Parallel()
	if (antigravityParser{}).Claims([]byte(strings.SplitN(agyRun, "\n", 2)[0])) {
		t.Fatal("antigravity claimed a line")
	}
}

func FuzzParseAntigravity(f *testing.F) {
	agentstest.FuzzParser(f, agents.Antigravity, agyRun, agentstest.StreamFixture(f, "claude/evolve-2.1.7-run1-write-file.jsonl"),
		`{"conversation_id":"j","status":"ERROR","error":"x"}`+"\n"+`{"event":"step_update","step_update":{"step_type":"tool","state":"DONE"}}`)
}
