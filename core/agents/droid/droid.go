package droid

import (
	"bytes"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// droidParser reads Factory Droid's `droid exec --output-format
// stream-json`: a Claude-shaped system/init line, then flat top-level
// message, reasoning, tool_call and tool_result lines with epoch-ms
// timestamps, an `error{source:"cli"}` line when exec ends early and, in
// later builds, a terminal `completion` line (FORMATS.md "Factory Droid").
type droidParser struct{}

func (droidParser) Kind() agents.Kind        { return agents.Droid }
func (droidParser) NewStream() agents.Stream { return &droidStream{} }

// EndsWithResult implements Parser: only later builds print a completion
// line.
func (droidParser) EndsWithResult() bool { return false }

// Claims implements Parser. Droid's init line is Claude's shape, so it is
// never claimed; the lines claimed are the ones no other harness prints: a
// `message` with a role and a numeric epoch-ms timestamp (Gemini's
// timestamps are strings), a `tool_call` naming `toolName`, a `tool_result`
// with `isError` and a `completion` with `finalText`.
func (droidParser) Claims(line []byte) bool {
	if !bytes.Contains(line, []byte(`"type"`)) {
		return false
	}
	var l struct {
		Type      string          `json:"type"`
		Role      string          `json:"role"`
		Timestamp json.RawMessage `json:"timestamp"`
		ToolName  *string         `json:"toolName"`
		IsError   *bool           `json:"isError"`
		FinalText *string         `json:"finalText"`
	}
	if json.Unmarshal(line, &l) != nil {
		return false
	}
	switch l.Type {
	case "message":
		return l.Role != "" && len(l.Timestamp) > 0 && l.Timestamp[0] >= '0' && l.Timestamp[0] <= '9'
	case "tool_call":
		return l.ToolName != nil
	case "tool_result":
		return l.IsError != nil
	case "completion":
		return l.FinalText != nil
	}
	return false
}

// droidLine is every field of every droid line sift reads.
type droidLine struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	SessionID string `json:"session_id"`
	Timestamp *int64 `json:"timestamp"`
	// system/init.
	Cwd   string   `json:"cwd"`
	Tools []string `json:"tools"`
	Model string   `json:"model"`
	// message, reasoning.
	Role string `json:"role"`
	ID   string `json:"id"`
	Text string `json:"text"`
	// tool_call, tool_result.
	MessageID  string          `json:"messageId"`
	ToolID     string          `json:"toolId"`
	ToolName   string          `json:"toolName"`
	Parameters json.RawMessage `json:"parameters"`
	IsError    *bool           `json:"isError"`
	Value      json.RawMessage `json:"value"`
	Error      json.RawMessage `json:"error"`
	// error.
	Source  string          `json:"source"`
	Message json.RawMessage `json:"message"`
	// completion (later builds), and the `-o json` result line.
	FinalText   *string     `json:"finalText"`
	NumTurns    *int        `json:"numTurns"`
	DurationMs  *int64      `json:"durationMs"`
	Usage       *droidUsage `json:"usage"`
	IsErrorRes  *bool       `json:"is_error"`
	Result      *string     `json:"result"`
	DurationRes *int64      `json:"duration_ms"`
	NumTurnsRes *int        `json:"num_turns"`
}

// droidUsage is the `usage` object of a completion line. Its names are
// Anthropic's (evolve's droid parser test, FORMATS.md [S13], and other
// public droid integrations quote `input_tokens, output_tokens,
// cache_read_input_tokens, cache_creation_input_tokens`), so it is read
// with Anthropic's meaning: input_tokens excludes both cache shares.
type droidUsage struct {
	Input         *int64 `json:"input_tokens"`
	Output        *int64 `json:"output_tokens"`
	CacheRead     *int64 `json:"cache_read_input_tokens"`
	CacheCreation *int64 `json:"cache_creation_input_tokens"`
	Thinking      *int64 `json:"thinking_tokens"`
}

// droidCall is a tool call still waiting for its result.
type droidCall struct {
	id, name string
}

// droidStream holds the state of one droid stream: the open tool calls and
// the events whose meaning depends on the line after them.
type droidStream struct {
	agents.Lender
	open []droidCall
	// cancelled is a tool result droid cancelled; it is held until the next
	// line says whether exec ended for lack of permission.
	cancelled *event.Event
	// lastErr is the last `error` line; it is fatal only when nothing
	// follows it, which Finish decides.
	lastErr *event.Event
	// ln is the line being read, kept so that decoding it copies nothing
	// in or out; its raw values' arrays are the Scratch's when the events
	// are lent (rawArrays).
	ln droidLine
}

// Line implements Stream.
func (s *droidStream) Line(l agents.Line, emit agents.Emit) bool {
	d := &s.ln
	*d = droidLine{}
	// The line's strings refer to the read buffer (decodeLine) and its raw
	// values may be arrays the next line reuses: held events and open
	// calls get their own copies.
	arrays := [...]*json.RawMessage{&d.Parameters, &d.Value, &d.Error, &d.Message}
	s.LendRaw(agents.RawDroidLine, arrays[:]...)
	s.LendTools(&d.Tools)
	ok := agents.DecodeInto(l.Bytes, d) == nil
	s.KeepRaw(agents.RawDroidLine, arrays[:]...)
	s.KeepTools(d.Tools)
	held := s.flush(emit, d.explanation())
	return agents.AfterHeld(l, held, ok && s.line(l, d, emit), emit)
}

// line emits the events of one decoded line.
func (s *droidStream) line(l agents.Line, d *droidLine, emit agents.Emit) bool {
	ts := agents.EpochMS(d.Timestamp)
	switch d.Type {
	case "system":
		if d.Subtype != "init" {
			return false
		}
		emit(s.Event(&event.Event{SessionID: d.SessionID, Model: d.Model, Update: event.Update{
			SessionUpdate: event.SessionStart, Cwd: d.Cwd, Tools: d.Tools,
		}}))
	case "message":
		kind := event.AgentMessageChunk
		switch d.Role {
		case "assistant":
		case "user":
			kind = event.UserMessageChunk
		default:
			return false
		}
		emit(s.ContentEvent(&event.Event{SessionID: d.SessionID, Timestamp: ts, MessageID: d.ID},
			event.Update{SessionUpdate: kind}, event.Text(d.Text)))
	case "reasoning":
		emit(s.ContentEvent(&event.Event{SessionID: d.SessionID, Timestamp: ts, MessageID: d.ID},
			event.Update{SessionUpdate: event.AgentThoughtChunk}, event.Text(d.Text)))
	case "tool_call":
		s.toolCall(d, ts, emit)
	case "tool_result":
		s.toolResult(l, d, ts, emit)
	case "error":
		msg, _ := agents.JSONText(d.Message)
		ev := &event.Event{Line: l.No, Offset: l.Offset, SessionID: d.SessionID, Timestamp: ts,
			Update: event.Update{SessionUpdate: event.Error, Message: msg}}
		if d.Source != "" {
			ev.Extra = map[string]any{"source": d.Source}
		}
		agents.Detach(ev, l.Bytes)
		s.lastErr = ev
	case "completion", "result":
		s.result(d, ts, emit)
	default:
		return false
	}
	return true
}

// explanation is the text a line gives for why exec stopped, used to decide
// whether a cancelled tool was blocked for permission.
func (d *droidLine) explanation() string {
	switch {
	case d.Type == "message" && d.Role == "assistant":
		return d.Text
	case d.Type == "error":
		s, _ := agents.JSONText(d.Message)
		return s
	}
	return ""
}

// flush emits the held events once a following line exists: the error is
// then not the last line, and a cancelled tool is approval-blocked when the
// next line says exec ended for insufficient permission (the
// vibekanban-insufficient-perms capture).
// It reports whether it emitted anything.
func (s *droidStream) flush(emit agents.Emit, next string) bool {
	held := s.cancelled != nil || s.lastErr != nil
	if s.cancelled != nil {
		if strings.Contains(strings.ToLower(next), "insufficient permission") {
			s.cancelled.Update.ApprovalRequired = true
		}
		emit(s.cancelled)
		s.cancelled = nil
	}
	if s.lastErr != nil {
		emit(s.lastErr)
		s.lastErr = nil
	}
	return held
}

// Finish implements Stream. An `error` line that ends the stream is fatal:
// exec ended early, an unambiguous end, so it also becomes the run's result.
func (s *droidStream) Finish(emit agents.Emit) {
	if s.cancelled != nil {
		emit(s.cancelled)
		s.cancelled = nil
	}
	if e := s.lastErr; e != nil {
		s.lastErr = nil
		agents.FatalEnd(e, "", e.Update.Message, emit)
	}
}

func (s *droidStream) toolCall(d *droidLine, ts time.Time, emit agents.Emit) {
	name := d.ToolName
	if name == "" {
		name = d.ToolID
	}
	ev := s.Event(&event.Event{SessionID: d.SessionID, Timestamp: ts, MessageID: d.MessageID, Update: event.Update{
		SessionUpdate: event.ToolCall, ToolCallID: d.ID, Status: event.StatusPending,
	}})
	agents.DescribeTool(&ev.Update, name, d.Parameters)
	if strings.EqualFold(name, "ApplyPatch") {
		patchLocations(&ev.Update, d.Parameters)
	}
	droidGlob(&ev.Update, d.Parameters)
	both := d.ID + name // one copy for the two
	s.open = append(s.open, droidCall{id: both[:len(d.ID)], name: both[len(d.ID):]})
	emit(ev)
	if strings.EqualFold(name, "TodoWrite") {
		if entries := agents.TodoEntries(d.Parameters); entries != nil {
			emit(s.Event(&event.Event{SessionID: d.SessionID, Timestamp: ts, MessageID: d.MessageID, Update: event.Update{
				SessionUpdate: event.Plan, Entries: entries,
			}}))
		}
	}
}

// take removes and returns the open call a result belongs to: the one with
// its id, or the oldest open call when the result names none (a droid
// regression once dropped the id, FORMATS.md [S12]).
func (s *droidStream) take(id string) droidCall {
	for i, c := range s.open {
		if id == "" || c.id == id {
			s.open = append(s.open[:i], s.open[i+1:]...)
			return c
		}
	}
	return droidCall{id: id}
}

func (s *droidStream) toolResult(l agents.Line, d *droidLine, ts time.Time, emit agents.Emit) {
	call := s.take(d.ID)
	ev, c := s.ContentSlot()
	*ev = event.Event{SessionID: d.SessionID, Timestamp: ts, MessageID: d.MessageID, Update: event.Update{
		SessionUpdate: event.ToolCallUpdate, ToolCallID: call.id, ToolName: call.name, Status: event.StatusCompleted,
	}}
	u := &ev.Update
	if text, ok := s.StringText(d.Value); ok {
		*c = *event.Text(text)
		u.Content = c
		if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
			u.RawOutput = json.RawMessage(t)
		}
		if code, ok := agents.ProcessExitCode(text); ok {
			u.ExitCode = event.Int(code)
		}
	} else if agents.Present(d.Value) {
		u.RawOutput = d.Value
	}
	if d.IsError != nil && *d.IsError {
		u.Status = event.StatusFailed
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(d.Error, &e) == nil {
			u.Message = e.Message
		} else if s, ok := agents.JSONText(d.Error); ok {
			u.Message = s
		}
		if len(d.Error) > 0 && u.RawOutput == nil {
			u.RawOutput = d.Error
		}
		if strings.Contains(strings.ToLower(u.Message), "cancel") {
			// Held past the line: an event of its own, which refers to
			// nothing of the line or of the stream's arrays.
			held := new(event.Event)
			*held = *ev
			if u.Content != nil {
				held.Update.Content = event.Text(u.Content.Text)
			}
			held.Line, held.Offset = l.No, l.Offset
			if s.Lends() {
				agents.KeepAll(held)
			} else {
				agents.Detach(held, l.Bytes)
			}
			s.cancelled = held
			return
		}
	}
	emit(ev)
}

// result handles the terminal completion line (and the `-o json` result
// line): the run usage first, then the result.
func (s *droidStream) result(d *droidLine, ts time.Time, emit agents.Emit) {
	if u := d.Usage; u != nil {
		ev := &event.Event{SessionID: d.SessionID, Timestamp: ts, Update: event.Update{
			SessionUpdate: event.Usage, Scope: event.ScopeRun,
			CompletionTokens: u.Output, CachedTokens: u.CacheRead,
		}}
		ev.Update.PromptTokens = agents.SumPresent(u.Input, u.CacheRead, u.CacheCreation)
		extra := map[string]int64{}
		agents.PutPresent(extra, "input_tokens", u.Input)
		agents.PutPresent(extra, "cache_creation_input_tokens", u.CacheCreation)
		agents.PutPresent(extra, "thinking_tokens", u.Thinking)
		if len(extra) > 0 {
			ev.Update.UsageExtra = extra
		}
		emit(ev)
	}
	r := &event.Event{SessionID: d.SessionID, Timestamp: ts, Update: event.Update{SessionUpdate: event.Result}}
	u := &r.Update
	if d.Type == "completion" {
		// A completion is droid's normal end; a failed exec ends with an
		// error line instead, so an absent isError means success.
		u.IsError = event.Bool(d.IsError != nil && *d.IsError)
		if d.FinalText != nil {
			u.Text = *d.FinalText
		}
		u.NumTurns, u.DurationMs = d.NumTurns, d.DurationMs
	} else {
		u.IsError, u.Subtype, u.NumTurns, u.DurationMs = d.IsErrorRes, d.Subtype, d.NumTurnsRes, d.DurationRes
		if d.Result != nil {
			u.Text = *d.Result
		}
	}
	emit(r)
}

// patchLocations names the files an ApplyPatch input touches, from its
// `*** Update File: path` (Add, Delete) headers.
func patchLocations(u *event.Update, params json.RawMessage) {
	var p struct {
		Input string `json:"input"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	for _, line := range strings.Split(p.Input, "\n") {
		for _, h := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
			if path, ok := strings.CutPrefix(line, h); ok && strings.TrimSpace(path) != "" {
				u.Locations = append(u.Locations, event.Location{Path: strings.TrimSpace(path)})
			}
		}
	}
	if len(u.Locations) > 0 && u.Title == u.ToolName {
		u.Title = "Edit: " + u.Locations[0].Path
	}
}

// droidGlob titles a search by its `patterns` and places it in its
// `folder`, the keys droid's Glob tool uses.
func droidGlob(u *event.Update, params json.RawMessage) {
	if u.ToolKind != event.ToolSearch || u.Title != u.ToolName {
		return
	}
	var p struct {
		Patterns []string `json:"patterns"`
		Folder   string   `json:"folder"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	if len(p.Patterns) > 0 {
		u.Title = "Search: " + agents.FirstLine(strings.Join(p.Patterns, " "))
	}
	if p.Folder != "" && len(u.Locations) == 0 {
		u.Locations = []event.Location{{Path: p.Folder}}
	}
}
