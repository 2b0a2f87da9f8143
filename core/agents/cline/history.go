package cline

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentsift/sift/core/agents"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/event"
)

// clineTaskFiles are the files of a task folder sift reads: the
// conversation the extension sends the model (Anthropic messages, with
// tool_use blocks, and the results in the next user message: tool_result
// blocks, or Cline's "[tool for 'x'] Result:" text), and the messages the
// extension shows (ClineMessage[]: the request costs, the completion,
// errors). Their sizes and last writes are a task's change token.
var clineTaskFiles = []string{"api_conversation_history.json", "ui_messages.json", "task_metadata.json", "history_item.json"}

// clineTasks lists the task folders under a tasks folder (Cline's, Roo
// Code's, Kilo Code's): one session per folder, named by the folder, which
// is the task's id.
func clineTasks(dir string) ([]agents.StoredSession, func(), error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var out []agents.StoredSession
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		task := filepath.Join(dir, e.Name())
		s := agents.StoredSession{Key: agents.StoredKey(task, e.Name()), ID: e.Name()}
		conv := false
		for _, name := range clineTaskFiles {
			fi, err := os.Stat(filepath.Join(task, name))
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			conv = conv || name == clineTaskFiles[0] || name == clineTaskFiles[1]
			s.Size += fi.Size()
			s.MTime = max(s.MTime, fi.ModTime().UnixMilli())
		}
		if !conv {
			continue
		}
		s.Lines = func() ([]byte, error) { return clineTaskLines(task) }
		out = append(out, s)
	}
	return out, nil, nil
}

// clineRender renders a task folder's session again from its key; a key
// whose container is not a task folder under base's tasks (or under
// another's) is not this history's.
func clineRender(ext string) func(key string) ([]byte, bool, error) {
	return func(key string) ([]byte, bool, error) {
		task, id, ok := agents.SplitStoredKey(key)
		if !ok || filepath.Base(task) != id || filepath.Base(filepath.Dir(task)) != "tasks" ||
			filepath.Base(filepath.Dir(filepath.Dir(task))) != ext {
			return nil, false, nil
		}
		lines, err := clineTaskLines(task)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, true, nil
		}
		return lines, true, err
	}
}

// clineTaskLines renders a task folder as the lines its history parser
// reads: a task line ({"task": {"id", "cwd"}}, the working folder the
// first request's environment details name), each message of the
// conversation ({"api": message}), then each message the extension showed
// ({"ui": message}). The render is sift's, not a file the extension
// writes: the folder holds JSON documents, not lines.
func clineTaskLines(task string) ([]byte, error) {
	api, aerr := os.ReadFile(filepath.Join(task, "api_conversation_history.json"))
	ui, uerr := os.ReadFile(filepath.Join(task, "ui_messages.json"))
	if aerr != nil && uerr != nil {
		return nil, aerr
	}
	var apiMsgs, uiMsgs []json.RawMessage
	if len(api) > 0 {
		if err := json.Unmarshal(api, &apiMsgs); err != nil {
			return nil, errors.New("api_conversation_history.json: " + err.Error())
		}
	}
	if len(ui) > 0 {
		if err := json.Unmarshal(ui, &uiMsgs); err != nil {
			return nil, errors.New("ui_messages.json: " + err.Error())
		}
	}
	var out bytes.Buffer
	head, err := json.Marshal(map[string]any{"task": map[string]string{"id": filepath.Base(task), "cwd": clineCwd(api, ui)}})
	if err != nil {
		return nil, err
	}
	out.Write(head)
	out.WriteByte('\n')
	for _, part := range []struct {
		key  string
		msgs []json.RawMessage
	}{{"api", apiMsgs}, {"ui", uiMsgs}} {
		for _, m := range part.msgs {
			out.WriteString(`{"` + part.key + `":`)
			if err := json.Compact(&out, m); err != nil {
				return nil, err
			}
			out.WriteString("}\n")
		}
	}
	return out.Bytes(), nil
}

// clineCwdRe finds the working folder in a request's environment details:
// Cline's "# Current Working Directory (DIR) Files", Roo Code's and Kilo
// Code's "# Current Workspace Directory (DIR) Files".
var clineCwdRe = regexp.MustCompile(`# Current (?:Working|Workspace) Directory \(([^)\n]+)\) Files`)

// clineCwd is the first working folder the conversation (as JSON text)
// names; "" when none.
func clineCwd(docs ...[]byte) string {
	for _, d := range docs {
		if m := clineCwdRe.FindSubmatch(d); m != nil {
			var s string
			// The folder is inside a JSON string: unquote it.
			if json.Unmarshal([]byte(`"`+string(m[1])+`"`), &s) == nil && filepath.IsAbs(s) {
				return s
			}
		}
	}
	return ""
}

// clineHistoryParser reads a rendered task folder (clineTaskLines) of
// Cline, Roo Code or Kilo Code.
type clineHistoryParser struct{ kind agents.Kind }

// Kind implements Parser.
func (p clineHistoryParser) Kind() agents.Kind { return p.kind }

// NewStream implements Parser.
func (clineHistoryParser) NewStream() agents.Stream { return &clineStream{} }

// EndsWithResult implements Parser: a task ends as its last message
// leaves it.
func (clineHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a render is never met on disk, only read by
// its kind.
func (clineHistoryParser) Claims([]byte) bool { return false }

// clineLine is one rendered line.
type clineLine struct {
	Task *struct {
		ID  string `json:"id"`
		Cwd string `json:"cwd"`
	} `json:"task"`
	API *clineAPIMessage `json:"api"`
	UI  *clineUIMessage  `json:"ui"`
}

// clineAPIMessage is an Anthropic message as the extension keeps it, with
// its own additions (ts, modelInfo).
type clineAPIMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	TS        *int64          `json:"ts"`
	ModelInfo *struct {
		ModelID string `json:"modelId"`
	} `json:"modelInfo"`
}

// clineUIMessage is a ClineMessage.
type clineUIMessage struct {
	TS        int64  `json:"ts"`
	Type      string `json:"type"`
	Ask       string `json:"ask"`
	Say       string `json:"say"`
	Text      string `json:"text"`
	Partial   bool   `json:"partial"`
	ModelInfo *struct {
		ModelID string `json:"modelId"`
	} `json:"modelInfo"`
}

// clineCall is a tool call waiting for its result.
type clineCall struct {
	id, name string
}

type clineStream struct {
	// open are the calls of the last assistant message without a result
	// yet, in order: Cline answers them in one user message.
	open []clineCall
	// model is the last model named; last the time of the last message.
	model string
	last  int64
	// end is the ui message that ends the task, held to the end: a
	// completion, or an error after the last completion.
	end     *clineUIMessage
	endLine agents.Line
}

// Line implements Stream.
func (s *clineStream) Line(l agents.Line, emit agents.Emit) bool {
	var r clineLine
	if json.Unmarshal(l.Bytes, &r) != nil {
		return false
	}
	switch {
	case r.Task != nil:
		emit(&event.Event{SessionID: r.Task.ID, Update: event.Update{SessionUpdate: event.SessionStart, Cwd: r.Task.Cwd}})
	case r.API != nil:
		s.api(r.API, emit)
	case r.UI != nil:
		s.ui(r.UI, l, emit)
	default:
		return false
	}
	return true
}

// api emits a conversation message: the prompts, what the agent said and
// thought, its tool calls and their results.
func (s *clineStream) api(m *clineAPIMessage, emit agents.Emit) {
	if m.ModelInfo != nil && m.ModelInfo.ModelID != "" {
		s.model = m.ModelInfo.ModelID
	}
	base := event.Event{Timestamp: agents.EpochMS(m.TS)}
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		if m.Role == "assistant" {
			ev.Model = s.model
		}
		emit(&ev)
	}
	var blocks []agents.AnthropicBlock
	if len(m.Content) > 0 && m.Content[0] == '"' {
		var t string
		_ = json.Unmarshal(m.Content, &t)
		blocks = []agents.AnthropicBlock{{Type: "text", Text: t}}
	} else {
		_ = json.Unmarshal(m.Content, &blocks)
	}
	if m.Role == "assistant" {
		s.open = s.open[:0]
	}
	for i := range blocks {
		b := &blocks[i]
		switch {
		case m.Role == "assistant" && b.Type == "thinking" && b.Thinking != "":
			put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(b.Thinking)})
		case m.Role == "assistant" && b.Type == "text" && strings.TrimSpace(b.Text) != "":
			put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(strings.TrimSpace(b.Text))})
		case m.Role == "assistant" && b.Type == "tool_use":
			u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: b.ID, Status: event.StatusPending}
			agents.DescribeTool(&u, b.Name, b.Input)
			put(u)
			s.open = append(s.open, clineCall{b.ID, b.Name})
		case m.Role == "user" && b.Type == "tool_result":
			put(s.result(b.ToolUseID, agents.AnthropicResultText(b.Content), b.IsError))
		case m.Role == "user" && b.Type == "text":
			if name, text, ok := clineTextResult(b.Text); ok {
				if id := s.take(name); id != "" {
					put(s.result(id, text, false))
					continue
				}
			}
			if p := clinePrompt(b.Text); p != "" {
				put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(p)})
			}
		}
	}
}

// take returns the first open call of a tool name and closes it; "" when
// none is open.
func (s *clineStream) take(name string) string {
	for i, c := range s.open {
		if c.name == name {
			s.open = append(s.open[:i], s.open[i+1:]...)
			return c.id
		}
	}
	return ""
}

// result is a call's result update: failed when the result says the tool
// failed, approval-required when the user denied it.
func (s *clineStream) result(id, text string, isError bool) event.Update {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: id, Status: event.StatusCompleted}
	if text != "" {
		u.Content = event.Text(text)
	}
	switch {
	case strings.HasPrefix(text, "The user denied this operation"):
		u.Status, u.ApprovalRequired, u.Message = event.StatusFailed, true, agents.FirstLine(text)
	case isError || strings.HasPrefix(text, "The tool execution failed") || strings.HasPrefix(text, "<error>"):
		u.Status, u.Message = event.StatusFailed, agents.FirstLine(strings.TrimPrefix(text, "<error>"))
	}
	return u
}

// ui reads what the extension showed: each request's tokens and cost (the
// api_req_started message, once its cost is known), and how the task
// ends.
func (s *clineStream) ui(m *clineUIMessage, l agents.Line, emit agents.Emit) {
	if m.ModelInfo != nil && m.ModelInfo.ModelID != "" {
		s.model = m.ModelInfo.ModelID
	}
	s.last = max(s.last, m.TS)
	ts := agents.EpochMS(&m.TS)
	switch {
	case m.Say == "api_req_started":
		var r struct {
			TokensIn    *int64   `json:"tokensIn"`
			TokensOut   *int64   `json:"tokensOut"`
			CacheWrites *int64   `json:"cacheWrites"`
			CacheReads  *int64   `json:"cacheReads"`
			Cost        *float64 `json:"cost"`
			APIProtocol string   `json:"apiProtocol"`
		}
		if json.Unmarshal([]byte(m.Text), &r) != nil || (r.TokensIn == nil && r.TokensOut == nil) {
			return
		}
		// The prompt is the uncached input and the cache's reads and
		// writes (Anthropic's counting), except where the provider
		// counts its cached tokens inside its input (Roo Code's
		// "openai" protocol: getApiMetrics).
		prompt := agents.SumPresent(r.TokensIn, r.CacheReads, r.CacheWrites)
		if r.APIProtocol == "openai" {
			prompt = r.TokensIn
		}
		u := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall, PromptTokens: prompt,
			CompletionTokens: r.TokensOut, CachedTokens: r.CacheReads, CostUSD: r.Cost}
		if r.CacheWrites != nil {
			u.UsageExtra = map[string]int64{"cache_creation_input_tokens": *r.CacheWrites}
		}
		emit(&event.Event{Timestamp: ts, Model: s.model, Update: u})
	case m.Say == "completion_result" && !m.Partial,
		m.Say == "error", m.Ask == "api_req_failed", m.Ask == "mistake_limit_reached":
		held := *m
		s.end, s.endLine = &held, l
	case m.Say == "user_feedback" || m.Ask == "resume_task":
		// The task went on after the ending held so far.
		if m.Say == "user_feedback" {
			s.end = nil
		}
	}
}

// Finish implements Stream: the task's ending.
func (s *clineStream) Finish(emit agents.Emit) {
	m := s.end
	if m == nil {
		return
	}
	ev := event.Event{Line: s.endLine.No, Offset: s.endLine.Offset, Timestamp: agents.EpochMS(&m.TS)}
	if m.Say == "completion_result" {
		// The completion is attempt_completion's answer.
		if id := s.take("attempt_completion"); id != "" {
			up := ev
			up.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: id, Status: event.StatusCompleted}
			if m.Text != "" {
				up.Update.Content = event.Text(m.Text)
			}
			emit(&up)
		}
		ev.Update = event.Update{SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: "completion_result", Text: m.Text}
	} else {
		msg := agents.FirstLine(m.Text)
		if msg == "" {
			msg = agents.FirstNonEmpty(m.Ask, m.Say)
		}
		ev.Update = event.Update{SessionUpdate: event.Error, Message: msg}
	}
	emit(&ev)
}

// clineResultRe is the head of a tool's result as Cline sends it in text:
// "[read_file for 'x'] Result:".
var clineResultRe = regexp.MustCompile(`(?s)^\[([a-z_]+)(?: for '.*?')?\] Result:\n?`)

// clineTextResult reads a text block that is a tool's result: the tool's
// name and the result.
func clineTextResult(text string) (name, result string, ok bool) {
	m := clineResultRe.FindStringSubmatchIndex(text)
	if m == nil {
		return "", "", false
	}
	return text[m[2]:m[3]], strings.TrimSpace(text[m[1]:]), true
}

// clinePrompt is what a person wrote in a user text block: the task
// (inside <task>), their feedback (<feedback>, <answer>, <user_message>),
// or the text itself; "" for what the extension adds (environment details,
// its reminders).
func clinePrompt(text string) string {
	t := strings.TrimSpace(text)
	for _, tag := range []string{"task", "feedback", "answer", "user_message"} {
		open, end := "<"+tag+">", "</"+tag+">"
		if i := strings.Index(t, open); i >= 0 {
			if j := strings.Index(t[i:], end); j >= 0 {
				return strings.TrimSpace(t[i+len(open) : i+j])
			}
		}
	}
	if strings.HasPrefix(t, "<environment_details>") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "[") || t == "" {
		return ""
	}
	return t
}
