package kimi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/agentstest"
	"github.com/agentsift/sift/core/event"
)

// No kimi capture exists. The lines below are built after the documented
// examples: kimi-cli's print mode page
// (moonshotai.github.io/kimi-cli/en/customization/print-mode.md: the Shell
// tool round trip), kimi-code's guide
// (moonshotai.github.io/kimi-code/en/guides/print.html: the Grep call with
// empty content and the `role:"meta"` resume hint), kimi-code PR #1199 (the
// `{"type":"error","code","message","retryable"}` line and the
// `{"role":"assistant","type":"thinking"}` line), kosong's content parts
// (`{"type":"think","think"}`, `{"type":"image_url","image_url":{"url"}}`)
// and kimi-cli's soul/message.py (the `<system>ERROR</system>` marker of a
// failed tool).
const (
	kimiCLIDoc = `{"role":"assistant","content":"Let me look at the current directory.","tool_calls":[{"type":"function","id":"tc_1","function":{"name":"Shell","arguments":"{\"command\":\"ls\"}"}}]}
{"role":"tool","tool_call_id":"tc_1","content":"file1.py\nfile2.py"}
{"role":"assistant","content":"There are two Python files in the current directory."}
`
	kimiCodeDoc = `{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"call_1","function":{"name":"Grep","arguments":"{\"pattern\":\"export function\"}"}}]}
{"role":"tool","tool_call_id":"call_1","content":"src/a.ts:1:export function a() {}"}
{"role":"assistant","content":"The directory exports the following functions: a"}
{"role":"meta","type":"session.resume_hint","session_id":"session_01","command":"kimi -r session_01","content":"To resume this session: kimi -r session_01"}
`
)

func TestKimiDocumentedShellRoundTrip(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Kimi, kimiCLIDoc)
	if len(agentstest.OfKind(evs, event.Raw)) != 0 {
		t.Fatalf("raw events in %+v", evs)
	}
	calls, ups := agentstest.OfKind(evs, event.ToolCall), agentstest.OfKind(evs, event.ToolCallUpdate)
	if len(calls) != 1 || calls[0].Update.ToolCallID != "tc_1" || calls[0].Update.ToolKind != event.ToolExecute ||
		calls[0].Update.Title != "Run: ls" || string(calls[0].Update.RawInput) != `{"command":"ls"}` || calls[0].Line != 1 {
		t.Fatalf("calls = %+v", calls)
	}
	if len(ups) != 1 || ups[0].Update.ToolCallID != "tc_1" || ups[0].Update.ToolName != "Shell" ||
		ups[0].Update.Status != event.StatusCompleted || ups[0].Update.Content.Text != "file1.py\nfile2.py" {
		t.Fatalf("updates = %+v", ups)
	}
	msgs := agentstest.OfKind(evs, event.AgentMessageChunk)
	if len(msgs) != 2 || msgs[1].Line != 3 {
		t.Fatalf("messages = %+v", msgs)
	}
	if len(agentstest.OfKind(evs, event.Result)) != 0 {
		t.Error("kimi-cli prints no end line, so there is no result")
	}
}

func TestKimiResumeHintEndsTheRun(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Kimi, kimiCodeDoc)
	if n := len(agentstest.OfKind(evs, event.AgentMessageChunk)); n != 1 {
		t.Errorf("%d message chunks; the empty content of the tool-call line is no message", n)
	}
	res := agentstest.OfKind(evs, event.Result)
	if len(res) != 1 || *res[0].Update.IsError || res[0].SessionID != "session_01" || res[0].Line != 4 ||
		res[0].Update.Text != "The directory exports the following functions: a" || res[0].Extra["resume_command"] != "kimi -r session_01" {
		t.Fatalf("result = %+v", res)
	}
	if agentstest.OfKind(evs, event.ToolCall)[0].Update.ToolKind != event.ToolSearch {
		t.Error("Grep is a search")
	}
}

func TestKimiThinkPartsAreThoughts(t *testing.T) {
	t.Parallel()
	in := `{"role":"assistant","content":[{"type":"think","think":"The user greets me.","encrypted":null},{"type":"text","text":"Hello!"}]}
{"role":"assistant","type":"thinking","content":"kimi-code reasoning line"}
`
	evs := agentstest.EventsOf(t, agents.Kimi, in)
	if len(evs) != 3 || evs[0].Update.SessionUpdate != event.AgentThoughtChunk || evs[0].Update.Content.Text != "The user greets me." ||
		evs[1].Update.SessionUpdate != event.AgentMessageChunk || evs[1].Update.Content.Text != "Hello!" ||
		evs[2].Update.SessionUpdate != event.AgentThoughtChunk || evs[2].Update.Content.Text != "kimi-code reasoning line" {
		t.Fatalf("events = %+v", evs)
	}
}

func TestKimiSystemErrorMarkerFailsTheTool(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"two system parts": `[{"type":"text","text":"<system>ERROR</system>"},{"type":"text","text":"<system>Command failed with exit code: 2.</system>"},{"type":"text","text":"ls: x: No such file"}]`,
		"one string":       `"<system>ERROR: Command failed with exit code: 2.</system>"`,
	} {
		in := `{"role":"assistant","content":"","tool_calls":[{"type":"function","id":"t","function":{"name":"Shell","arguments":"{\"command\":\"ls x\"}"}}]}
{"role":"tool","tool_call_id":"t","content":` + content + "}\n"
		ups := agentstest.OfKind(agentstest.EventsOf(t, agents.Kimi, in), event.ToolCallUpdate)
		if len(ups) != 1 || ups[0].Update.Status != event.StatusFailed || ups[0].Update.Message != "Command failed with exit code: 2." {
			t.Errorf("%s: updates = %+v", name, ups)
		}
	}
	ok := agentstest.OfKind(agentstest.EventsOf(t, agents.Kimi, `{"role":"tool","tool_call_id":"t","content":[{"type":"text","text":"<system>Tool output is empty.</system>"}]}`), event.ToolCallUpdate)
	if len(ok) != 1 || ok[0].Update.Status != event.StatusCompleted {
		t.Errorf("a plain system note failed the tool: %+v", ok)
	}
}

func TestKimiErrorLineIsFatalOnlyAtTheEnd(t *testing.T) {
	t.Parallel()
	const errLine = `{"type":"error","code":"provider.rate_limit","message":"429 Too Many Requests","retryable":true}`
	for _, tc := range []struct {
		name, in string
		fatal    bool
		result   bool
	}{
		{"last line", errLine + "\n", true, true},
		{"before the resume hint", errLine + "\n" + strings.SplitAfter(kimiCodeDoc, "\n")[3], true, true},
		{"another turn follows", errLine + "\n" + kimiCLIDoc, false, false},
	} {
		evs := agentstest.EventsOf(t, agents.Kimi, tc.in)
		errs := agentstest.OfKind(evs, event.Error)
		if len(errs) != 1 || errs[0].Update.Fatal != tc.fatal || errs[0].Line != 1 ||
			errs[0].Update.Message != "429 Too Many Requests" || errs[0].Extra["retryable"] != true ||
			errs[0].Extra["code"] != "provider.rate_limit" {
			t.Errorf("%s: errors = %+v", tc.name, errs)
		}
		res := agentstest.OfKind(evs, event.Result)
		if (len(res) == 1) != tc.result || (tc.result && !*res[0].Update.IsError) {
			t.Errorf("%s: results = %+v", tc.name, res)
		}
	}
}

func TestKimiDataURLImageIsKeptAsImage(t *testing.T) {
	t.Parallel()
	in := `{"role":"tool","tool_call_id":"r","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,QUJDRA=="}}]}
{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/9j/"}}]}
`
	evs := agentstest.EventsOf(t, agents.Kimi, in)
	if c := evs[0].Update.Content; c == nil || c.Type != "image" || c.MimeType != "image/png" || c.Data != "QUJDRA==" {
		t.Fatalf("tool image = %+v", c)
	}
	if c := evs[1].Update.Content; evs[1].Update.SessionUpdate != event.UserMessageChunk || c.Type != "image" || c.MimeType != "image/jpeg" {
		t.Fatalf("user image = %+v", evs[1])
	}
}

func TestKimiMalformedArgumentsStayValidJSON(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Kimi, `{"role":"assistant","tool_calls":[{"type":"function","id":"x","function":{"name":"WriteFile","arguments":"{\"path\": \"/a"}}]}`)
	c := agentstest.OfKind(evs, event.ToolCall)
	if len(c) != 1 || c[0].Update.ToolKind != event.ToolEdit {
		t.Fatalf("calls = %+v", c)
	}
	if _, err := json.Marshal(c[0]); err != nil {
		t.Fatalf("event does not marshal: %v", err)
	}
	if string(c[0].Update.RawInput) != `"{\"path\": \"/a"` {
		t.Errorf("rawInput = %s", c[0].Update.RawInput)
	}
}

func TestKimiSetTodoListIsAPlan(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Kimi, `{"role":"assistant","tool_calls":[{"type":"function","id":"p","function":{"name":"SetTodoList","arguments":"{\"todos\":[{\"title\":\"A\",\"status\":\"done\"},{\"title\":\"B\",\"status\":\"pending\"}]}"}}]}`)
	p := agentstest.OfKind(evs, event.Plan)
	if len(p) != 1 || len(p[0].Update.Entries) != 2 || p[0].Update.Entries[0] != (event.PlanEntry{Content: "A", Status: "done"}) {
		t.Fatalf("plan = %+v", p)
	}
}

func TestKimiPlanDisplayIsAPlan(t *testing.T) {
	t.Parallel()
	evs := agentstest.EventsOf(t, agents.Kimi, `{"content":"# Plan\n1. Read\n2. Fix","file_path":"/w/.kimi/plans/p.md"}`)
	if len(evs) != 1 || evs[0].Update.SessionUpdate != event.Plan || evs[0].Update.Entries[0].Content != "# Plan\n1. Read\n2. Fix" ||
		evs[0].Extra["file_path"] != "/w/.kimi/plans/p.md" {
		t.Fatalf("events = %+v", evs)
	}
}

func TestKimiClaimsRoleLines(t *testing.T) {
	t.Parallel()
	p := kimiParser{}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{strings.SplitN(kimiCLIDoc, "\n", 2)[0], true},
		{`{"role":"tool","tool_call_id":"tc_1","content":"x"}`, true},
		{`{"role":"meta","type":"session.resume_hint","session_id":"s"}`, true},
		{`{"type":"error","code":"x","message":"m","retryable":false}`, true},
		{`{"type":"error","message":"codex error"}`, false},
		{`{"type":"message","role":"assistant","content":"gemini","delta":true}`, false},
		{`{"type":"assistant","message":{"role":"assistant"}}`, false},
	} {
		if got := p.Claims([]byte(tc.line)); got != tc.want {
			t.Errorf("Claims(%s) = %v", tc.line, got)
		}
	}
	lines := [][]byte{[]byte(strings.SplitN(kimiCLIDoc, "\n", 2)[0])}
	if k := agents.Default().Sniff(lines); k != agents.Kimi {
		t.Errorf("sniffed %s", k)
	}
}

func FuzzParseKimi(f *testing.F) {
	agentstest.FuzzParser(f, agents.Kimi, kimiCLIDoc, kimiCodeDoc,
		`{"type":"error","code":"x","message":"m","retryable":true}`+"\nnot json\n",
		`{"role":"tool","tool_call_id":"t","content":[{"type":"text","text":"<system>ERROR</system>"}]}`)
}
