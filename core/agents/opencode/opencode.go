package opencode

import (
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// opencodeParser reads `opencode run --format json`: an envelope
// {type, timestamp (epoch ms), sessionID, part | error} per line, emitted
// when a part is finished (packages/opencode/src/cli/cmd/run.ts). There is
// no init line and no terminal line; several runs concatenated in one file
// are told apart only by their sessionID.
type opencodeParser struct{}

// Kind implements Parser.
func (opencodeParser) Kind() agents.Kind { return agents.OpenCode }

// NewStream implements Parser.
func (opencodeParser) NewStream() agents.Stream { return &opencodeStream{} }

// EndsWithResult implements Parser: opencode prints no terminal line.
func (opencodeParser) EndsWithResult() bool { return false }

// Claims implements Parser: a camel-case sessionID beside a part whose type
// is one of opencode's part types.
func (opencodeParser) Claims(line []byte) bool {
	var l struct {
		SessionID string `json:"sessionID"`
		Part      *struct {
			Type string `json:"type"`
		} `json:"part"`
	}
	if json.Unmarshal(line, &l) != nil || l.SessionID == "" || l.Part == nil {
		return false
	}
	switch l.Part.Type {
	case "step-start", "step-finish", "text", "tool", "reasoning":
		return true
	}
	return false
}

// opencodeLine is one envelope.
type opencodeLine struct {
	Type      string          `json:"type"`
	Timestamp *int64          `json:"timestamp"`
	SessionID string          `json:"sessionID"`
	Part      *opencodePart   `json:"part"`
	Error     json.RawMessage `json:"error"`
}

// opencodePart is the union of the part types run.ts emits.
type opencodePart struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	MessageID string `json:"messageID"`
	Type      string `json:"type"`
	// text, reasoning.
	Text string `json:"text"`
	// tool.
	Tool   string         `json:"tool"`
	CallID string         `json:"callID"`
	State  *opencodeState `json:"state"`
	// step-finish.
	Reason string          `json:"reason"`
	Cost   *float64        `json:"cost"`
	Tokens *opencodeTokens `json:"tokens"`
}

type opencodeState struct {
	Status   string          `json:"status"`
	Input    json.RawMessage `json:"input"`
	Output   *string         `json:"output"`
	Error    *string         `json:"error"`
	Title    string          `json:"title"`
	Metadata json.RawMessage `json:"metadata"`
	Time     *struct {
		Start *int64 `json:"start"`
		End   *int64 `json:"end"`
	} `json:"time"`
}

type opencodeTokens struct {
	Input     *int64 `json:"input"`
	Output    *int64 `json:"output"`
	Reasoning *int64 `json:"reasoning"`
	Total     *int64 `json:"total"`
	Cache     *struct {
		Read  *int64 `json:"read"`
		Write *int64 `json:"write"`
	} `json:"cache"`
}

// opencodeStream is the state of one opencode stream.
type opencodeStream struct {
	agents.Lender
	session string
	// steps counts the step_finish lines per message id, so that two steps
	// of one message keep apart as usage message ids.
	steps map[string]int
	// lastText is the session's last text part, the result's text.
	lastText agents.KeptText
	// pending is an error event held back until the next line shows
	// whether its session went on: only an error that ends a session is
	// fatal.
	pending *event.Event
	// ln is the line being read, kept so that decoding it copies nothing
	// in or out; usage and reason are the maps of a step's usage event
	// when the events are lent (lender.counters).
	ln     opencodeLine
	usage  map[string]int64
	reason map[string]any
}

// Line implements Stream.
func (s *opencodeStream) Line(l agents.Line, emit agents.Emit) bool {
	ln := &s.ln
	*ln = opencodeLine{}
	if len(l.Bytes) == 0 || l.Bytes[0] != '{' || agents.DecodeInto(l.Bytes, ln) != nil || ln.Type == "" {
		// A line that does not decode keeps a held-back error held.
		return false
	}
	if ln.SessionID == "" && ln.Part != nil {
		ln.SessionID = ln.Part.SessionID
	}
	held := s.flush(emit, ln.SessionID != "" && ln.SessionID != s.session)
	return agents.AfterHeld(l, held, s.line(l, ln, emit), emit)
}

// line handles a decoded envelope.
func (s *opencodeStream) line(l agents.Line, ln *opencodeLine, emit agents.Emit) bool {
	ts := agents.EpochMS(ln.Timestamp)
	// The line's strings refer to the read buffer (decodeLine): what the
	// stream keeps past the line is copied.
	if ln.SessionID != "" && ln.SessionID != s.session {
		s.session, s.steps = strings.Clone(ln.SessionID), nil
		s.lastText.Set("")
		emit(s.Event(&event.Event{SessionID: ln.SessionID, Timestamp: ts, Update: event.Update{SessionUpdate: event.SessionStart}}))
	}
	if ln.Type == "error" {
		s.pending = opencodeError(ln.Error, ts)
		s.pending.Line, s.pending.Offset = l.No, l.Offset
		if ln.SessionID != "" {
			// Held past the line: the stream's copy of the same id.
			s.pending.SessionID = s.session
		}
		return true
	}
	p := ln.Part
	if p == nil {
		return false
	}
	base := event.Event{SessionID: ln.SessionID, Timestamp: ts, MessageID: p.MessageID}
	var ev *event.Event
	switch ln.Type {
	case "step_start":
		// A step is one model call; its usage comes with step_finish.
		return true
	case "text":
		s.lastText.Set(p.Text)
		ev = s.ContentEvent(&base, event.Update{SessionUpdate: event.AgentMessageChunk}, event.Text(p.Text))
	case "reasoning":
		ev = s.ContentEvent(&base, event.Update{SessionUpdate: event.AgentThoughtChunk}, event.Text(p.Text))
	case "tool_use":
		if p.State == nil {
			return false
		}
		c, upd := opencodeTool(p)
		call := s.Event(&c)
		call.SessionID, call.MessageID, call.Timestamp = ln.SessionID, p.MessageID, ts
		if !call.Update.StartedAt.IsZero() {
			call.Timestamp = call.Update.StartedAt
		}
		emit(call)
		if st := p.State.Status; st != "completed" && st != "error" {
			// run.ts prints only ended calls; a pending or running one
			// (another client of the event stream) has no update yet.
			return true
		}
		ev = s.Event(&base)
		ev.Update = upd
	case "step_finish":
		s.stepFinish(p, s.Event(&base), emit)
		return true
	default:
		return false
	}
	emit(ev)
	return true
}

// opencodeTool turns a tool part, which opencode prints once when the call
// has ended, into its tool_call and its tool_call_update.
func opencodeTool(p *opencodePart) (event.Event, event.Update) {
	st := p.State
	id := p.CallID
	if id == "" {
		id = p.ID
	}
	call := event.Event{Update: event.Update{SessionUpdate: event.ToolCall, ToolCallID: id, Status: event.StatusInProgress}}
	agents.DescribeTool(&call.Update, p.Tool, st.Input)
	if call.Update.Title == p.Tool && st.Title != "" {
		call.Update.Title = st.Title
	}
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: id, Status: event.StatusCompleted}
	if st.Time != nil {
		u.StartedAt, u.EndedAt = agents.EpochMS(st.Time.Start), agents.EpochMS(st.Time.End)
		call.Update.StartedAt = u.StartedAt
	}
	if st.Output != nil && *st.Output != "" {
		u.Content = event.Text(*st.Output)
	}
	if agents.Present(st.Metadata) {
		u.RawOutput = st.Metadata
		var md struct {
			Exit *int `json:"exit"`
		}
		if json.Unmarshal(st.Metadata, &md) == nil {
			u.ExitCode = md.Exit
		}
	}
	// A shell command that exits non-zero still "completes" in opencode;
	// its exit code in the metadata is the verdict.
	if st.Status == "error" || (u.ExitCode != nil && *u.ExitCode != 0) {
		u.Status = event.StatusFailed
		if st.Error != nil {
			u.Message = *st.Error
			// run mode auto-rejects permission requests; the tool then
			// fails with PermissionNext's RejectedError text.
			u.ApprovalRequired = strings.Contains(u.Message, "rejected permission")
		}
	}
	return call, u
}

// stepFinish emits a step's usage (one model call) and, when the step
// stopped the run, a result: opencode prints no terminal line, and a
// step_finish whose reason is not "tool-calls" is the unambiguous end.
func (s *opencodeStream) stepFinish(p *opencodePart, ev *event.Event, emit agents.Emit) {
	u := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall, CostUSD: p.Cost}
	if t := p.Tokens; t != nil {
		var read, write int64
		extra := s.Counters(&s.usage)
		put := func(k string, v *int64) {
			if v != nil {
				extra[k] = *v
			}
		}
		put("input", t.Input)
		put("output", t.Output)
		put("reasoning", t.Reasoning)
		put("total", t.Total)
		if t.Cache != nil {
			put("cache_read", t.Cache.Read)
			put("cache_write", t.Cache.Write)
			if t.Cache.Read != nil {
				read = *t.Cache.Read
				u.CachedTokens = event.Int64(read)
			}
			if t.Cache.Write != nil {
				write = *t.Cache.Write
			}
		}
		if t.Input != nil {
			u.PromptTokens = agents.SumPresent(t.Input, &read, &write)
		}
		// A total beyond the parts counts as output, as ccusage's
		// opencode adapter counts it (countTotal).
		u.PromptTokens, u.CompletionTokens = agents.CountTotal(u.PromptTokens, agents.SumPresent(t.Output, t.Reasoning), t.Total,
			t.Input, t.Output, t.Reasoning, &read, &write)
		if len(extra) > 0 {
			u.UsageExtra = extra
		}
	}
	id := p.MessageID
	if id == "" {
		id = p.ID
	}
	if s.steps == nil {
		s.steps = map[string]int{}
	}
	n := s.steps[id]
	if n == 0 {
		id = strings.Clone(id)
	}
	s.steps[id]++
	if n > 0 {
		id += "#" + strconv.Itoa(n+1)
	}
	ev.MessageID = id
	ev.Update = u
	if p.Reason != "" {
		ev.Extra = s.Extras(&s.reason)
		ev.Extra["reason"] = p.Reason
	}
	emit(ev)
	switch p.Reason {
	case "stop":
		emit(s.Event(&event.Event{SessionID: ev.SessionID, Timestamp: ev.Timestamp, Update: event.Update{
			SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: p.Reason, Text: s.lastText.Text(&s.Lender),
		}}))
	case "length", "content-filter", "error":
		emit(s.Event(&event.Event{SessionID: ev.SessionID, Timestamp: ev.Timestamp, Update: event.Update{
			SessionUpdate: event.Result, IsError: event.Bool(true), Subtype: p.Reason, Text: s.lastText.Text(&s.Lender),
		}}))
	}
}

// opencodeError makes the error event of an error envelope,
// {name, data:{message}} (a session.error).
func opencodeError(raw json.RawMessage, ts time.Time) *event.Event {
	ev := &event.Event{Timestamp: ts, Update: event.Update{SessionUpdate: event.Error, RawOutput: raw}}
	var e struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &e) == nil {
		ev.Update.Message = e.Data.Message
		if ev.Update.Message == "" {
			ev.Update.Message = e.Name
		}
		if e.Name != "" {
			ev.Extra = map[string]any{"name": e.Name}
		}
	}
	if ev.Update.Message == "" {
		ev.Update.Message = string(raw)
	}
	return ev
}

// flush emits the held-back error; ended says its session ended with it.
// An error that ends its session is fatal and, as opencode prints no
// terminal line, also the session's result.
func (s *opencodeStream) flush(emit agents.Emit, ended bool) bool {
	if s.pending == nil {
		return false
	}
	ev := s.pending
	s.pending = nil
	if ended {
		agents.FatalEnd(ev, "error", s.lastText.Text(&s.Lender), emit)
	} else {
		emit(ev)
	}
	return true
}

// Finish implements Stream.
func (s *opencodeStream) Finish(emit agents.Emit) {
	s.flush(emit, true)
}
