package antigravity

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// antigravityHistoryParser reads a conversation's step log, one step a
// line, after real logs of agy 1.0.0 and 1.0.16 and the 1.1.x shapes
// Switchboard's adapter records (testdata/histories/antigravity/
// PROVENANCE.md):
//
//	{"step_index", "source": USER_EXPLICIT|MODEL|SYSTEM, "type", "status": DONE|ERROR|…,
//	 "created_at", "content", "thinking", "tool_calls": [{"name", "args"}], "error", "exit_code"}
//
// USER_INPUT is the person's prompt, wrapped in <USER_REQUEST> with the
// harness's <ADDITIONAL_METADATA> and <USER_SETTINGS_CHANGE> blocks (the
// model chosen: "changed setting `Model Selection` from None to Gemini
// 3.1 Pro (High)"). PLANNER_RESPONSE is the model's step: its thinking,
// its text and the tools it calls. Each call's result is a MODEL step of
// the tool's own type (RUN_COMMAND, VIEW_FILE, CODE_ACTION, GREP_SEARCH,
// LIST_DIRECTORY, GENERIC, …) that follows it in step order, one per
// call in the order of the calls; the log names no call ids. A call
// rejected before it ran is an ERROR_MESSAGE step saying "invalid tool
// call" (agy 1.1.2), or no step at all (1.1.19): a call still without a
// result when the model plans again got none. Other ERROR_MESSAGE steps
// are the conversation's errors. SYSTEM steps (CONVERSATION_HISTORY,
// CHECKPOINT, KNOWLEDGE_ARTIFACTS) are bookkeeping. The log records no
// tokens.
type antigravityHistoryParser struct{}

// Kind implements Parser.
func (antigravityHistoryParser) Kind() agents.Kind { return agents.AntigravityHistory }

// NewStream implements Parser.
func (antigravityHistoryParser) NewStream() agents.Stream { return &agyHistoryStream{} }

// EndsWithResult implements Parser: the log has no result line.
func (antigravityHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a render is never met on disk.
func (antigravityHistoryParser) Claims([]byte) bool { return false }

// agyHistoryStep is one rendered line: sift's conversation line, or a step.
type agyHistoryStep struct {
	Conversation *struct {
		ID          string `json:"id"`
		Cwd         string `json:"cwd"`
		CompactArgs bool   `json:"compactArgs"`
	} `json:"conversation"`
	StepIndex *int64  `json:"step_index"`
	Source    string  `json:"source"`
	Type      string  `json:"type"`
	Status    string  `json:"status"`
	CreatedAt string  `json:"created_at"`
	Content   *string `json:"content"`
	Thinking  string  `json:"thinking"`
	Error     string  `json:"error"`
	ExitCode  *int64  `json:"exit_code"`
	ToolCalls []struct {
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"tool_calls"`
}

// agyEnd is how the log stands after a step: a reply that called no tool,
// an error, or anything else.
type agyEnd uint8

const (
	agyEndOther agyEnd = iota
	agyEndReply
	agyEndError
)

type agyHistoryStream struct {
	id, model string
	compact   bool
	// pending are the calls without a result, first called first.
	pending []agyPendingCall
	end     agyEnd
	// last is the text of the last reply or error, at lastAt on lastLine.
	last     string
	lastAt   time.Time
	lastLine agents.Line
}

type agyPendingCall struct{ id, name string }

// Line implements Stream.
func (s *agyHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var st agyHistoryStep
	if json.Unmarshal(l.Bytes, &st) != nil {
		return false
	}
	if c := st.Conversation; c != nil {
		s.id, s.compact = c.ID, c.CompactArgs
		emit(&event.Event{SessionID: c.ID, Update: event.Update{SessionUpdate: event.SessionStart, Cwd: c.Cwd}})
		return true
	}
	if st.StepIndex == nil || st.Type == "" {
		return false
	}
	base := event.Event{SessionID: s.id, Timestamp: agents.ISOTime(st.CreatedAt)}
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		emit(&ev)
	}
	content := ""
	if st.Content != nil {
		content = *st.Content
	}
	switch {
	case st.Type == "USER_INPUT":
		if m := agyModelChange(content); m != "" {
			s.model = m
		}
		if text := agyUserRequest(content); text != "" {
			put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(text)})
		}
		s.end = agyEndOther
	case st.Type == "PLANNER_RESPONSE":
		s.plan(&st, content, base, emit)
	case st.Type == "ERROR_MESSAGE":
		msg := strings.TrimSpace(agents.FirstNonEmpty(st.Error, content))
		if len(s.pending) > 0 && strings.Contains(strings.ToLower(msg), "invalid tool call") {
			// The call the model made was rejected before it ran.
			c := s.pop()
			put(event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: c.id, ToolName: c.name,
				Status: event.StatusFailed, Message: agents.FirstLine(msg), Content: event.Text(msg)})
			s.end = agyEndOther
			return true
		}
		put(event.Update{SessionUpdate: event.Error, Message: msg})
		s.end, s.last, s.lastAt, s.lastLine = agyEndError, msg, base.Timestamp, l
	case st.Source == "MODEL":
		s.result(&st, content, base, emit)
	}
	// SYSTEM bookkeeping carries nothing sift models.
	return true
}

// plan handles a PLANNER_RESPONSE: the calls of the last plan still
// without a result got none; then its thinking, its text and its calls. A
// plan that calls no tool and says something is a reply.
func (s *agyHistoryStream) plan(st *agyHistoryStep, content string, base event.Event, emit agents.Emit) {
	for len(s.pending) > 0 {
		c := s.pop()
		ev := base
		ev.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: c.id, ToolName: c.name,
			Status: event.StatusFailed, Message: "no result recorded: the call was refused before it ran"}
		emit(&ev)
	}
	base.Model = s.model
	base.MessageID = s.id + ":" + strconv.FormatInt(*st.StepIndex, 10)
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		emit(&ev)
	}
	if st.Thinking != "" {
		put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(st.Thinking)})
	}
	if strings.TrimSpace(content) != "" {
		put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(content)})
	}
	for i, c := range st.ToolCalls {
		id := strconv.FormatInt(*st.StepIndex, 10) + "." + strconv.Itoa(i)
		u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: id, Status: event.StatusPending}
		args := agyHistoryArgs(c.Args, s.compact)
		agents.DescribeTool(&u, c.Name, args)
		agyDescribe(&u, c.Name, args)
		put(u)
		s.pending = append(s.pending, agyPendingCall{id, c.Name})
	}
	s.end = agyEndOther
	if len(st.ToolCalls) == 0 && strings.TrimSpace(content) != "" {
		s.end, s.last, s.lastAt = agyEndReply, content, base.Timestamp
	}
}

// result handles a tool's result step: it answers the first call without
// one; a result no call is waiting for is a call of its own, named by its
// type. It failed when its status says so or the command's exit code
// (its exit_code, else the one its header states) is not zero.
func (s *agyHistoryStream) result(st *agyHistoryStep, content string, base event.Event, emit agents.Emit) {
	var c agyPendingCall
	if len(s.pending) > 0 {
		c = s.pop()
	} else {
		c = agyPendingCall{id: strconv.FormatInt(*st.StepIndex, 10), name: strings.ToLower(st.Type)}
		ev := base
		ev.Update = event.Update{SessionUpdate: event.ToolCall, ToolCallID: c.id, Status: event.StatusPending}
		agents.DescribeTool(&ev.Update, c.name, nil)
		emit(&ev)
	}
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: c.id, ToolName: c.name, Status: event.StatusCompleted}
	if content != "" {
		u.Content = event.Text(content)
	}
	if st.ExitCode != nil {
		code := int(*st.ExitCode)
		u.ExitCode = &code
	} else {
		u.ExitCode = agyCommandExit(content)
	}
	if st.Status == "ERROR" || st.Status == "FAILED" || u.ExitCode != nil && *u.ExitCode != 0 {
		u.Status = event.StatusFailed
		u.Message = agents.FirstLine(strings.TrimSpace(agents.FirstNonEmpty(st.Error, agyResultBody(content))))
	}
	ev := base
	ev.Update = u
	emit(&ev)
	s.end = agyEndOther
}

func (s *agyHistoryStream) pop() agyPendingCall {
	c := s.pending[0]
	s.pending = s.pending[1:]
	return c
}

// Finish implements Stream: a log that ends on a reply is a conversation
// the model finished answering; one that ends on an error failed.
// Otherwise how it ended is not recorded.
func (s *agyHistoryStream) Finish(emit agents.Emit) {
	ev := &event.Event{SessionID: s.id, Timestamp: s.lastAt, Line: s.lastLine.No, Offset: s.lastLine.Offset}
	switch s.end {
	case agyEndReply:
		ev.Update = event.Update{SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: "reply", Text: s.last}
	case agyEndError:
		ev.Update = event.Update{SessionUpdate: event.Result, IsError: event.Bool(true), Subtype: "error", Text: s.last}
	default:
		return
	}
	emit(ev)
}

// agyHistoryArgs are a call's arguments as JSON. The compact log writes
// each value as the JSON text of the value in a string ("StartLine":
// "1"); it is decoded one level. A value the log clipped ("…<truncated N
// bytes>") is no JSON text and stays the string it is.
func agyHistoryArgs(raw json.RawMessage, compact bool) json.RawMessage {
	if !compact || !agents.Present(raw) {
		return raw
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	for k, v := range m {
		if text, ok := agents.JSONText(v); ok && json.Valid([]byte(text)) {
			m[k] = json.RawMessage(text)
		}
	}
	out, err := agents.MarshalPlain(m)
	if err != nil {
		return raw
	}
	return out
}

// agyUserRequest is the prompt a USER_INPUT step wraps in <USER_REQUEST>,
// without the harness's metadata blocks; a step without the wrapper is
// its text.
func agyUserRequest(content string) string {
	const open, end = "<USER_REQUEST>", "</USER_REQUEST>"
	i := strings.Index(content, open)
	if i < 0 {
		return strings.TrimSpace(content)
	}
	rest := content[i+len(open):]
	if j := strings.Index(rest, end); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest)
}

// agyModelRe finds the model a USER_INPUT step announces the person chose.
var agyModelRe = regexp.MustCompile("changed setting `Model Selection` from .*? to (.+?)\\.(?:\\s|<|$)")

// agyModelChange is the model a USER_INPUT step says was chosen, as the
// harness names it ("Gemini 3.1 Pro (High)"); "" when it says none.
func agyModelChange(content string) string {
	if !strings.Contains(content, "Model Selection") {
		return ""
	}
	if m := agyModelRe.FindStringSubmatch(content); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// agyCommandExitRe reads the exit code a command's result states in its
// header: "The command failed with exit code: 127", "The command exited
// with code 0."
var agyCommandExitRe = regexp.MustCompile(`(?m)^\s*The command (?:failed with exit code:?|exited with code) (-?\d+)`)

// agyCommandExit is the exit code a result's header, before the output it
// quotes, states; nil when it states none ("The command completed
// successfully.").
func agyCommandExit(content string) *int {
	m := agyCommandExitRe.FindStringSubmatch(agyResultHeader(content))
	if m == nil {
		return nil
	}
	code, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &code
}

// agyResultHeader is a result's text before the output it quotes, which
// may say anything.
func agyResultHeader(content string) string {
	for _, mark := range []string{"Output:", "Stdout:", "Stderr:"} {
		if i := strings.Index(content, mark); i >= 0 {
			content = content[:i]
		}
	}
	return content
}

// agyResultBody is a result's text after its "Created At:" and "Completed
// At:" lines.
func agyResultBody(content string) string {
	for {
		line, rest, ok := strings.Cut(content, "\n")
		if !ok || !strings.HasPrefix(line, "Created At:") && !strings.HasPrefix(line, "Completed At:") {
			return content
		}
		content = rest
	}
}
