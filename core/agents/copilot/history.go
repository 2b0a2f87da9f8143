package copilot

import (
	"bytes"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// copilotHistoryParser reads Copilot CLI's session events, as 1.0.102
// writes them: one {type, data, id, timestamp, parentId} a line, of types
// session.start (sessionId, copilotVersion, selectedModel, context.cwd),
// user.message, assistant.message (content, toolRequests, model,
// apiCallId), session.usage_record (usage per request), tool.execution_
// start / _complete (success, shellExecution.exitCode, result.content),
// session.error and session.shutdown, and bookkeeping (system.message,
// assistant.turn_start / _end, …).
type copilotHistoryParser struct{}

// Kind implements Parser.
func (copilotHistoryParser) Kind() agents.Kind { return agents.CopilotHistory }

// NewStream implements Parser.
func (copilotHistoryParser) NewStream() agents.Stream { return &copilotHistoryStream{} }

// EndsWithResult implements Parser: the log has no result line.
func (copilotHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: an event with its data, id and parentId whose
// type is one of the log's dotted families.
func (copilotHistoryParser) Claims(line []byte) bool {
	if !bytes.Contains(line, []byte(`"data"`)) || !bytes.Contains(line, []byte(`"parentId"`)) {
		return false
	}
	for _, p := range [...]string{`"type":"session.`, `"type":"user.message"`, `"type":"assistant.`,
		`"type":"tool.execution_`, `"type":"system.message"`} {
		if bytes.Contains(line, []byte(p)) {
			return true
		}
	}
	return false
}

// copilotEvent is one event of the log, as far as sift reads it.
type copilotEvent struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		// session.start
		SessionID string `json:"sessionId"`
		Version   string `json:"copilotVersion"`
		Selected  string `json:"selectedModel"`
		Context   struct {
			Cwd string `json:"cwd"`
		} `json:"context"`
		// user.message, assistant.message, session.error
		Content   string `json:"content"`
		Reasoning string `json:"reasoningText"`
		Model     string `json:"model"`
		APICallID string `json:"apiCallId"`
		Requests  []struct {
			ID        string          `json:"toolCallId"`
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolRequests"`
		Message string `json:"message"`
		// session.usage_record
		Usage *struct {
			Model      string `json:"model"`
			Input      *int64 `json:"inputTokens"`
			Output     *int64 `json:"outputTokens"`
			CacheRead  *int64 `json:"cacheReadTokens"`
			CacheWrite *int64 `json:"cacheWriteTokens"`
			APICallID  string `json:"apiCallId"`
		} `json:"usage"`
		// tool.execution_complete
		ToolCallID string `json:"toolCallId"`
		Success    *bool  `json:"success"`
		Shell      *struct {
			ExitCode *int `json:"exitCode"`
		} `json:"shellExecution"`
		Result *struct {
			Content string `json:"content"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"data"`
}

type copilotHistoryStream struct {
	model string
}

// Line implements Stream.
func (s *copilotHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var e copilotEvent
	if json.Unmarshal(l.Bytes, &e) != nil || !strings.Contains(e.Type, ".") {
		return false
	}
	d := &e.Data
	base := event.Event{Timestamp: agents.ISOTime(e.Timestamp), Model: s.model}
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		emit(&ev)
	}
	switch e.Type {
	case "session.start":
		s.model = d.Selected
		ev := base
		ev.SessionID, ev.Model = d.SessionID, d.Selected
		ev.Update = event.Update{SessionUpdate: event.SessionStart, Cwd: d.Context.Cwd, CLIVersion: d.Version}
		emit(&ev)
	case "user.message":
		if d.Content != "" {
			put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(d.Content)})
		}
	case "assistant.message":
		if d.Model != "" {
			s.model, base.Model = d.Model, d.Model
		}
		base.MessageID = d.APICallID
		if d.Reasoning != "" {
			put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(d.Reasoning)})
		}
		if d.Content != "" {
			put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(d.Content)})
		}
		for _, r := range d.Requests {
			u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: r.ID, Status: event.StatusPending}
			agents.DescribeTool(&u, r.Name, r.Arguments)
			put(u)
		}
	case "session.usage_record":
		if u := d.Usage; u != nil && (u.Input != nil || u.Output != nil) {
			// inputTokens includes the cached share, as sift counts it.
			if u.Model != "" {
				base.Model = u.Model
			}
			base.MessageID = u.APICallID
			up := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall,
				PromptTokens: u.Input, CompletionTokens: u.Output, CachedTokens: u.CacheRead}
			if u.CacheWrite != nil {
				up.UsageExtra = map[string]int64{"cacheWriteTokens": *u.CacheWrite}
			}
			put(up)
		}
	case "tool.execution_complete":
		put(copilotResult(&e))
	case "session.error":
		put(event.Update{SessionUpdate: event.Error, Message: d.Message})
	}
	return true
}

// copilotResult is a finished tool call: failed when the CLI says so or a
// shell command exited non-zero.
func copilotResult(e *copilotEvent) event.Update {
	d := &e.Data
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: d.ToolCallID, Status: event.StatusCompleted}
	var text string
	if d.Result != nil {
		text = d.Result.Content
	}
	if d.Shell != nil {
		u.ExitCode = d.Shell.ExitCode
	}
	if (d.Success != nil && !*d.Success) || (u.ExitCode != nil && *u.ExitCode != 0) {
		u.Status = event.StatusFailed
		u.Message = agents.FirstLine(text)
		if d.Error != nil && d.Error.Message != "" {
			u.Message = d.Error.Message
		}
	}
	if text != "" {
		u.Content = event.Text(text)
	}
	return u
}

// Finish implements Stream.
func (s *copilotHistoryStream) Finish(agents.Emit) {}

// copilotHistoryDirs is the folder Copilot CLI keeps its sessions in:
// session-state under $COPILOT_HOME, else under ~/.copilot.
func copilotHistoryDirs(getenv func(string) string, home string) []string {
	dir := getenv("COPILOT_HOME")
	if dir == "" && home != "" {
		dir = filepath.Join(home, ".copilot")
	}
	if dir == "" {
		return nil
	}
	return []string{filepath.Join(dir, "session-state")}
}

// copilotSession names a Copilot CLI session by its id: <id>/events.jsonl,
// or an older build's <id>.jsonl. Its work item is the cwd it records,
// once read.
func copilotSession(parts []string) (workItem, name string, ok bool) {
	name = parts[len(parts)-1]
	switch {
	case len(parts) == 2 && name == "events.jsonl":
		return "copilot", parts[0] + ".jsonl", true
	case len(parts) == 1 && strings.HasSuffix(name, ".jsonl"):
		return "copilot", name, true
	}
	return "", name, false
}

// copilotHistoryRoot is the session-state folder a session's log is in.
func copilotHistoryRoot(path string) string {
	if filepath.Base(path) == "events.jsonl" {
		return agents.UpDirs(path, 2)
	}
	return agents.UpDirs(path, 1)
}
