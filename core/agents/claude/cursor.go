package claude

import (
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// cursorThinking reads Cursor's thinking/delta and thinking/completed
// lines: a delta is a thought chunk, a completion carries nothing.
func (s *claudeStream) cursorThinking(cl *claudeLine, base event.Event, emit agents.Emit) bool {
	if cl.Subtype == "delta" && cl.Text != "" {
		emit(s.ContentEvent(&base, event.Update{SessionUpdate: event.AgentThoughtChunk}, event.Text(cl.Text)))
		return true
	}
	return cl.Subtype == "completed"
}

// cursorTool reads Cursor's tool_call/started and tool_call/completed lines.
// The call is keyed by its kind (`shellToolCall`, `editToolCall`, …).
func (s *claudeStream) cursorTool(cl *claudeLine, base event.Event, emit agents.Emit) bool {
	var kindKey string
	var body json.RawMessage
	var started, completed string
	for k, v := range cl.ToolCall {
		switch k {
		case "startedAtMs":
			_ = json.UnmarshalOf(v, &started)
		case "completedAtMs":
			_ = json.UnmarshalOf(v, &completed)
		case "toolCallId", "hookAdditionalContexts":
		default:
			if strings.HasSuffix(k, "ToolCall") || kindKey == "" && len(v) > 0 && v[0] == '{' {
				kindKey, body = k, v
			}
		}
	}
	if kindKey == "" || cl.CallID == "" {
		return false
	}
	var call struct {
		Args   json.RawMessage            `json:"args"`
		Result map[string]json.RawMessage `json:"result"`
	}
	if json.Unmarshal(body, &call) != nil {
		return false
	}
	name := strings.TrimSuffix(kindKey, "ToolCall")
	ev := s.Event(&base)
	switch cl.Subtype {
	case "started":
		ev.Update = event.Update{SessionUpdate: event.ToolCall, ToolCallID: cl.CallID, Status: event.StatusInProgress}
		agents.DescribeTool(&ev.Update, name, call.Args)
		ev.Update.ToolKind = agents.ToolKindOf(kindKey)
		ev.Update.StartedAt = agents.MSString(started)
	case "completed":
		ev.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: cl.CallID, ToolName: name,
			ToolKind: agents.ToolKindOf(kindKey), Status: event.StatusCompleted,
			StartedAt: agents.MSString(started), EndedAt: agents.MSString(completed)}
		if outcome, res := cursorOutcome(call.Result); outcome != "" {
			ev.Update.RawOutput = res
			var r struct {
				ExitCode *int   `json:"exitCode"`
				Stdout   string `json:"stdout"`
				Stderr   string `json:"stderr"`
				Message  string `json:"message"`
				Error    string `json:"error"`
			}
			_ = json.UnmarshalOf(res, &r)
			ev.Update.ExitCode = r.ExitCode
			text := r.Stdout + r.Stderr
			if text == "" {
				text = r.Message
			}
			ev.Update.Content = event.Text(text)
			if outcome != "success" || (r.ExitCode != nil && *r.ExitCode != 0) {
				ev.Update.Status = event.StatusFailed
				ev.Update.Message = agents.FirstNonEmpty(r.Error, r.Stderr, r.Message, outcome)
				if outcome == "rejected" || outcome == "permissionDenied" {
					ev.Update.ApprovalRequired = true
				}
			}
		}
	default:
		return false
	}
	emit(ev)
	return true
}

// cursorOutcome picks the outcome of a Cursor tool result: "success" when
// present, else the first other object-valued key (failure, rejected, …).
func cursorOutcome(result map[string]json.RawMessage) (string, json.RawMessage) {
	if res, ok := result["success"]; ok {
		return "success", res
	}
	outcome := ""
	for k, v := range result {
		if len(v) > 0 && v[0] == '{' && (outcome == "" || k < outcome) {
			outcome = k
		}
	}
	return outcome, result[outcome]
}
