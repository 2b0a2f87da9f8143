package qwen

import (
	"bytes"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/claude"
	"github.com/agentsift/sift/core/event"
)

// qwenHistoryParser reads Qwen Code chat recordings, after
// packages/core/src/services/chatRecordingService.ts (ChatRecord): one
// record a line, {uuid, parentUuid, sessionId, timestamp, type: user |
// assistant | tool_result | system, cwd, version, message: a Gemini
// Content {role, parts}}, an assistant record with its model and
// usageMetadata, a tool_result record with toolCallResult {callId,
// status, resultDisplay}, a system record with a subtype and its
// systemPayload (ui_telemetry carries the API errors).
type qwenHistoryParser struct{}

// Kind implements Parser.
func (qwenHistoryParser) Kind() agents.Kind { return agents.QwenHistory }

// NewStream implements Parser.
func (qwenHistoryParser) NewStream() agents.Stream { return &qwenHistoryStream{} }

// EndsWithResult implements Parser: a chat recording has no result line.
func (qwenHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a chat record names its session and parent
// like a Claude Code transcript line (claudeHistoryParser leaves it to
// this parser), and holds Gemini parts or Qwen's own fields.
func (qwenHistoryParser) Claims(line []byte) bool {
	return bytes.Contains(line, []byte(`"sessionId"`)) && bytes.Contains(line, []byte(`"parentUuid"`)) &&
		claude.IsQwenRecord(line)
}

// qwenRecord is a ChatRecord, as far as sift reads it.
type qwenRecord struct {
	UUID      string `json:"uuid"`
	SessionID string `json:"sessionId"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Cwd       string `json:"cwd"`
	Version   string `json:"version"`
	Model     string `json:"model"`
	Message   *struct {
		Role  string     `json:"role"`
		Parts []qwenPart `json:"parts"`
	} `json:"message"`
	Usage *struct {
		Prompt     *int64 `json:"promptTokenCount"`
		Candidates *int64 `json:"candidatesTokenCount"`
		Thoughts   *int64 `json:"thoughtsTokenCount"`
		Cached     *int64 `json:"cachedContentTokenCount"`
		Total      *int64 `json:"totalTokenCount"`
	} `json:"usageMetadata"`
	Result *struct {
		CallID  string          `json:"callId"`
		Status  string          `json:"status"`
		Display json.RawMessage `json:"resultDisplay"`
	} `json:"toolCallResult"`
	Payload *struct {
		UIEvent *struct {
			Name  string `json:"event.name"`
			Error string `json:"error_message"`
		} `json:"uiEvent"`
	} `json:"systemPayload"`
}

// qwenPart is one Gemini Part of a record's message.
type qwenPart struct {
	Text         string `json:"text"`
	Thought      bool   `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Response struct {
			Output string `json:"output"`
			Error  string `json:"error"`
		} `json:"response"`
	} `json:"functionResponse"`
}

type qwenHistoryStream struct {
	started bool
}

// Line implements Stream.
func (s *qwenHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var r qwenRecord
	if json.Unmarshal(l.Bytes, &r) != nil || r.SessionID == "" || r.Type == "" {
		return false
	}
	base := event.Event{Timestamp: agents.ISOTime(r.Timestamp), Model: r.Model}
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		emit(&ev)
	}
	if !s.started {
		s.started = true
		ev := base
		ev.SessionID = r.SessionID
		ev.Update = event.Update{SessionUpdate: event.SessionStart, Cwd: r.Cwd, CLIVersion: r.Version}
		emit(&ev)
	}
	switch r.Type {
	case "user":
		if r.Message != nil {
			if t := qwenText(r.Message.Parts, false); t != "" {
				put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(t)})
			}
		}
	case "assistant":
		base.MessageID = r.UUID
		s.assistant(&r, put)
	case "tool_result":
		s.toolResult(&r, put)
	case "system":
		if p := r.Payload; p != nil && p.UIEvent != nil && p.UIEvent.Name == "qwen-code.api_error" {
			put(event.Update{SessionUpdate: event.Error, Message: p.UIEvent.Error})
		}
	default:
		return false
	}
	return true
}

// assistant emits a model response: its thoughts, text, calls and usage.
func (s *qwenHistoryStream) assistant(r *qwenRecord, put func(event.Update)) {
	if r.Message != nil {
		if t := qwenText(r.Message.Parts, true); t != "" {
			put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(t)})
		}
		if t := qwenText(r.Message.Parts, false); t != "" {
			put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(t)})
		}
		for _, p := range r.Message.Parts {
			if fc := p.FunctionCall; fc != nil {
				u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: fc.ID, Status: event.StatusPending}
				agents.DescribeTool(&u, fc.Name, fc.Args)
				put(u)
			}
		}
	}
	if um := r.Usage; um != nil && (um.Prompt != nil || um.Candidates != nil || um.Total != nil) {
		// promptTokenCount includes the cached share, as sift counts it;
		// the thoughts are output (geminiCounts).
		prompt, completion := agents.GeminiCounts(um.Prompt, nil, um.Candidates, um.Thoughts, um.Total)
		u := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall,
			PromptTokens: prompt, CompletionTokens: completion, CachedTokens: um.Cached}
		extra := map[string]int64{}
		if um.Thoughts != nil {
			extra["thoughts"] = *um.Thoughts
		}
		if um.Total != nil {
			extra["total"] = *um.Total
		}
		if len(extra) > 0 {
			u.UsageExtra = extra
		}
		put(u)
	}
}

// toolResult emits the results of the calls a tool_result record answers:
// its functionResponse parts, with toolCallResult's status and the exit
// code of a shell result.
func (s *qwenHistoryStream) toolResult(r *qwenRecord, put func(event.Update)) {
	if r.Message == nil {
		return
	}
	for _, p := range r.Message.Parts {
		fr := p.FunctionResponse
		if fr == nil {
			continue
		}
		u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: fr.ID, Status: event.StatusCompleted}
		text := fr.Response.Output
		if fr.Response.Error != "" {
			u.Status, text = event.StatusFailed, fr.Response.Error
		}
		if res := r.Result; res != nil && res.CallID == fr.ID {
			switch res.Status {
			case "error", "cancelled":
				u.Status = event.StatusFailed
			}
			var d struct {
				Type     string `json:"type"`
				ExitCode *int   `json:"exitCode"`
			}
			if json.Unmarshal(res.Display, &d) == nil && d.Type == "shell_result" {
				u.ExitCode = d.ExitCode
			}
		}
		if text != "" {
			u.Content = event.Text(text)
		}
		if u.Status == event.StatusFailed {
			u.Message = agents.FirstLine(text)
		}
		put(u)
	}
}

// qwenText joins the text parts of a message, its thoughts or the rest.
func qwenText(parts []qwenPart, thoughts bool) string {
	var out []string
	for _, p := range parts {
		if p.Text != "" && p.Thought == thoughts {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// Finish implements Stream.
func (s *qwenHistoryStream) Finish(agents.Emit) {}

// qwenHistoryDirs is the folder Qwen Code keeps its chats in: projects
// under $QWEN_RUNTIME_DIR (its runtime output folder), else under
// $QWEN_HOME, else under ~/.qwen.
func qwenHistoryDirs(getenv func(string) string, home string) []string {
	dir := getenv("QWEN_RUNTIME_DIR")
	if dir == "" {
		dir = getenv("QWEN_HOME")
	}
	if dir == "" && home != "" {
		dir = filepath.Join(home, ".qwen")
	}
	if dir == "" {
		return nil
	}
	return []string{filepath.Join(dir, "projects")}
}

// qwenSession names a Qwen Code chat, <project>/chats/<session id>.jsonl.
// Its work item is the cwd it records, once read.
func qwenSession(parts []string) (workItem, name string, ok bool) {
	name = parts[len(parts)-1]
	if len(parts) != 3 || parts[1] != "chats" || !strings.HasSuffix(name, ".jsonl") {
		return "", name, false
	}
	return parts[0], name, true
}

// qwenHistoryRoot is the projects folder a chat is under.
func qwenHistoryRoot(path string) string { return agents.UpDirs(path, 3) }
