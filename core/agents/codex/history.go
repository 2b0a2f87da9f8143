package codex

import (
	"bytes"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// codexHistoryParser reads Codex rollouts. Each line is a RolloutLine of
// codex-rs/protocol: {"timestamp", "type", "payload"} with type
// session_meta, response_item (a Responses API item: message, reasoning,
// function_call, function_call_output, custom_tool_call(_output),
// local_shell_call, web_search_call), event_msg (an EventMsg; token_count
// carries the usage), turn_context (cwd, model) or compacted.
type codexHistoryParser struct{}

// Kind implements Parser.
func (codexHistoryParser) Kind() agents.Kind { return agents.CodexHistory }

// NewStream implements Parser.
func (codexHistoryParser) NewStream() agents.Stream { return &codexHistoryStream{} }

// EndsWithResult implements Parser: a rollout has no result line.
func (codexHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a rollout line is a timestamped
// {"type","payload"} object of one of the rollout item types.
func (codexHistoryParser) Claims(line []byte) bool {
	if !bytes.Contains(line, []byte(`"payload"`)) || !bytes.Contains(line, []byte(`"timestamp"`)) {
		return false
	}
	for _, t := range [...]string{"session_meta", "response_item", "event_msg", "turn_context", "compacted"} {
		if agents.HasType(line, t) {
			return true
		}
	}
	return false
}

// codexRollout is one rollout line; the payload is decoded by type.
type codexRollout struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// codexPayload is the union of the payload fields sift reads.
type codexPayload struct {
	Type string `json:"type"`
	// session_meta
	ID         string `json:"id"`
	Cwd        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	// turn_context
	Model string `json:"model"`
	// response_item
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   json.RawMessage `json:"summary"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Status    string          `json:"status"`
	Action    json.RawMessage `json:"action"`
	// event_msg
	Info    *codexTokenInfo `json:"info"`
	Message string          `json:"message"`
}

type codexText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// codexTokenInfo is TokenUsageInfo: the running total and the last call,
// and the model some builds name there.
type codexTokenInfo struct {
	Total     *codexTokenUsage `json:"total_token_usage"`
	Last      *codexTokenUsage `json:"last_token_usage"`
	Model     string           `json:"model"`
	ModelName string           `json:"model_name"`
	Metadata  *struct {
		Model string `json:"model"`
	} `json:"metadata"`
}

// model is the model a token_count names for its request: info.model,
// else info.model_name, else info.metadata.model, else the payload's own
// model, as @ccusage/codex reads them; "" when none does.
func (i *codexTokenInfo) model(payload string) string {
	for _, m := range [...]string{i.Model, i.ModelName, i.metadataModel(), payload} {
		if m = strings.TrimSpace(m); m != "" {
			return m
		}
	}
	return ""
}

func (i *codexTokenInfo) metadataModel() string {
	if i.Metadata == nil {
		return ""
	}
	return i.Metadata.Model
}

// codexTokenUsage is TokenUsage; input_tokens includes the cached share.
type codexTokenUsage struct {
	Input     *int64 `json:"input_tokens"`
	Cached    *int64 `json:"cached_input_tokens"`
	Output    *int64 `json:"output_tokens"`
	Reasoning *int64 `json:"reasoning_output_tokens"`
	Total     *int64 `json:"total_tokens"`
}

type codexHistoryStream struct {
	started bool
	model   string
	// tokens follows the thread's running total (tokens.go).
	tokens codexTokens
	// response is the id of the last token_usage_record (Codex 0.17x: one
	// per response), which names the call the next token_count counts.
	response string
	// said holds the last text of each role, from a response_item message
	// or an event_msg: a rollout writes most messages both ways, in either
	// order, and some only as event_msg (older builds).
	said [2]string
}

// Line implements Stream.
func (s *codexHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var rl codexRollout
	if json.Unmarshal(l.Bytes, &rl) != nil {
		return false
	}
	var p codexPayload
	if len(rl.Payload) > 0 && rl.Payload[0] == '{' {
		if json.Unmarshal(rl.Payload, &p) != nil {
			return false
		}
	}
	base := event.Event{Timestamp: agents.ISOTime(rl.Timestamp), Model: s.model}
	if len(rl.Payload) == 0 {
		return s.directLine(l.Bytes, &rl, base, emit)
	}
	switch rl.Type {
	case "session_meta":
		// A forked rollout copies its ancestors' session_meta after its
		// own: the first names the session, the last the thread the
		// lines that follow come from.
		s.tokens.thread = strings.Clone(p.ID)
		if s.started {
			return true
		}
		return s.start(p.ID, p.Cwd, p.CLIVersion, base, emit)
	case "turn_context":
		if p.Model != "" {
			s.model = p.Model
		}
		return true
	case "compacted", "world_state":
		return true
	case "token_usage_record":
		return s.usageRecord(rl.Payload)
	case "response_item":
		return s.item(&p, base, emit)
	case "event_msg":
		return s.eventMsg(&p, base, emit)
	}
	return false
}

// start emits the session's start.
func (s *codexHistoryStream) start(id, cwd, version string, base event.Event, emit agents.Emit) bool {
	s.started = true
	ev := base
	ev.SessionID = id
	ev.Update = event.Update{SessionUpdate: event.SessionStart, Cwd: cwd, CLIVersion: version}
	emit(&ev)
	return true
}

// directLine reads a line of the rollouts Codex wrote before RolloutLine
// (mid 2025): a first line of session metadata ({"id","timestamp",
// "instructions"}), then bare Responses API items ({"type":"message",…})
// and {"record_type":"state"} markers, with no envelope.
func (s *codexHistoryStream) directLine(b []byte, rl *codexRollout, base event.Event, emit agents.Emit) bool {
	var d struct {
		ID         string `json:"id"`
		RecordType string `json:"record_type"`
	}
	if json.Unmarshal(b, &d) != nil {
		return false
	}
	switch {
	case d.RecordType != "":
		return true
	case rl.Type == "" && d.ID != "" && rl.Timestamp != "":
		if s.started {
			return true
		}
		s.tokens.thread = strings.Clone(d.ID)
		return s.start(d.ID, "", "", base, emit)
	case rl.Type == "":
		return false
	}
	var p codexPayload
	if json.Unmarshal(b, &p) != nil {
		return false
	}
	return s.item(&p, base, emit)
}

// item emits a Responses API item.
func (s *codexHistoryStream) item(p *codexPayload, base event.Event, emit agents.Emit) bool {
	ev := base
	switch p.Type {
	case "message":
		text := codexContentText(p.Content)
		if text == "" || (p.Role != "user" && p.Role != "assistant") {
			// Developer and system messages are Codex's own
			// instructions, not the conversation.
			return true
		}
		if !s.say(p.Role == "assistant", text) {
			return true
		}
		kind := event.UserMessageChunk
		if p.Role == "assistant" {
			kind = event.AgentMessageChunk
		}
		ev.Update = event.Update{SessionUpdate: kind, Content: event.Text(text)}
	case "reasoning":
		var summary []codexText
		_ = json.Unmarshal(p.Summary, &summary)
		var parts []string
		for _, t := range summary {
			if t.Text != "" {
				parts = append(parts, t.Text)
			}
		}
		if len(parts) == 0 {
			return true
		}
		ev.Update = event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(strings.Join(parts, "\n"))}
	case "function_call", "custom_tool_call":
		in := json.RawMessage(p.Arguments)
		if p.Type == "custom_tool_call" || !json.Valid(in) {
			in, _ = json.Marshal(map[string]string{"input": p.Input + p.Arguments})
		}
		ev.Update = event.Update{SessionUpdate: event.ToolCall, ToolCallID: p.CallID, Status: event.StatusPending}
		agents.DescribeTool(&ev.Update, p.Name, in)
	case "local_shell_call":
		var a struct {
			Command []string `json:"command"`
		}
		_ = json.Unmarshal(p.Action, &a)
		in, _ := json.Marshal(map[string]string{"command": strings.Join(a.Command, " ")})
		ev.Update = event.Update{SessionUpdate: event.ToolCall, ToolCallID: p.CallID, Status: event.StatusPending}
		agents.DescribeTool(&ev.Update, "local_shell", in)
	case "web_search_call":
		ev.Update = event.Update{SessionUpdate: event.ToolCall, Status: event.StatusCompleted}
		agents.DescribeTool(&ev.Update, "web_search", p.Action)
	case "function_call_output", "custom_tool_call_output":
		ev.Update = codexOutput(p)
	case "ghost_snapshot", "compaction", "compaction_summary":
		return true
	default:
		return false
	}
	emit(&ev)
	return true
}

// codexContentText joins the text of a message's content items.
func codexContentText(raw json.RawMessage) string {
	var items []codexText
	if json.Unmarshal(raw, &items) != nil {
		return ""
	}
	var parts []string
	for _, it := range items {
		if it.Text != "" {
			parts = append(parts, it.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// codexOutput is the result of a call. The output is a string, or content
// items; older Codex wrapped shell results as a JSON string
// {"output","metadata":{"exit_code"}}, newer ones print "Exit code: N".
func codexOutput(p *codexPayload) event.Update {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: p.CallID, Status: event.StatusCompleted}
	var text string
	if len(p.Output) > 0 && p.Output[0] == '"' {
		_ = json.Unmarshal(p.Output, &text)
	} else {
		text = codexContentText(p.Output)
	}
	var wrapped struct {
		Output   string `json:"output"`
		Metadata *struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if strings.HasPrefix(text, "{") && json.Unmarshal([]byte(text), &wrapped) == nil && wrapped.Metadata != nil {
		text = wrapped.Output
		u.ExitCode = wrapped.Metadata.ExitCode
	} else if n, ok := agents.CodexExitLine(text); ok {
		u.ExitCode = &n
	}
	if u.ExitCode != nil && *u.ExitCode != 0 {
		u.Status = event.StatusFailed
	}
	u.Content = event.Text(text)
	return u
}

// usageRecord reads a token_usage_record: the usage of one response,
// which the token_count that follows it also counts. Only its response id
// is kept, to name that call.
func (s *codexHistoryStream) usageRecord(raw json.RawMessage) bool {
	var r struct {
		ResponseID string           `json:"response_id"`
		Usage      *codexTokenUsage `json:"usage"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Usage == nil {
		return false
	}
	s.response = r.ResponseID
	return true
}

// say records a message's text for its role and reports whether it is new:
// not the text the other form of the same message just gave.
func (s *codexHistoryStream) say(agent bool, text string) bool {
	i := 0
	if agent {
		i = 1
	}
	if s.said[i] == text {
		return false
	}
	s.said[i] = text
	return true
}

// eventMsg reads the EventMsg lines that add to the response items: token
// counts, errors, and the messages a rollout holds only as event_msg. The
// others mark turns or repeat items, and are read quietly.
func (s *codexHistoryStream) eventMsg(p *codexPayload, base event.Event, emit agents.Emit) bool {
	switch p.Type {
	case "token_count":
		if p.Info == nil {
			return true
		}
		if m := p.Info.model(p.Model); m != "" {
			// The request's own model names it and those that follow,
			// until a turn_context or another token_count names one.
			s.model, base.Model = m, m
		}
		c, ok, reset := s.tokens.call(p.Info)
		if !ok {
			return true
		}
		ev := base
		ev.MessageID, s.response = s.response, ""
		ev.Update = c.usage()
		if p.Info.Total != nil {
			ev.Extra = map[string]any{"callKey": s.tokens.key()}
			switch reset {
			case codexRestarted:
				ev.Extra["tokenCounterReset"] = true
			case codexUnexplained:
				ev.Extra["tokenCounterReset"] = true
				ev.Extra["tokenTotalUnknown"] = true
			}
		}
		emit(&ev)
	case "agent_message", "user_message":
		agent := p.Type == "agent_message"
		if p.Message == "" || !s.say(agent, p.Message) {
			return true
		}
		ev := base
		ev.Update = event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(p.Message)}
		if agent {
			ev.Update.SessionUpdate = event.AgentMessageChunk
		}
		emit(&ev)
	case "error", "stream_error":
		ev := base
		ev.Update = event.Update{SessionUpdate: event.Error, Message: p.Message}
		emit(&ev)
	}
	return true
}

// Finish implements Stream.
func (s *codexHistoryStream) Finish(agents.Emit) {}
