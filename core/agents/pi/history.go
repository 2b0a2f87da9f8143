package pi

import (
	"bytes"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// piHistoryParser reads pi's session files, after its docs/session-format.md
// and packages/coding-agent/src/core/session-manager.ts: a header
// {"type":"session", version, id, cwd, timestamp}, then entries {type, id,
// parentId, timestamp}: a message entry holds an AgentMessage (role user,
// assistant with its content blocks, model, usage with cost and
// stopReason, toolResult with isError, bashExecution, custom, …); the
// other entries (model_change, thinking_level_change, compaction,
// branch_summary, custom, label, session_info) are bookkeeping.
type piHistoryParser struct{}

// Kind implements Parser.
func (piHistoryParser) Kind() agents.Kind { return agents.PiHistory }

// NewStream implements Parser.
func (piHistoryParser) NewStream() agents.Stream { return &piHistoryStream{} }

// EndsWithResult implements Parser: a session file has no result line.
func (piHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: the header line, or an entry that links to its
// parent by parentId.
func (piHistoryParser) Claims(line []byte) bool {
	if agents.HasType(line, "session") && bytes.Contains(line, []byte(`"cwd"`)) && bytes.Contains(line, []byte(`"version"`)) {
		return true
	}
	return bytes.Contains(line, []byte(`"parentId"`)) && bytes.Contains(line, []byte(`"timestamp"`)) &&
		(agents.HasType(line, "message") || agents.HasType(line, "model_change") || agents.HasType(line, "thinking_level_change"))
}

// piEntry is a header or an entry, as far as sift reads it.
type piEntry struct {
	Type      string     `json:"type"`
	ID        string     `json:"id"`
	Timestamp string     `json:"timestamp"`
	Cwd       string     `json:"cwd"`
	Message   *piMessage `json:"message"`
}

// piMessage is an AgentMessage.
type piMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason"`
	Error      string          `json:"errorMessage"`
	ToolCallID string          `json:"toolCallId"`
	IsError    bool            `json:"isError"`
	Usage      *struct {
		Input      *int64 `json:"input"`
		Output     *int64 `json:"output"`
		CacheRead  *int64 `json:"cacheRead"`
		CacheWrite *int64 `json:"cacheWrite"`
		Total      *int64 `json:"totalTokens"`
		Cost       *struct {
			Total *float64 `json:"total"`
		} `json:"cost"`
	} `json:"usage"`
}

// piBlock is one content block: text, thinking, toolCall or image.
type piBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type piHistoryStream struct {
	started bool
}

// Line implements Stream.
func (s *piHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var e piEntry
	if json.Unmarshal(l.Bytes, &e) != nil || e.Type == "" {
		return false
	}
	base := event.Event{Timestamp: agents.ISOTime(e.Timestamp)}
	switch e.Type {
	case "session":
		if !s.started {
			s.started = true
			ev := base
			ev.SessionID = e.ID
			ev.Update = event.Update{SessionUpdate: event.SessionStart, Cwd: e.Cwd}
			emit(&ev)
		}
		return true
	case "message":
		if e.Message == nil {
			return false
		}
		s.message(&e, base, emit)
		return true
	case "model_change", "thinking_level_change", "compaction", "branch_summary", "custom", "custom_message",
		"label", "session_info":
		return true
	}
	return false
}

// message emits one message entry.
func (s *piHistoryStream) message(e *piEntry, base event.Event, emit agents.Emit) {
	m := e.Message
	put := func(u event.Update, extra map[string]any) {
		ev := base
		ev.Update = u
		ev.Extra = extra
		emit(&ev)
	}
	blocks := piBlocks(m.Content)
	switch m.Role {
	case "user":
		if t := piText(blocks, "text"); t != "" {
			put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(t)}, nil)
		}
	case "assistant":
		base.Model, base.MessageID = m.Model, e.ID
		s.assistant(m, blocks, put)
	case "toolResult":
		u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: m.ToolCallID, Status: event.StatusCompleted}
		text := piText(blocks, "text")
		if n, ok := piExitCode(text); ok {
			u.ExitCode = &n
		}
		if m.IsError {
			u.Status, u.Message = event.StatusFailed, agents.FirstLine(text)
		}
		if text != "" {
			u.Content = event.Text(text)
		}
		put(u, nil)
	}
}

// assistant emits a model response: thinking, text, calls, its usage, and
// the error that ended it.
func (s *piHistoryStream) assistant(m *piMessage, blocks []piBlock, put func(event.Update, map[string]any)) {
	if t := piText(blocks, "thinking"); t != "" {
		put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(t)}, nil)
	}
	if t := piText(blocks, "text"); t != "" {
		// The stop reason rides on the reply it ended, set before the
		// event is emitted (a consumer reads it there and then).
		var extra map[string]any
		switch m.StopReason {
		case "length":
			extra = map[string]any{"stop_reason": "max_tokens"}
		case "aborted":
			extra = map[string]any{"stop_reason": "aborted"}
		}
		put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(t)}, extra)
	}
	for _, b := range blocks {
		if b.Type == "toolCall" {
			u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: b.ID, Status: event.StatusPending}
			agents.DescribeTool(&u, b.Name, b.Arguments)
			put(u, nil)
		}
	}
	if u := m.Usage; u != nil && (u.Input != nil || u.Output != nil || u.Total != nil) {
		// input is the uncached prompt, as Anthropic counts it: the
		// prompt sift counts adds both cache shares; a totalTokens
		// beyond the parts counts as output, as ccusage's pi adapter
		// counts it (countTotal).
		prompt, completion := agents.CountTotal(agents.SumPresent(u.Input, u.CacheRead, u.CacheWrite), u.Output, u.Total,
			u.Input, u.Output, u.CacheRead, u.CacheWrite)
		up := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall, CompletionTokens: completion,
			CachedTokens: u.CacheRead, PromptTokens: prompt}
		extra := map[string]int64{}
		if u.Input != nil {
			extra["input_tokens"] = *u.Input
		}
		if u.CacheWrite != nil {
			extra["cache_creation_input_tokens"] = *u.CacheWrite
		}
		up.UsageExtra = extra
		if u.Cost != nil {
			up.CostUSD = u.Cost.Total
		}
		put(up, nil)
	}
	if m.StopReason == "error" {
		put(event.Update{SessionUpdate: event.Error, Message: m.Error}, nil)
	}
}

// piBlocks reads a message's content: a string or content blocks.
func piBlocks(raw json.RawMessage) []piBlock {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return []piBlock{{Type: "text", Text: s}}
	}
	var bs []piBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

// piText joins the text of the blocks of one type (text or thinking).
func piText(blocks []piBlock, typ string) string {
	return agents.JoinTexts(blocks, func(b *piBlock) string {
		if b.Type != typ {
			return ""
		}
		if typ == "thinking" {
			return b.Thinking
		}
		return b.Text
	})
}

// piExitCode reads the exit status pi's bash tool appends to the output of
// a command that failed: "Command exited with code N".
func piExitCode(text string) (int, bool) {
	const marker = "Command exited with code "
	i := strings.LastIndex(text, marker)
	if i < 0 {
		return 0, false
	}
	return agents.LeadingInt(text[i+len(marker):])
}

// Finish implements Stream.
func (s *piHistoryStream) Finish(agents.Emit) {}

// piHistoryDirs are the folders pi keeps its sessions in:
// $PI_CODING_AGENT_SESSION_DIR (the files straight in it), and the
// sessions folder of $PI_CODING_AGENT_DIR, else of ~/.pi/agent.
func piHistoryDirs(getenv func(string) string, home string) []string {
	var out []string
	if d := getenv("PI_CODING_AGENT_SESSION_DIR"); d != "" {
		out = append(out, d)
	}
	agent := getenv("PI_CODING_AGENT_DIR")
	if agent == "" && home != "" {
		agent = filepath.Join(home, ".pi", "agent")
	}
	if agent != "" {
		out = append(out, filepath.Join(agent, "sessions"))
	}
	return out
}

// piSession names a pi session: --<cwd>--/<time>_<id>.jsonl under the
// sessions folder, or <time>_<id>.jsonl straight in a folder of
// --session-dir. Its work item is the cwd its header records, once read.
func piSession(parts []string) (workItem, name string, ok bool) {
	name = parts[len(parts)-1]
	if !strings.HasSuffix(name, ".jsonl") {
		return "", name, false
	}
	switch {
	case len(parts) == 2 && strings.HasPrefix(parts[0], "--"):
		return parts[0], name, true
	case len(parts) == 1:
		return "pi", name, true
	}
	return "", name, false
}

// piHistoryRoot is the sessions folder a session file is under.
func piHistoryRoot(path string) string {
	if strings.HasPrefix(filepath.Base(filepath.Dir(path)), "--") {
		return agents.UpDirs(path, 2)
	}
	return agents.UpDirs(path, 1)
}
