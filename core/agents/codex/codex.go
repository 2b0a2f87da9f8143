package codex

import (
	"cmp"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// codexParser reads `codex exec --json`. It claims both wire shapes the CLI
// has printed: the 0.44+ thread/turn/item events and the older
// `{"id","msg":{"type":…}}` events (see legacy.go).
type codexParser struct{}

// Kind implements Parser.
func (codexParser) Kind() agents.Kind { return agents.Codex }

// NewStream implements Parser.
func (codexParser) NewStream() agents.Stream { return &codexStream{} }

// EndsWithResult implements Parser: a turn ends with turn.completed or
// turn.failed (task_complete or turn_aborted in the legacy shape).
func (codexParser) EndsWithResult() bool { return true }

// Claims implements Parser. It claims the event types only codex prints
// (thread.*, turn.*, item.*), a legacy `{"id","msg":{"type"}}` line and the
// legacy config summary line (which has a "reasoning effort" key). A bare
// `{"type":"error"}` is too generic to claim.
func (codexParser) Claims(line []byte) bool {
	var l struct {
		Type string          `json:"type"`
		ID   json.RawMessage `json:"id"`
		Msg  *struct {
			Type string `json:"type"`
		} `json:"msg"`
		Workdir *string `json:"workdir"`
		Effort  *string `json:"reasoning effort"`
	}
	if json.Unmarshal(line, &l) != nil {
		return false
	}
	switch l.Type {
	case "thread.started", "turn.started", "turn.completed", "turn.failed",
		"item.started", "item.updated", "item.completed", "item.plan.delta":
		return true
	}
	if l.Msg != nil && l.Msg.Type != "" && len(l.ID) > 0 {
		return true
	}
	return l.Effort != nil && l.Workdir != nil
}

// codexLine is one line of either codex shape. Item and Msg are decoded in
// a second step, by type.
type codexLine struct {
	Type     string          `json:"type"`
	ThreadID string          `json:"thread_id"`
	Item     json.RawMessage `json:"item"`
	Usage    json.RawMessage `json:"usage"`
	Error    *codexMessage   `json:"error"`
	Message  *string         `json:"message"`
	// request_user_input and item.plan.delta.
	CallID    string          `json:"call_id"`
	Questions json.RawMessage `json:"questions"`
	ItemID    string          `json:"item_id"`
	// The legacy shape: {"id","msg"}, {"prompt"} and the config summary.
	ID      json.RawMessage `json:"id"`
	Msg     json.RawMessage `json:"msg"`
	Prompt  *string         `json:"prompt"`
	Model   string          `json:"model"`
	Workdir *string         `json:"workdir"`
}

type codexMessage struct {
	Message string `json:"message"`
}

// codexItem is the union of the 0.44+ item types (codex-rs
// exec/src/exec_events.rs ThreadItemDetails).
type codexItem struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// agent_message, reasoning, plan.
	Text string `json:"text"`
	// error.
	Message string `json:"message"`
	// command_execution.
	Command          string `json:"command"`
	AggregatedOutput string `json:"aggregated_output"`
	ExitCode         *int   `json:"exit_code"`
	Status           string `json:"status"`
	// file_change.
	Changes json.RawMessage `json:"changes"`
	// mcp_tool_call; collab_tool_call has tool too.
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result"`
	Error     *codexMessage   `json:"error"`
	// web_search.
	Query  string          `json:"query"`
	Action json.RawMessage `json:"action"`
	// todo_list.
	Items []codexTodo `json:"items"`
	// collab_tool_call.
	ReceiverThreadIDs []string        `json:"receiver_thread_ids"`
	Prompt            *string         `json:"prompt"`
	AgentsStates      json.RawMessage `json:"agents_states"`
}

// codexLentItem is a codex item as it is decoded when the events are
// lent: its texts are read from their raw values once it is decoded
// (lineTexts), so that an escaped one costs no string of its own.
type codexLentItem struct {
	codexItem
	TextRaw   json.RawMessage `json:"text"`
	OutputRaw json.RawMessage `json:"aggregated_output"`
}

type codexTodo struct {
	Text      string `json:"text"`
	Completed bool   `json:"completed"`
}

// codexStream is the state of one codex stream.
type codexStream struct {
	agents.Lender
	// pending is a top-level error held back until the next line shows
	// whether the stream went on after it: only a last error is fatal.
	pending *event.Event
	// lastText is the turn's last agent message, the result's text.
	lastText agents.KeptText
	// opened holds the ids of items whose tool_call was emitted. Item ids
	// restart at item_0 on every invocation, which is fine within a file:
	// an id is closed before the next invocation starts.
	opened map[string]bool
	// usageSeq numbers the legacy per-response token counts.
	usageSeq int
	// turnSum is the sum of the turn.completed usages so far, turns their
	// number.
	turnSum event.Update
	turns   int
	// ln and it are the line and item being read, kept so that decoding
	// them allocates neither; their raw values' arrays are the Scratch's
	// when the events are lent (rawArrays).
	ln codexLine
	it codexLentItem
	// heldEv and heldMsg are the pending error's event and message when
	// the events are lent.
	heldEv  event.Event
	heldMsg agents.KeptText
	// config and configExtra are a legacy config line's settings and its
	// event's Extra when the events are lent.
	config      map[string]any
	configExtra map[string]any
}

// Line implements Stream. A held-back error is flushed by the next line
// that decodes; a line that does not decode keeps it held.
func (s *codexStream) Line(l agents.Line, emit agents.Emit) bool {
	if len(l.Bytes) == 0 || l.Bytes[0] != '{' {
		return false
	}
	ln := &s.ln
	*ln = codexLine{}
	s.LendRaw(agents.RawCodexLine, &ln.Item, &ln.Usage, &ln.Questions, &ln.ID, &ln.Msg)
	err := agents.DecodeInto(l.Bytes, ln)
	s.KeepRaw(agents.RawCodexLine, &ln.Item, &ln.Usage, &ln.Questions, &ln.ID, &ln.Msg)
	if err != nil {
		return false
	}
	held := s.flush(emit, false)
	return agents.AfterHeld(l, held, s.line(l, ln, emit), emit)
}

// line handles a decoded line of either shape.
func (s *codexStream) line(l agents.Line, ln *codexLine, emit agents.Emit) bool {
	if len(ln.Msg) > 0 || ln.Prompt != nil || (ln.Type == "" && ln.Workdir != nil) {
		return s.legacyLine(l, ln, emit)
	}
	switch ln.Type {
	case "thread.started":
		emit(s.Event(&event.Event{SessionID: ln.ThreadID, Update: event.Update{SessionUpdate: event.SessionStart}}))
	case "turn.started":
		// A turn has no event of its own; it only resets the final text.
		s.lastText.Set("")
	case "item.started", "item.updated", "item.completed":
		return s.item(ln.Type, ln.Item, emit)
	case "item.plan.delta":
		// Plan text deltas: the completed plan item carries the whole text.
	case "turn.completed":
		s.turnCompleted(ln.Usage, emit)
	case "turn.failed":
		msg := ""
		if ln.Error != nil {
			msg = ln.Error.Message
		}
		emit(codexError(s.Blank(), msg, true))
		emit(s.Event(&event.Event{Update: event.Update{
			SessionUpdate: event.Result, IsError: event.Bool(true), Subtype: ln.Type, Text: s.lastText.Text(&s.Lender),
		}}))
	case "error":
		if ln.Message == nil {
			return false
		}
		// Held past this line: it must not refer to the line's bytes.
		s.hold(l, *ln.Message)
	case "request_user_input":
		ev := s.Event(&event.Event{Update: event.Update{
			SessionUpdate: event.ToolCall, ToolCallID: ln.CallID, ToolName: "request_user_input",
			ToolKind: event.ToolOther, Title: "Ask user", Status: event.StatusPending, RawInput: ln.Questions,
		}})
		var qs []struct {
			Question string `json:"question"`
		}
		if json.Unmarshal(ln.Questions, &qs) == nil && len(qs) > 0 && qs[0].Question != "" {
			ev.Update.Title = "Ask user: " + agents.FirstLine(qs[0].Question)
		}
		emit(ev)
	default:
		return false
	}
	return true
}

// Finish implements Stream: a top-level error on the last line is fatal,
// unless it only announces a reconnection attempt.
func (s *codexStream) Finish(emit agents.Emit) {
	s.flush(emit, true)
}

// hold holds back an error line's event until the next line, with its
// own copy of msg: when the events are lent, in an array of the stream's
// (the event held before was emitted, and is done with).
func (s *codexStream) hold(l agents.Line, msg string) {
	if s.Lends() {
		s.heldMsg.Set(msg)
		msg = s.heldMsg.Text(&s.Lender)
	} else {
		msg = strings.Clone(msg)
	}
	ev := codexError(s.Held(&s.heldEv), msg, false)
	ev.Line, ev.Offset = l.No, l.Offset
	s.pending = ev
}

// flush emits the held-back error, if any, and reports whether it did;
// last says no line followed it.
func (s *codexStream) flush(emit agents.Emit, last bool) bool {
	if s.pending == nil {
		return false
	}
	ev := s.pending
	s.pending = nil
	ev.Update.Fatal = last && !strings.HasPrefix(ev.Update.Message, "Reconnecting...")
	emit(ev)
	return true
}

// turnCompleted emits the usage of a turn.completed line and its result.
// A turn.completed reports the usage of its turn: the run's total is the
// sum of its turns' (a file that holds several invocations, or a turn
// per prompt), emitted as a run total after each.
func (s *codexStream) turnCompleted(raw json.RawMessage, emit agents.Emit) {
	if agents.Present(raw) {
		if u, ok := codexUsage(raw); ok {
			u.Scope = event.ScopeRun
			if s.turns > 0 {
				u = addUsage(s.turnSum, u)
			}
			s.turns++
			s.turnSum = u
			emit(s.Event(&event.Event{Update: u}))
		}
	}
	emit(s.Event(&event.Event{Update: event.Update{
		SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: "turn.completed", Text: s.lastText.Text(&s.Lender),
	}}))
}

// codexUsage maps a codex usage object (OpenAI semantics: input_tokens
// includes the cached share, output_tokens includes reasoning) to a usage
// update; every other counter goes to UsageExtra under its own name.
func codexUsage(raw json.RawMessage) (event.Update, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return event.Update{}, false
	}
	u := event.Update{SessionUpdate: event.Usage}
	for k, v := range m {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "input_tokens":
			u.PromptTokens = event.Int64(n)
		case "cached_input_tokens":
			u.CachedTokens = event.Int64(n)
		case "output_tokens":
			u.CompletionTokens = event.Int64(n)
		default:
			if u.UsageExtra == nil {
				u.UsageExtra = map[string]int64{}
			}
			u.UsageExtra[k] = n
		}
	}
	return u, true
}

// addUsage adds two usage updates counter by counter, into new values: a
// counter absent from both stays absent.
func addUsage(a, b event.Update) event.Update {
	sum := func(x, y *int64) *int64 {
		switch {
		case x == nil:
			return y
		case y == nil:
			return x
		}
		return event.Int64(*x + *y)
	}
	a.PromptTokens = sum(a.PromptTokens, b.PromptTokens)
	a.CachedTokens = sum(a.CachedTokens, b.CachedTokens)
	a.CompletionTokens = sum(a.CompletionTokens, b.CompletionTokens)
	extra := make(map[string]int64, len(a.UsageExtra)+len(b.UsageExtra))
	for k, v := range a.UsageExtra {
		extra[k] += v
	}
	for k, v := range b.UsageExtra {
		extra[k] += v
	}
	if len(extra) == 0 {
		extra = nil
	}
	a.UsageExtra = extra
	return a
}

// codexError makes ev, a zero event, an error update, and returns it. A
// message that is itself a JSON API error body
// ({"type":"error","status":400,"error":{…}}) is unwrapped to its inner
// message; the status and error type are kept in Extra.
func codexError(ev *event.Event, msg string, fatal bool) *event.Event {
	ev.Update = event.Update{SessionUpdate: event.Error, Message: msg, Fatal: fatal}
	if !strings.HasPrefix(msg, "{") {
		return ev
	}
	var body struct {
		Status *int `json:"status"`
		Error  *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	// The body's strings refer to a copy of msg's bytes (an error line is
	// rare: the copy costs nothing that counts).
	if json.UnmarshalOf([]byte(msg), &body, json.DecodeNoCopyString()) != nil ||
		body.Error == nil || body.Error.Message == "" {
		return ev
	}
	ev.Update.Message = body.Error.Message
	ev.Extra = map[string]any{"rawMessage": msg}
	if body.Status != nil {
		ev.Extra["status"] = *body.Status
	}
	if body.Error.Type != "" {
		ev.Extra["errorType"] = body.Error.Type
	}
	return ev
}

// item handles item.started, item.updated and item.completed.
func (s *codexStream) item(typ string, raw json.RawMessage, emit agents.Emit) bool {
	// The item's strings refer to raw, the copy of the item the line's
	// decoding made (events keep it as the raw output of a command).
	it := &s.it.codexItem
	if len(raw) == 0 || !s.decodeItem(raw) || it.Type == "" {
		return false
	}
	done := typ == "item.completed"
	switch it.Type {
	case "agent_message", "plan":
		// Both only come whole, as item.completed.
		if done {
			s.lastText.Set(it.Text)
			ev := s.ContentEvent(&event.Event{}, event.Update{SessionUpdate: event.AgentMessageChunk}, event.Text(it.Text))
			if it.Type == "plan" {
				ev.Extra = map[string]any{"itemType": "plan"}
			}
			emit(ev)
		}
	case "reasoning":
		if done {
			emit(s.ContentEvent(&event.Event{}, event.Update{SessionUpdate: event.AgentThoughtChunk}, event.Text(it.Text)))
		}
	case "todo_list":
		entries := make([]event.PlanEntry, len(it.Items))
		for i, t := range it.Items {
			entries[i] = event.PlanEntry{Content: t.Text, Status: "pending"}
			if t.Completed {
				entries[i].Status = "completed"
			}
		}
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.Plan, Entries: entries}}))
	case "error":
		emit(s.Event(&event.Event{Update: event.Update{SessionUpdate: event.Error, Message: it.Message}}))
	case "command_execution", "file_change", "mcp_tool_call", "web_search", "collab_tool_call":
		s.toolItem(it, raw, typ, emit)
	default:
		return false
	}
	return true
}

// decodeItem decodes an item into s.it, and reports whether it decoded.
func (s *codexStream) decodeItem(raw json.RawMessage) bool {
	it := &s.it
	*it = codexLentItem{}
	if !s.Lends() {
		return agents.DecodeInto(raw, &it.codexItem) == nil
	}
	arrays := [...]*json.RawMessage{&it.Changes, &it.Arguments, &it.Result, &it.Action, &it.AgentsStates, &it.TextRaw, &it.OutputRaw}
	s.LendRaw(agents.RawCodexItem, arrays[:]...)
	err := agents.DecodeInto(raw, it)
	s.KeepRaw(agents.RawCodexItem, arrays[:]...)
	var textOK, outputOK bool
	it.Text, textOK = s.Text(it.TextRaw)
	it.AggregatedOutput, outputOK = s.Text(it.OutputRaw)
	return err == nil && textOK && outputOK
}

// toolItem emits the tool_call of an item when it starts (or when it
// completes without having started: file_change is only ever completed) and
// the tool_call_update when it completes.
func (s *codexStream) toolItem(it *codexItem, raw json.RawMessage, typ string, emit agents.Emit) {
	if typ == "item.updated" && s.opened[it.ID] {
		return
	}
	if !s.opened[it.ID] {
		if s.opened == nil {
			s.opened = map[string]bool{}
		}
		s.opened[strings.Clone(it.ID)] = true
		emit(s.Event(&event.Event{Update: codexToolCall(it)}))
	}
	if typ != "item.completed" {
		return
	}
	delete(s.opened, it.ID)
	ev, c := s.ContentSlot()
	ev.Update = codexToolUpdate(it, raw, c)
	emit(ev)
}

// codexToolCall describes an item as a tool call.
func codexToolCall(it *codexItem) event.Update {
	u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: it.ID, Status: event.StatusInProgress}
	switch it.Type {
	case "command_execution":
		in, _ := agents.MarshalPlain(struct {
			Command string `json:"command"`
		}{it.Command})
		agents.DescribeTool(&u, it.Type, in)
	case "file_change":
		agents.DescribeTool(&u, it.Type, nil)
		u.RawInput = it.Changes
		var changes []struct {
			Path string `json:"path"`
		}
		_ = json.Unmarshal(it.Changes, &changes) // no paths, no locations
		for _, c := range changes {
			u.Locations = append(u.Locations, event.Location{Path: c.Path})
		}
		switch {
		case len(changes) == 1:
			u.Title = "Edit: " + changes[0].Path
		case len(changes) > 1:
			u.Title = "Edit: " + changes[0].Path + " (+" + strconv.Itoa(len(changes)-1) + " more)"
		}
	case "mcp_tool_call":
		agents.DescribeTool(&u, "mcp__"+it.Server+"__"+it.Tool, it.Arguments)
		u.Title = it.Server + "." + it.Tool
	case "web_search":
		var a struct {
			URL   string `json:"url"`
			Query string `json:"query"`
		}
		_ = json.Unmarshal(it.Action, &a) // older builds print no action
		in := map[string]any{}
		if it.Query != "" {
			in["query"] = it.Query
		}
		if agents.Present(it.Action) {
			in["action"] = it.Action
		}
		b, _ := agents.MarshalPlain(in)
		agents.DescribeTool(&u, it.Type, b)
		switch q := cmp.Or(it.Query, a.Query); {
		case q != "":
			u.Title = "Web search: " + agents.FirstLine(q)
		case a.URL != "":
			u.Title = "Open: " + a.URL
		default:
			u.Title = "Web search"
		}
	case "collab_tool_call":
		in := map[string]any{"receiver_thread_ids": it.ReceiverThreadIDs}
		if it.Prompt != nil {
			in["prompt"] = *it.Prompt
		}
		b, _ := agents.MarshalPlain(in)
		agents.DescribeTool(&u, it.Tool, b)
		u.ToolKind = event.ToolThink
		u.Title = "Agent: " + it.Tool
		if it.Prompt != nil && *it.Prompt != "" {
			u.Title += ": " + agents.FirstLine(*it.Prompt)
		}
	}
	return u
}

// codexToolUpdate is the terminal update of a completed tool item. A
// command's output is written to c, which the update then points to.
func codexToolUpdate(it *codexItem, raw json.RawMessage, c *event.Content) event.Update {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: it.ID, Status: event.StatusCompleted}
	switch it.Type {
	case "command_execution":
		u.ExitCode = it.ExitCode
		u.RawOutput = raw
		if it.AggregatedOutput != "" {
			*c = *event.Text(it.AggregatedOutput)
			u.Content = c
		}
		switch {
		case it.Status == "declined":
			u.Status, u.ApprovalRequired, u.Message = event.StatusFailed, true, "declined"
		case it.Status != "completed" || (it.ExitCode != nil && *it.ExitCode != 0):
			u.Status = event.StatusFailed
		}
	case "file_change":
		if it.Status != "completed" {
			u.Status = event.StatusFailed
		}
	case "mcp_tool_call":
		if agents.Present(it.Result) {
			u.RawOutput = it.Result
			u.Content = mcpContent(it.Result)
		}
		if it.Error != nil {
			u.Message = it.Error.Message
		}
		if it.Status == "failed" || it.Error != nil {
			u.Status = event.StatusFailed
		}
	case "collab_tool_call":
		if agents.Present(it.AgentsStates) {
			u.RawOutput = it.AgentsStates
		}
		if it.Status == "failed" {
			u.Status = event.StatusFailed
		}
	}
	return u
}

// mcpContent returns the text of an MCP result's content blocks, or its
// first image when it has no text.
func mcpContent(raw json.RawMessage) *event.Content {
	var r struct {
		Content []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Data     string `json:"data"`
			MimeType string `json:"mimeType"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return nil
	}
	var texts []string
	var img *event.Content
	for _, c := range r.Content {
		switch {
		case c.Type == "text":
			texts = append(texts, c.Text)
		case c.Type == "image" && img == nil:
			img = event.Image(c.MimeType, c.Data)
		}
	}
	if len(texts) > 0 {
		return event.Text(strings.Join(texts, "\n"))
	}
	return img
}
