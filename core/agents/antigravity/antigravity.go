package antigravity

import (
	"bytes"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/claude"
	"github.com/agentsift/sift/core/event"
)

// antigravityParser reads Antigravity's `agy -p --output-format
// stream-json`. Older builds print Claude's shape, so every line agy does
// not own is handed to the Claude-shaped stream. agy 1.1.8+ prints its own
// lines, each named by `event` (FORMATS.md [S26]; no capture is in the
// fixtures, the shape below is the one public agy integrations quote from
// their captures of agy 1.1.17 and 1.2.x):
//
//	{"event":"init","conversation_id","init":{"model","cwd","tools","permission_mode"}}
//	{"event":"step_update","step_update":{"conversation_id","step_index","state":"ACTIVE|DONE|ERROR","step_type",
//	    "text_delta","thinking_delta","tool_name","tool_info":{"name","parameters","output","error"},
//	    "subagent_info":{"subagents":[{"type_name","conversation_id","log_uri",…}]},"duration_seconds","usage"}}
//	{"event":"result","result":{"conversation_id","status":"SUCCESS|ERROR","response","error","duration_seconds",
//	    "num_turns","usage","denied_actions"}}
//
// `--output-format json` prints the result object alone. agy prints no
// tool call ids and no timestamps: a step is named conversation:step_index.
// Antigravity claims nothing when sniffing; it is chosen by declared kind.
type antigravityParser struct{}

func (antigravityParser) Kind() agents.Kind    { return agents.Antigravity }
func (antigravityParser) Claims(_ []byte) bool { return false }
func (antigravityParser) NewStream() agents.Stream {
	return &agyStream{claude: claude.NewStream(agents.Antigravity), opened: map[string]bool{}}
}

// EndsWithResult implements Parser: agy ends with its result event (older
// builds with Claude's result line).
func (antigravityParser) EndsWithResult() bool { return true }

type agyLine struct {
	Event          string          `json:"event"`
	ConversationID string          `json:"conversation_id"`
	Init           *agyInit        `json:"init"`
	Step           *agyStep        `json:"step_update"`
	Result         *agyResult      `json:"result"`
	Status         string          `json:"status"` // the json envelope's
	Type           json.RawMessage `json:"type"`   // set on Claude-shaped lines
}

type agyInit struct {
	Model          string   `json:"model"`
	Cwd            string   `json:"cwd"`
	Tools          []string `json:"tools"`
	PermissionMode string   `json:"permission_mode"`
	Agent          string   `json:"agent"`
}

type agyStep struct {
	ConversationID  string          `json:"conversation_id"`
	StepIndex       *int64          `json:"step_index"`
	State           string          `json:"state"`
	StepType        string          `json:"step_type"`
	TextDelta       string          `json:"text_delta"`
	ThinkingDelta   string          `json:"thinking_delta"`
	ToolName        string          `json:"tool_name"`
	ToolInfo        json.RawMessage `json:"tool_info"`
	SubagentInfo    json.RawMessage `json:"subagent_info"`
	Output          json.RawMessage `json:"output"`
	Error           json.RawMessage `json:"error"`
	DurationSeconds *float64        `json:"duration_seconds"`
	Usage           *agyUsage       `json:"usage"`
}

type agyToolInfo struct {
	Name       string          `json:"name"`
	Parameters json.RawMessage `json:"parameters"`
	Output     json.RawMessage `json:"output"`
	Error      json.RawMessage `json:"error"`
}

// agyUsage is agy's token count. Its input_tokens excludes the cache-read
// share: total_tokens is input + output in every quoted line, while
// cache_read_tokens can exceed input_tokens (1918 input, 10946 cache read,
// 2082 total on Vertex). output_tokens includes thinking_tokens (810 output
// for 807 thinking and a one-line reply).
type agyUsage struct {
	Input     *int64 `json:"input_tokens"`
	Output    *int64 `json:"output_tokens"`
	Thinking  *int64 `json:"thinking_tokens"`
	CacheRead *int64 `json:"cache_read_tokens"`
	Total     *int64 `json:"total_tokens"`
}

type agyResult struct {
	ConversationID  string          `json:"conversation_id"`
	Status          string          `json:"status"`
	Response        *string         `json:"response"`
	Error           string          `json:"error"`
	DurationSeconds *float64        `json:"duration_seconds"`
	NumTurns        *int            `json:"num_turns"`
	Usage           *agyUsage       `json:"usage"`
	DeniedActions   json.RawMessage `json:"denied_actions"`
}

// agyStream reads agy's own lines and hands the others to the
// Claude-shaped stream of older builds.
type agyStream struct {
	claude agents.Stream
	// opened are the tool steps whose call was emitted.
	opened map[string]bool
}

var (
	agyEventKey = []byte(`"event"`)
	agyConvKey  = []byte(`"conversation_id"`)
)

// Line implements Stream.
func (s *agyStream) Line(l agents.Line, emit agents.Emit) bool {
	if !bytes.Contains(l.Bytes, agyEventKey) && !bytes.Contains(l.Bytes, agyConvKey) {
		return s.delegate(l, emit)
	}
	var a agyLine
	if json.Unmarshal(l.Bytes, &a) != nil {
		return s.delegate(l, emit)
	}
	switch a.Event {
	case "init":
		if a.Init == nil {
			return false
		}
		ev := &event.Event{SessionID: a.ConversationID, Model: a.Init.Model, Update: event.Update{
			SessionUpdate: event.SessionStart, Cwd: a.Init.Cwd, Tools: a.Init.Tools,
		}}
		ev.Extra = map[string]any{}
		if a.Init.PermissionMode != "" {
			ev.Extra["permission_mode"] = a.Init.PermissionMode
		}
		if a.Init.Agent != "" {
			ev.Extra["agent"] = a.Init.Agent
		}
		if len(ev.Extra) == 0 {
			ev.Extra = nil
		}
		emit(ev)
		return true
	case "step_update":
		if a.Step == nil {
			return false
		}
		return s.step(a.Step, a.ConversationID, emit)
	case "result":
		if a.Result == nil {
			return false
		}
		s.result(a.Result, false, emit)
		return true
	case "":
		if len(a.Type) == 0 && a.Status != "" && a.ConversationID != "" {
			// The `--output-format json` envelope: the result alone.
			var r agyResult
			if json.Unmarshal(l.Bytes, &r) == nil {
				s.result(&r, true, emit)
				return true
			}
		}
		return s.delegate(l, emit)
	}
	// An event agy added later: kept as raw.
	return false
}

// delegate hands a line agy does not own to the Claude-shaped stream. A
// line that stream accepts without an event is kept as raw, so every line
// leaves a trace.
func (s *agyStream) delegate(l agents.Line, emit agents.Emit) bool {
	n := 0
	ok := s.claude.Line(l, func(e *event.Event) { n++; emit(e) })
	if ok && n == 0 {
		emit(agents.RawEvent(l.Bytes))
	}
	return ok
}

// Finish implements Stream.
func (s *agyStream) Finish(emit agents.Emit) { s.claude.Finish(emit) }

// step handles one step_update. Steps that carry nothing sift models (a
// bodiless user_input or system_message, checkpoint, finish) and step types
// outside the known vocabulary are kept as raw lines.
func (s *agyStream) step(st *agyStep, conv string, emit agents.Emit) bool {
	if st.ConversationID != "" {
		conv = st.ConversationID
	}
	key := ""
	if st.StepIndex != nil {
		key = conv + ":" + strconv.FormatInt(*st.StepIndex, 10)
	}
	base := event.Event{SessionID: conv}
	switch st.StepType {
	case "user_input":
		if st.TextDelta == "" {
			return false
		}
		ev := base
		ev.Update = event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(st.TextDelta)}
		emit(&ev)
		return true
	case "agent_response", "":
		if st.StepType == "" && st.TextDelta == "" && st.ThinkingDelta == "" && st.Usage == nil {
			return false
		}
		base.MessageID = key
		n := 0
		if st.ThinkingDelta != "" {
			ev := base
			ev.Update = event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(st.ThinkingDelta)}
			emit(&ev)
			n++
		}
		if st.TextDelta != "" {
			ev := base
			ev.Update = event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(st.TextDelta)}
			emit(&ev)
			n++
		}
		if st.Usage != nil {
			ev := base
			ev.Update = agyUsageUpdate(st.Usage, event.ScopeCall)
			emit(&ev)
			n++
		}
		return n > 0
	case "tool", "subagent":
		s.tool(st, key, base, emit)
		return true
	case "error_message":
		ev := base
		ev.Update = event.Update{SessionUpdate: event.Error, Message: agyErrorText(st.Error)}
		if ev.Update.Message == "" {
			ev.Update.Message = st.TextDelta
		}
		emit(&ev)
		return true
	}
	return false
}

// tool handles a tool or subagent step: ACTIVE opens the call, DONE or
// ERROR ends it (opening it first when no ACTIVE was seen).
func (s *agyStream) tool(st *agyStep, key string, base event.Event, emit agents.Emit) {
	var ti agyToolInfo
	_ = json.Unmarshal(st.ToolInfo, &ti) // absent or odd tool_info: no fields
	name := agents.FirstNonEmpty(st.ToolName, ti.Name)
	input := ti.Parameters
	if st.StepType == "subagent" {
		name, input = agents.FirstNonEmpty(name, "subagent"), st.SubagentInfo
	}
	if key == "" {
		key = base.SessionID + ":" + name
	}
	open := !s.opened[key]
	if open {
		ev := base
		ev.Update = event.Update{SessionUpdate: event.ToolCall, ToolCallID: key, Status: event.StatusInProgress}
		agents.DescribeTool(&ev.Update, name, input)
		agyDescribe(&ev.Update, name, input)
		if st.StepType == "subagent" {
			ev.Update.ToolKind = event.ToolThink
			if t := agySubagentNames(st.SubagentInfo); t != "" {
				ev.Update.Title = "Task: " + t
			}
		}
		s.opened[key] = true
		emit(&ev)
	}
	if st.State == "ACTIVE" {
		if !open {
			ev := base
			ev.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: key, ToolName: name, Status: event.StatusInProgress}
			emit(&ev)
		}
		return
	}
	delete(s.opened, key)
	ev := base
	u := &ev.Update
	*u = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: key, ToolName: name, Status: event.StatusCompleted}
	if out := agents.FirstRaw(ti.Output, st.Output); out != nil {
		if text, ok := agents.JSONText(out); ok {
			u.Content = event.Text(text)
		}
	}
	switch {
	case st.StepType == "subagent" && len(st.SubagentInfo) > 0:
		u.RawOutput = st.SubagentInfo
		if u.Content == nil {
			if text := agySubagentText(st.SubagentInfo); text != "" {
				u.Content = event.Text(text)
			}
		}
	case agents.Present(st.ToolInfo):
		u.RawOutput = st.ToolInfo
	case agents.FirstRaw(st.Output) != nil:
		u.RawOutput = st.Output
	}
	if errRaw := agents.FirstRaw(ti.Error, st.Error); errRaw != nil || st.State == "ERROR" {
		u.Status = event.StatusFailed
		u.Message = agyErrorText(errRaw)
		low := strings.ToLower(u.Message)
		u.ApprovalRequired = strings.Contains(low, "permission check failed") || strings.Contains(low, "denied permission")
	}
	u.DurationMs = agents.SecondsMS(st.DurationSeconds)
	emit(&ev)
}

// result handles the terminal result: its error (fatal), the run usage and
// the result. The json envelope also carries the response as the message,
// since nothing was streamed before it.
func (s *agyStream) result(r *agyResult, envelope bool, emit agents.Emit) {
	base := event.Event{SessionID: r.ConversationID}
	ok := r.Status == "SUCCESS" || r.Status == "OK"
	if envelope && r.Response != nil && *r.Response != "" {
		ev := base
		ev.Update = event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(*r.Response)}
		emit(&ev)
	}
	if !ok && r.Error != "" {
		ev := base
		ev.Update = event.Update{SessionUpdate: event.Error, Message: r.Error, Fatal: true}
		emit(&ev)
	}
	if r.Usage != nil {
		ev := base
		ev.Update = agyUsageUpdate(r.Usage, event.ScopeRun)
		emit(&ev)
	}
	ev := base
	u := &ev.Update
	*u = event.Update{SessionUpdate: event.Result, Subtype: r.Status, NumTurns: r.NumTurns, DurationMs: agents.SecondsMS(r.DurationSeconds)}
	if r.Status != "" {
		u.IsError = event.Bool(!ok)
	}
	if r.Response != nil {
		u.Text = *r.Response
	}
	if d := agents.FirstRaw(r.DeniedActions); d != nil && string(d) != "[]" {
		ev.Extra = map[string]any{"denied_actions": d}
	}
	emit(&ev)
}

func agyUsageUpdate(u *agyUsage, scope event.Scope) event.Update {
	up := event.Update{
		SessionUpdate: event.Usage, Scope: scope,
		PromptTokens: agents.SumPresent(u.Input, u.CacheRead), CompletionTokens: u.Output, CachedTokens: u.CacheRead,
	}
	extra := map[string]int64{}
	agents.PutPresent(extra, "thinking_tokens", u.Thinking)
	agents.PutPresent(extra, "total_tokens", u.Total)
	if len(extra) > 0 {
		up.UsageExtra = extra
	}
	return up
}

// agyDescribe fills the title and locations from agy's CamelCase parameters
// (AbsolutePath, TargetFile, CommandLine, …) when the generic keys found
// none.
func agyDescribe(u *event.Update, name string, params json.RawMessage) {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return
	}
	str := func(keys ...string) string {
		for _, k := range keys {
			if s, ok := agents.JSONText(p[k]); ok && s != "" {
				return s
			}
		}
		return ""
	}
	if len(u.Locations) == 0 {
		if path := str("AbsolutePath", "TargetFile", "File", "DirectoryPath", "SearchPath", "SearchDirectory"); path != "" {
			u.Locations = []event.Location{{Path: path}}
		}
	}
	if u.Title != name {
		return
	}
	var verb, obj string
	switch u.ToolKind {
	case event.ToolExecute:
		verb, obj = "Run", str("CommandLine", "Command")
	case event.ToolRead:
		verb, obj = "Read", str("AbsolutePath", "File", "TargetFile")
	case event.ToolEdit:
		verb, obj = "Edit", str("TargetFile", "AbsolutePath", "File")
	case event.ToolSearch:
		verb, obj = "Search", str("Query", "Pattern", "SearchPath", "DirectoryPath")
	case event.ToolFetch:
		verb, obj = "Fetch", str("Url", "URL", "Query")
	}
	if server, tool := str("ServerName"), str("ToolName"); server != "" && tool != "" {
		verb, obj = "MCP", server+"/"+tool
	}
	if verb != "" && obj != "" {
		u.Title = verb + ": " + agents.FirstLine(obj)
	}
}

type agySubagents struct {
	Subagents []struct {
		TypeName       string `json:"type_name"`
		ConversationID string `json:"conversation_id"`
		LogURI         string `json:"log_uri"`
	} `json:"subagents"`
}

// agySubagentNames lists the sub-agent types a subagent step starts.
func agySubagentNames(raw json.RawMessage) string {
	var sa agySubagents
	if json.Unmarshal(raw, &sa) != nil {
		return ""
	}
	names := make([]string, 0, len(sa.Subagents))
	for _, a := range sa.Subagents {
		if a.TypeName != "" {
			names = append(names, a.TypeName)
		}
	}
	return strings.Join(names, ", ")
}

// agySubagentText names each sub-agent's own conversation and log: its
// work is not in this stream, only there.
func agySubagentText(raw json.RawMessage) string {
	var sa agySubagents
	if json.Unmarshal(raw, &sa) != nil {
		return ""
	}
	var lines []string
	for _, a := range sa.Subagents {
		line := agents.FirstNonEmpty(a.TypeName, "subagent") + ": conversation " + a.ConversationID
		if a.LogURI != "" {
			line += ", log " + a.LogURI
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// agyErrorText reads an error printed as {type, message} or as a string.
func agyErrorText(raw json.RawMessage) string {
	if s, ok := agents.JSONText(raw); ok {
		return s
	}
	var e struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return ""
	}
	return agents.FirstNonEmpty(e.Message, e.Type)
}
