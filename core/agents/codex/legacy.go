package codex

import (
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// The legacy `codex exec --json` shape (before 0.44, removed in
// openai/codex#4525): a config summary object, a `{"prompt":…}` line, then
// `{"id":"<submission>","msg":{"type":…}}` events. It has no timestamps;
// tools are linked by call_id.

// codexLegacyMsg is the union of the legacy msg payloads sift reads.
type codexLegacyMsg struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Message string `json:"message"`
	CallID  string `json:"call_id"`
	// exec_command_begin / exec_command_end.
	Command  json.RawMessage `json:"command"`
	Cwd      string          `json:"cwd"`
	Stdout   string          `json:"stdout"`
	Stderr   string          `json:"stderr"`
	ExitCode *int            `json:"exit_code"`
	// patch_apply_begin / patch_apply_end.
	Changes json.RawMessage `json:"changes"`
	Success *bool           `json:"success"`
	// mcp_tool_call_begin / mcp_tool_call_end.
	Invocation *struct {
		Server    string          `json:"server"`
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"invocation"`
	Result json.RawMessage `json:"result"`
	// task_complete.
	LastAgentMessage *string `json:"last_agent_message"`
	// token_count in later legacy builds: {info:{total_token_usage}}.
	Info *struct {
		Total json.RawMessage `json:"total_token_usage"`
	} `json:"info"`
	// plan_update.
	Plan []struct {
		Step   string `json:"step"`
		Status string `json:"status"`
	} `json:"plan"`
	Reason string `json:"reason"`
}

// legacyLine handles a line of the legacy shape.
func (s *codexStream) legacyLine(l agents.Line, ln *codexLine, emit agents.Emit) bool {
	switch {
	case ln.Prompt != nil && len(ln.Msg) == 0:
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(*ln.Prompt)}}))
		return true
	case len(ln.Msg) == 0:
		return s.legacyConfig(l.Bytes, ln, emit)
	}
	// ln.Msg is the decoder's copy of the message, not the line: what m
	// refers to of it may be held past the line (a pending error).
	var m codexLegacyMsg
	if json.UnmarshalOf(ln.Msg, &m, json.DecodeNoCopyString()) != nil || m.Type == "" {
		return false
	}
	switch m.Type {
	case "task_started":
		s.lastText.Set("")
	case "agent_message_delta", "agent_reasoning_delta", "agent_reasoning_raw_content_delta":
		// Deltas: the whole message or reasoning follows.
	case "agent_reasoning", "agent_reasoning_raw_content":
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(m.Text)}}))
	case "agent_message":
		s.lastText.Set(m.Message)
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(m.Message)}}))
	case "exec_command_begin":
		in, _ := agents.MarshalPlain(map[string]any{"command": m.Command, "cwd": m.Cwd})
		u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: m.CallID, Status: event.StatusInProgress}
		agents.DescribeTool(&u, "exec_command", in)
		emit(s.Event(&event.Event{Update: u}))
	case "exec_command_end":
		u := event.Update{
			SessionUpdate: event.ToolCallUpdate, ToolCallID: m.CallID, Status: event.StatusCompleted,
			ExitCode: m.ExitCode, RawOutput: ln.Msg,
		}
		if out := joinOutput(m.Stdout, m.Stderr); out != "" {
			u.Content = event.Text(out)
		}
		if m.ExitCode != nil && *m.ExitCode != 0 {
			u.Status = event.StatusFailed
		}
		emit(s.Event(&event.Event{Update: u}))
	case "patch_apply_begin":
		u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: m.CallID, Status: event.StatusInProgress}
		agents.DescribeTool(&u, "apply_patch", m.Changes)
		var changes map[string]json.RawMessage
		_ = json.Unmarshal(m.Changes, &changes) // no map, no locations
		paths := make([]string, 0, len(changes))
		for p := range changes {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			u.Locations = append(u.Locations, event.Location{Path: p})
		}
		if len(paths) > 0 {
			u.Title = "Edit: " + paths[0]
			if len(paths) > 1 {
				u.Title += " (+" + strconv.Itoa(len(paths)-1) + " more)"
			}
		}
		emit(s.Event(&event.Event{Update: u}))
	case "patch_apply_end":
		u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: m.CallID, Status: event.StatusCompleted, RawOutput: ln.Msg}
		if out := joinOutput(m.Stdout, m.Stderr); out != "" {
			u.Content = event.Text(out)
		}
		if m.Success != nil && !*m.Success {
			u.Status, u.Message = event.StatusFailed, m.Stderr
		}
		emit(s.Event(&event.Event{Update: u}))
	case "mcp_tool_call_begin":
		if m.Invocation == nil {
			return false
		}
		u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: m.CallID, Status: event.StatusInProgress}
		agents.DescribeTool(&u, "mcp__"+m.Invocation.Server+"__"+m.Invocation.Tool, m.Invocation.Arguments)
		u.Title = m.Invocation.Server + "." + m.Invocation.Tool
		emit(s.Event(&event.Event{Update: u}))
	case "mcp_tool_call_end":
		emit(s.Event(&event.Event{Update: legacyMCPEnd(&m)}))
	case "plan_update":
		entries := make([]event.PlanEntry, len(m.Plan))
		for i, p := range m.Plan {
			entries[i] = event.PlanEntry{Content: p.Step, Status: p.Status}
		}
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.Plan, Entries: entries}}))
	case "token_count":
		return s.legacyTokens(ln, &m, emit)
	case "stream_error":
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.Error, Message: m.Message}}))
	case "error":
		// Held past the line: when the events are lent, m refers to an
		// array the next line is decoded into (hold copies it).
		s.hold(l, m.Message)
	case "turn_aborted":
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.Error, Message: "turn aborted: " + m.Reason, Fatal: true}}))
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.Result, IsError: event.Bool(true), Subtype: m.Type, Text: s.lastText.Text(&s.Lender)}}))
	case "task_complete":
		text := s.lastText.Text(&s.Lender)
		if m.LastAgentMessage != nil {
			text = *m.LastAgentMessage
		}
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: m.Type, Text: text}}))
	default:
		return false
	}
	return true
}

// legacyConfig reads the config summary the legacy format prints first:
// flat string settings such as model, workdir, sandbox, "reasoning effort".
func (s *codexStream) legacyConfig(b []byte, ln *codexLine, emit agents.Emit) bool {
	// Each setting is read as a string: null reads as "", a value of
	// another kind is left out. Its strings refer to the line (the driver
	// copies what a kept event refers to).
	m := s.config
	if m == nil || !s.Lends() {
		m = map[string]any{}
	}
	clear(m)
	if agents.DecodeInto(b, &m) != nil {
		// A number too large for a float64 fails this decoding but not
		// the line's: read it as raw values, as the settings are.
		return s.legacyConfigRaw(b, ln, emit)
	}
	if s.Lends() {
		s.config = m
	}
	ev := s.Event(&event.Event{Model: ln.Model, Update: event.Update{SessionUpdate: event.SessionStart}})
	if ln.Workdir != nil {
		ev.Update.Cwd = *ln.Workdir
	}
	for k, v := range m {
		if k == "model" || k == "workdir" {
			continue
		}
		switch v.(type) {
		case string:
		case nil:
			v = ""
		default:
			continue
		}
		if ev.Extra == nil {
			ev.Extra = s.Extras(&s.configExtra)
		}
		ev.Extra[k] = v
	}
	emit(ev)
	return true
}

// legacyConfigRaw is legacyConfig for a line whose values do not all
// decode as Go values: each is read from its raw JSON.
func (s *codexStream) legacyConfigRaw(b []byte, ln *codexLine, emit agents.Emit) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	ev := &event.Event{Model: ln.Model, Update: event.Update{SessionUpdate: event.SessionStart}}
	if ln.Workdir != nil {
		ev.Update.Cwd = *ln.Workdir
	}
	for k, v := range m {
		if k == "model" || k == "workdir" {
			continue
		}
		var str string
		if json.Unmarshal(v, &str) != nil {
			continue
		}
		if ev.Extra == nil {
			ev.Extra = map[string]any{}
		}
		ev.Extra[k] = str
	}
	emit(ev)
	return true
}

// legacyTokens reads a token_count. The flat shape (input_tokens, …) is the
// usage of one model response, so it is a call usage with a synthetic
// message id (the submission id and a sequence number: the format has no
// message ids). The later {info:{total_token_usage}} shape is a run total.
func (s *codexStream) legacyTokens(ln *codexLine, m *codexLegacyMsg, emit agents.Emit) bool {
	if m.Info != nil && len(m.Info.Total) > 0 {
		u, ok := codexUsage(m.Info.Total)
		if !ok {
			return false
		}
		u.Scope = event.ScopeRun
		emit(s.Event(&event.Event{Update: u}))
		return true
	}
	// The flat counters sit beside "type", which codexUsage skips as it is
	// not a number.
	u, ok := codexUsage(ln.Msg)
	if !ok || (u.PromptTokens == nil && u.CompletionTokens == nil) {
		// token_count with info:null carries no figures.
		return ok
	}
	u.Scope = event.ScopeCall
	s.usageSeq++
	id := strings.Trim(string(ln.ID), `"`)
	emit(s.Event(&event.Event{MessageID: "codex-" + id + "-" + strconv.Itoa(s.usageSeq), Update: u}))
	return true
}

// legacyMCPEnd is the update of mcp_tool_call_end, whose result is a Rust
// Result: {"Ok":{content…}} or {"Err":"message"}.
func legacyMCPEnd(m *codexLegacyMsg) event.Update {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: m.CallID, Status: event.StatusCompleted}
	var r struct {
		Ok  json.RawMessage `json:"Ok"`
		Err *string         `json:"Err"`
	}
	if len(m.Result) > 0 && json.Unmarshal(m.Result, &r) == nil {
		u.RawOutput = m.Result
		if len(r.Ok) > 0 {
			u.Content = mcpContent(r.Ok)
		}
		if r.Err != nil {
			u.Status, u.Message = event.StatusFailed, *r.Err
		}
	}
	return u
}

// joinOutput joins a command's stdout and stderr as one text.
func joinOutput(stdout, stderr string) string {
	switch {
	case stdout == "":
		return stderr
	case stderr == "":
		return stdout
	}
	return strings.TrimSuffix(stdout, "\n") + "\n" + stderr
}
