package kimi

import (
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// kimiParser reads `kimi --print --output-format stream-json` (kimi-cli and
// its successor kimi-code). No capture exists; the shape is the documented
// one (FORMATS.md "Kimi", [S15][S16][S18]) checked against kimi-cli's
// JsonPrinter (src/kimi_cli/ui/print/visualize.py) and kosong's message
// types: one whole OpenAI-style message per line, no deltas and no usage.
//
//	{"role":"assistant","content":"…"|[{"type":"text"|"think"|"image_url",…}],"tool_calls":[{"type":"function","id","function":{"name","arguments":"<JSON text>"}}]}
//	{"role":"tool","tool_call_id":"…","content":"…"|[…]}
//	{"role":"meta","type":"session.resume_hint","session_id","command","content"}   (kimi-code, last line)
//	{"type":"error","code","message","retryable"}                                   (kimi-code, a failed turn)
//	{"content":"<plan markdown>","file_path":"…"}                                    (kimi-cli PlanDisplay)
//
// kimi-cli's other printed wire messages (Notification, BtwBegin/BtwEnd)
// are kept as raw lines.
type kimiParser struct{}

func (kimiParser) Kind() agents.Kind        { return agents.Kimi }
func (kimiParser) NewStream() agents.Stream { return &kimiStream{names: map[string]string{}} }

// EndsWithResult implements Parser: only kimi-code prints its resume hint,
// and a run that did not fail prints no other end.
func (kimiParser) EndsWithResult() bool { return false }

// Claims implements Parser: a line whose discriminator is a top-level
// `role` (every other harness's lines name a `type` first), kimi-code's
// resume hint, or its error line, the only error that says `retryable`.
func (kimiParser) Claims(line []byte) bool {
	var l kimiLine
	if json.Unmarshal(line, &l) != nil {
		return false
	}
	switch l.Role {
	case "assistant":
		return (l.Type == "" || l.Type == "thinking") && (len(l.Content) > 0 || len(l.ToolCalls) > 0)
	case "tool":
		return l.Type == "" && l.ToolCallID != ""
	case "meta":
		return l.Type == "session.resume_hint"
	case "":
		return l.Type == "error" && l.Retryable != nil && len(l.Code) > 0
	}
	return false
}

type kimiLine struct {
	Role       string          `json:"role"`
	Type       string          `json:"type"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []kimiToolCall  `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	SessionID  string          `json:"session_id"`
	Command    string          `json:"command"`
	Code       json.RawMessage `json:"code"`
	Message    string          `json:"message"`
	Retryable  *bool           `json:"retryable"`
	FilePath   string          `json:"file_path"`
}

type kimiToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string  `json:"name"`
		Arguments *string `json:"arguments"`
	} `json:"function"`
}

// kimiPart is one kosong content part.
type kimiPart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Think    string `json:"think"`
	ImageURL struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

// kimiStream holds the tool names by call id, the last assistant text (the
// run's final message) and a held error line.
type kimiStream struct {
	names    map[string]string
	lastText string
	// lastErr is the last error line: fatal when only the resume hint or
	// nothing follows it.
	lastErr *event.Event
}

// Line implements Stream.
func (s *kimiStream) Line(l agents.Line, emit agents.Emit) bool {
	var k kimiLine
	ok := json.Unmarshal(l.Bytes, &k) == nil
	hint := ok && k.Role == "meta" && k.Type == "session.resume_hint"
	held := false
	if s.lastErr != nil && !hint {
		emit(s.lastErr)
		s.lastErr, held = nil, true
	}
	return agents.AfterHeld(l, held, ok && s.line(l, &k, emit), emit)
}

func (s *kimiStream) line(l agents.Line, k *kimiLine, emit agents.Emit) bool {
	switch k.Role {
	case "assistant":
		if k.Type == "thinking" {
			// kimi-code prints the reasoning as its own line [S18].
			n := s.parts(k.Content, event.AgentThoughtChunk, emit)
			return n > 0
		}
		if k.Type != "" {
			return false
		}
		n := s.parts(k.Content, event.AgentMessageChunk, emit)
		for _, tc := range k.ToolCalls {
			s.toolCall(&tc, emit)
			n++
		}
		return n > 0
	case "user":
		return s.parts(k.Content, event.UserMessageChunk, emit) > 0
	case "tool":
		if k.ToolCallID == "" {
			return false
		}
		s.toolResult(k, emit)
		return true
	case "meta":
		if k.Type != "session.resume_hint" {
			return false
		}
		s.end(k, emit)
		return true
	case "":
		if k.Type == "" && k.FilePath != "" {
			return s.planDisplay(k, emit)
		}
		if k.Type != "error" {
			return false
		}
		ev := &event.Event{Line: l.No, Offset: l.Offset, Update: event.Update{
			SessionUpdate: event.Error, Message: k.Message,
		}}
		ev.Extra = map[string]any{}
		if code, ok := agents.JSONText(k.Code); ok {
			ev.Extra["code"] = code
		} else if len(k.Code) > 0 {
			ev.Extra["code"] = json.RawMessage(k.Code)
		}
		if k.Retryable != nil {
			ev.Extra["retryable"] = *k.Retryable
		}
		s.lastErr = ev
		return true
	}
	return false
}

// planDisplay reads kimi-cli's PlanDisplay line, `{"content":"<markdown>",
// "file_path":"…"}` (wire/types.py), as a plan of one entry.
func (s *kimiStream) planDisplay(k *kimiLine, emit agents.Emit) bool {
	text, ok := agents.JSONText(k.Content)
	if !ok || text == "" {
		return false
	}
	emit(&event.Event{
		Update: event.Update{SessionUpdate: event.Plan, Entries: []event.PlanEntry{{Content: text}}},
		Extra:  map[string]any{"file_path": k.FilePath},
	})
	return true
}

// end handles the resume hint kimi-code prints after the run: the
// unambiguous end of the invocation, so it is the run's result.
func (s *kimiStream) end(k *kimiLine, emit agents.Emit) {
	failed := s.lastErr != nil
	if failed {
		s.lastErr.Update.Fatal = true
		emit(s.lastErr)
		s.lastErr = nil
	}
	r := &event.Event{SessionID: k.SessionID, Update: event.Update{
		SessionUpdate: event.Result, IsError: event.Bool(failed), Text: s.lastText,
	}}
	if k.Command != "" {
		r.Extra = map[string]any{"resume_command": k.Command}
	}
	emit(r)
}

// Finish implements Stream. An error line with nothing after it failed the
// run; kimi-cli prints no resume hint, so this is its only end.
func (s *kimiStream) Finish(emit agents.Emit) {
	if e := s.lastErr; e != nil {
		s.lastErr = nil
		agents.FatalEnd(e, "", e.Update.Message, emit)
	}
}

// parts emits a message's content, a string or a list of parts, as chunks
// of the given kind (think parts are always thoughts) and returns how many.
func (s *kimiStream) parts(raw json.RawMessage, kind event.Kind, emit agents.Emit) int {
	if text, ok := agents.JSONText(raw); ok {
		if text == "" {
			return 0
		}
		s.remember(kind, text)
		emit(&event.Event{Update: event.Update{SessionUpdate: kind, Content: event.Text(text)}})
		return 1
	}
	var parts []kimiPart
	if json.Unmarshal(raw, &parts) != nil {
		return 0
	}
	n := 0
	var said strings.Builder
	for _, p := range parts {
		k, c := kind, kimiContent(&p)
		if p.Type == "think" {
			k = event.AgentThoughtChunk
		}
		if c == nil {
			continue
		}
		if k == event.AgentMessageChunk && c.Type == "text" {
			said.WriteString(c.Text)
		}
		emit(&event.Event{Update: event.Update{SessionUpdate: k, Content: c}})
		n++
	}
	if said.Len() > 0 {
		s.lastText = said.String()
	}
	return n
}

func (s *kimiStream) remember(kind event.Kind, text string) {
	if kind == event.AgentMessageChunk {
		s.lastText = text
	}
}

// kimiContent turns one part into an event content block; nil for a part
// with nothing to show.
func kimiContent(p *kimiPart) *event.Content {
	switch p.Type {
	case "text":
		if p.Text != "" {
			return event.Text(p.Text)
		}
	case "think":
		if p.Think != "" {
			return event.Text(p.Think)
		}
	case "image_url":
		if mime, data, ok := dataURL(p.ImageURL.URL); ok {
			return event.Image(mime, data)
		}
		if p.ImageURL.URL != "" {
			return event.Text("[image] " + p.ImageURL.URL)
		}
	}
	return nil
}

// dataURL splits a `data:<mime>;base64,<data>` URL.
func dataURL(u string) (mime, data string, ok bool) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return "", "", false
	}
	head, data, ok := strings.Cut(rest, ",")
	mime, b64 := strings.CutSuffix(head, ";base64")
	if !ok || !b64 {
		return "", "", false
	}
	return mime, data, true
}

func (s *kimiStream) toolCall(tc *kimiToolCall, emit agents.Emit) {
	ev := &event.Event{Update: event.Update{
		SessionUpdate: event.ToolCall, ToolCallID: tc.ID, Status: event.StatusPending,
	}}
	args := kimiArgs(tc.Function.Arguments)
	agents.DescribeTool(&ev.Update, tc.Function.Name, args)
	s.names[tc.ID] = tc.Function.Name
	emit(ev)
	if n := strings.ToLower(tc.Function.Name); n == "settodolist" || n == "todolist" {
		if entries := agents.TodoEntries(args); entries != nil {
			emit(&event.Event{Update: event.Update{SessionUpdate: event.Plan, Entries: entries}})
		}
	}
}

// toolResult reads a tool message. kimi-cli marks a failed tool with
// `<system>ERROR</system>` (then the message as another `<system>` part) or
// `<system>ERROR: message</system>` (soul/message.py).
func (s *kimiStream) toolResult(k *kimiLine, emit agents.Emit) {
	ev := &event.Event{Update: event.Update{
		SessionUpdate: event.ToolCallUpdate, ToolCallID: k.ToolCallID, ToolName: s.names[k.ToolCallID],
		Status: event.StatusCompleted,
	}}
	u := &ev.Update
	var texts []string
	if text, ok := agents.JSONText(k.Content); ok {
		texts = []string{text}
	} else {
		var parts []kimiPart
		if json.Unmarshal(k.Content, &parts) == nil {
			for _, p := range parts {
				if p.Type == "text" {
					texts = append(texts, p.Text)
				} else if c := kimiContent(&p); c != nil && u.Content == nil && c.Type == "image" {
					u.Content = c
				}
			}
		}
		if len(k.Content) > 0 && k.Content[0] == '[' {
			u.RawOutput = k.Content
		}
	}
	if len(texts) > 0 {
		u.Content = event.Text(strings.Join(texts, "\n"))
	}
	if msg, failed := kimiToolError(texts); failed {
		u.Status, u.Message = event.StatusFailed, msg
	}
	emit(ev)
}

// kimiToolError finds kimi-cli's `<system>ERROR…</system>` marker.
func kimiToolError(texts []string) (string, bool) {
	var sys []string
	for _, t := range texts {
		t = strings.TrimSpace(t)
		if inner, ok := strings.CutPrefix(t, "<system>"); ok {
			if inner, ok := strings.CutSuffix(inner, "</system>"); ok {
				sys = append(sys, strings.TrimSpace(inner))
			}
		}
	}
	for i, m := range sys {
		if m == "ERROR" {
			if i+1 < len(sys) {
				return sys[i+1], true
			}
			return "", true
		}
		if rest, ok := strings.CutPrefix(m, "ERROR:"); ok {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}
