package agents

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/event"
)

// claudeToolLine is the Bash tool_use line Claude Code 2.1.5 printed in
// testdata/streams/claude/evolve-2.1.5-skill-bash-read-image.jsonl, with
// the tool's name, id and input replaced: the shape of any tool call of
// Claude Code's stream-json.
func claudeToolLine(id, name, input string) string {
	return `{"type":"assistant","message":{"model":"claude-opus-4-5-20251101","id":"msg_` + id + `","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_` + id + `","name":"` + name + `","input":` + input + `}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"cache_creation_input_tokens":1846,"cache_read_input_tokens":27634,"output_tokens":3,"service_tier":"standard"},"context_management":null},"parent_tool_use_id":null,"session_id":"21b7cdb6-b5ee-40a6-86ca-26c95260cb09","uuid":"64769dc2-81f8-4ffa-adb4-26858bce5333"}`
}

// plans returns the entries of each plan update, as "content:status".
func plans(evs []*event.Event) [][]string {
	var out [][]string
	for _, ev := range evs {
		if ev.Update.SessionUpdate != event.Plan {
			continue
		}
		var p []string
		for _, e := range ev.Update.Entries {
			p = append(p, e.Content+":"+e.Status)
		}
		out = append(out, p)
	}
	return out
}

// TestClaudePlanTools pins Claude Code's plan tools as plan updates: the
// whole TodoWrite list, and the list the task tools build one call at a
// time (TaskCreate numbered from 1, TaskUpdate by taskId, deleted tasks
// removed). Inputs are the documented shapes, as public transcripts hold
// them.
func TestClaudePlanTools(t *testing.T) {
	t.Parallel()
	lines := []string{
		claudeToolLine("a1", "TodoWrite", `{"todos":[{"content":"Read the spec","status":"completed","activeForm":"Reading"},{"content":"Write the parser","status":"in_progress","activeForm":"Writing"}]}`),
		claudeToolLine("a2", "TaskCreate", `{"subject":"Fix authentication bug","description":"Auth tokens expire too early","activeForm":"Fixing auth"}`),
		claudeToolLine("a3", "TaskCreate", `{"subject":"Add unit tests","description":"Cover edge cases","activeForm":"Writing tests"}`),
		claudeToolLine("a4", "TaskUpdate", `{"taskId":"1","status":"in_progress"}`),
		claudeToolLine("a5", "TaskUpdate", `{"taskId":2,"status":"deleted"}`),
		claudeToolLine("a6", "TaskUpdate", `{"taskId":"9","status":"completed"}`),
	}
	evs, _ := parseBytes(t, []byte(strings.Join(lines, "\n")+"\n"), Options{Agent: Claude})
	got := plans(evs)
	want := [][]string{
		{"Read the spec:completed", "Write the parser:in_progress"},
		{"Fix authentication bug:pending"},
		{"Fix authentication bug:pending", "Add unit tests:pending"},
		{"Fix authentication bug:in_progress", "Add unit tests:pending"},
		{"Fix authentication bug:in_progress"},
	}
	if len(got) != len(want) {
		t.Fatalf("plans %q, want %q", got, want)
	}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("plan %d: %q, want %q", i, got[i], want[i])
		}
	}
	calls := 0
	for _, ev := range evs {
		if ev.Update.SessionUpdate == event.ToolCall {
			calls++
		}
	}
	if calls != len(lines) {
		t.Errorf("%d tool calls, want %d: the plan tools are still calls", calls, len(lines))
	}
}

// TestShellToolsExecute pins shell tools named by other words than Bash
// as kind execute: Claude Code's PowerShell on Windows, and others'.
func TestShellToolsExecute(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"PowerShell", "pwsh", "run_terminal_cmd", "execute_command", "Bash", "shell"} {
		evs, _ := parseBytes(t, []byte(claudeToolLine("p", name, `{"command":"Get-ChildItem","description":"List files"}`)+"\n"), Options{Agent: Claude})
		if len(evs) == 0 || evs[0].Update.ToolKind != event.ToolExecute {
			t.Errorf("%s: kind %q, want execute", name, evs[0].Update.ToolKind)
		}
	}
}

// TestReasoningToolsThink pins the tools that carry the model's reasoning,
// not work on the machine, as ACP kind think: Claude Code's ReportFindings
// (its tool list: "Report code-review findings as a typed list so the host
// UI can render them", called with an empty array when nothing survived
// verification), its subagents, and a think tool.
func TestReasoningToolsThink(t *testing.T) {
	t.Parallel()
	for name, input := range map[string]string{
		"ReportFindings": `{"findings":[]}`,
		"Task":           `{"description":"Review","prompt":"Review the diff","subagent_type":"general-purpose"}`,
		"think":          `{"thought":"The test fails because the fixture is stale."}`,
	} {
		evs, _ := parseBytes(t, []byte(claudeToolLine("r", name, input)+"\n"), Options{Agent: Claude})
		if len(evs) == 0 || evs[0].Update.ToolKind != event.ToolThink {
			t.Errorf("%s: %+v, want kind think", name, evs)
		}
	}
}

// TestClaudeSystemNoticeIsTyped pins a system line of a subtype other
// than init as a typed event, whatever the spacing of its JSON: the
// hook_response Claude Code printed (recorded in
// testdata/streams/claude/claude-orchestrator-task-subagent-reserialized.jsonl,
// there with a space after each colon), compact, with tabs, and a failed
// hook as a non-fatal error.
func TestClaudeSystemNoticeIsTyped(t *testing.T) {
	t.Parallel()
	compact := `{"type":"system","subtype":"hook_response","hook_id":"6a344346-fd9e-43ca-ac90-a7e7682799fa","hook_name":"SessionStart:startup","hook_event":"SessionStart","output":"","stdout":"","stderr":"","exit_code":0,"outcome":"success","uuid":"333bb103-682b-4da1-9b32-b07f41a5e133","session_id":"c34ee513-e375-415f-ae7b-1fb9a71b5953"}`
	init := `{"type":"system","subtype":"init","cwd":"/w","session_id":"c34ee513-e375-415f-ae7b-1fb9a71b5953","tools":["Bash"],"model":"claude-opus-4-5-20251101","claude_code_version":"2.1.5"}`
	tabbed := strings.ReplaceAll(strings.ReplaceAll(compact, `":`, "\":\t"), `,"`, ",\t\"")
	failed := strings.Replace(strings.Replace(compact, `"exit_code":0`, `"exit_code":2`, 1), `"stderr":""`, `"stderr":"no such file"`, 1)
	spaced := strings.ReplaceAll(compact, `":`, `": `)
	for _, tc := range []struct {
		name, line string
		want       event.Kind
	}{{"compact", compact, event.System}, {"spaces", spaced, event.System}, {"tabs", tabbed, event.System},
		{"a failed hook", failed, event.Error}, {"an unknown subtype", strings.Replace(compact, "hook_response", "hook_progress_v9", 1), event.System}} {
		t.Run(tc.name, func(t *testing.T) {
			if !json.Valid([]byte(tc.line)) {
				t.Fatalf("test line is not JSON: %s", tc.line)
			}
			for _, first := range []bool{true, false} {
				data := tc.line + "\n" + init + "\n"
				if !first {
					data = init + "\n" + tc.line + "\n"
				}
				evs, st := parseBytes(t, []byte(data), Options{})
				if st.Agent != string(Claude) {
					t.Fatalf("sniffed %q", st.Agent)
				}
				ev := evs[0]
				if !first {
					ev = evs[1]
				}
				if ev.Update.SessionUpdate != tc.want || ev.Update.Subtype == "" {
					t.Errorf("first=%v: %s %+v, want %s", first, ev.Update.SessionUpdate, ev.Update, tc.want)
				}
				if tc.want == event.Error && (ev.Update.Fatal || !strings.Contains(ev.Update.Message, "no such file")) {
					t.Errorf("failed hook: %+v", ev.Update)
				}
			}
		})
	}
}
