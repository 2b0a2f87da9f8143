package gemini

import (
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// geminiParser reads Gemini CLI's `--output-format stream-json`: init,
// message, tool_use, tool_result, error and result lines, each with an ISO
// timestamp (gemini-cli packages/core/src/output/types.ts).
type geminiParser struct{}

// Kind implements Parser.
func (geminiParser) Kind() agents.Kind { return agents.Gemini }

// NewStream implements Parser.
func (geminiParser) NewStream() agents.Stream { return &geminiStream{} }

// EndsWithResult implements Parser: Gemini CLI ends with a result line.
func (geminiParser) EndsWithResult() bool { return true }

// Claims implements Parser. Gemini's lines carry an ISO timestamp string
// (droid's are epoch numbers) and link tools by tool_id; its init line has a
// session_id and a model.
func (geminiParser) Claims(line []byte) bool {
	var l struct {
		Type      string          `json:"type"`
		Timestamp json.RawMessage `json:"timestamp"`
		SessionID string          `json:"session_id"`
		Model     *string         `json:"model"`
		ToolID    string          `json:"tool_id"`
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
	}
	if json.Unmarshal(line, &l) != nil || len(l.Timestamp) == 0 || l.Timestamp[0] != '"' {
		return false
	}
	switch l.Type {
	case "init":
		return l.SessionID != "" && l.Model != nil
	case "tool_use", "tool_result":
		return l.ToolID != ""
	case "message":
		return l.Role != "" && len(l.Content) > 0 && l.Content[0] == '"'
	}
	return false
}

// geminiLine is the union of Gemini's stream-json events.
type geminiLine struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	// init.
	SessionID string `json:"session_id"`
	Model     string `json:"model"`
	// message.
	Role    string `json:"role"`
	Content string `json:"content"`
	Delta   bool   `json:"delta"`
	// tool_use.
	ToolName   string          `json:"tool_name"`
	ToolID     string          `json:"tool_id"`
	Parameters json.RawMessage `json:"parameters"`
	// tool_result and result.
	Status string          `json:"status"`
	Output *string         `json:"output"`
	Error  json.RawMessage `json:"error"`
	// error.
	Severity string `json:"severity"`
	Message  string `json:"message"`
	// result.
	Stats json.RawMessage `json:"stats"`
}

// geminiLentLine is a line as it is decoded when the events are lent: its
// texts are read from their raw values once it is decoded (lineTexts), so
// that an escaped one costs no string of its own.
type geminiLentLine struct {
	geminiLine
	ContentRaw json.RawMessage `json:"content"`
	OutputRaw  json.RawMessage `json:"output"`
	// output is what Output points to.
	output string
}

type geminiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// geminiStream is the state of one Gemini stream.
type geminiStream struct {
	agents.Lender
	model string
	// msgID is the synthetic id of the model response under way ("" when
	// none is): Gemini prints no message ids, and one response arrives as
	// several assistant delta lines followed by its tool_use lines. It is
	// "gemini-L<n>", n the response's first line, so it is stable.
	msgID string
	// lastText is the text of the last assistant response, the result's.
	lastText agents.KeptText
	textOpen bool
	// ln is the line being read, kept so that decoding it allocates
	// nothing; its raw values' arrays are the Scratch's when the events
	// are lent (rawArrays).
	ln geminiLentLine
}

// Line implements Stream.
func (s *geminiStream) Line(l agents.Line, emit agents.Emit) bool {
	if len(l.Bytes) == 0 || l.Bytes[0] != '{' {
		return false
	}
	if !s.decode(l.Bytes) {
		return false
	}
	ln := &s.ln.geminiLine
	ts := agents.ISOTime(ln.Timestamp)
	var ev *event.Event
	switch ln.Type {
	case "init":
		s.model, s.msgID = strings.Clone(ln.Model), ""
		ev = s.Event(&event.Event{Timestamp: ts, SessionID: ln.SessionID, Model: ln.Model,
			Update: event.Update{SessionUpdate: event.SessionStart}})
	case "message":
		switch ln.Role {
		case "user":
			s.msgID = ""
			ev = s.ContentEvent(&event.Event{Timestamp: ts}, event.Update{SessionUpdate: event.UserMessageChunk},
				event.Text(ln.Content))
		case "assistant":
			s.response(l.No)
			if !s.textOpen || !ln.Delta {
				s.lastText = s.lastText[:0]
			}
			s.textOpen = ln.Delta
			s.lastText = append(s.lastText, ln.Content...)
			ev = s.ContentEvent(&event.Event{Timestamp: ts, MessageID: s.msgID, Model: s.model},
				event.Update{SessionUpdate: event.AgentMessageChunk}, event.Text(ln.Content))
		default:
			return false
		}
	case "tool_use":
		s.response(l.No)
		s.textOpen = false
		ev = s.Event(&event.Event{Timestamp: ts, MessageID: s.msgID, Model: s.model,
			Update: event.Update{SessionUpdate: event.ToolCall, ToolCallID: ln.ToolID, Status: event.StatusPending}})
		agents.DescribeTool(&ev.Update, ln.ToolName, ln.Parameters)
	case "tool_result":
		s.msgID, s.textOpen = "", false
		e, c := s.ContentSlot()
		e.Timestamp = ts
		e.Update = geminiToolResult(ln, c)
		ev = e
	case "error":
		ev = s.Event(&event.Event{Timestamp: ts, Update: event.Update{SessionUpdate: event.Error, Message: ln.Message}})
		if ln.Severity != "" {
			ev.Extra = map[string]any{"severity": ln.Severity}
		}
	case "result":
		s.result(ln, s.Event(&event.Event{Timestamp: ts}), emit)
		return true
	default:
		return false
	}
	emit(ev)
	return true
}

// decode decodes a line into s.ln, and reports whether it decoded.
func (s *geminiStream) decode(b []byte) bool {
	ln := &s.ln
	*ln = geminiLentLine{}
	if !s.Lends() {
		return agents.DecodeInto(b, &ln.geminiLine) == nil
	}
	arrays := [...]*json.RawMessage{&ln.Parameters, &ln.Error, &ln.Stats, &ln.ContentRaw, &ln.OutputRaw}
	s.LendRaw(agents.RawGeminiLine, arrays[:]...)
	err := agents.DecodeInto(b, ln)
	s.KeepRaw(agents.RawGeminiLine, arrays[:]...)
	var contentOK, outputOK bool
	ln.Content, contentOK = s.Text(ln.ContentRaw)
	if ln.output, outputOK = s.Text(ln.OutputRaw); ln.output != "" {
		// Only a non-empty output is read (geminiToolResult).
		ln.Output = &ln.output
	}
	return err == nil && contentOK && outputOK
}

// response starts a model response at line n unless one is under way.
func (s *geminiStream) response(n int) {
	if s.msgID == "" {
		s.msgID = "gemini-L" + strconv.Itoa(n)
	}
}

// geminiToolResult is the update of a tool_result line. A result refused by
// the policy engine (error type policy_violation) is approval-blocked, not
// a failure of the tool.
//
// The output, if any, is written to c, which the update then points to.
func geminiToolResult(ln *geminiLine, c *event.Content) event.Update {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: ln.ToolID, Status: event.StatusCompleted}
	if ln.Status != "success" {
		u.Status = event.StatusFailed
	}
	if ln.Output != nil && *ln.Output != "" {
		*c = *event.Text(*ln.Output)
		u.Content = c
	}
	if agents.Present(ln.Error) {
		u.RawOutput = ln.Error
		var e geminiError
		if json.Unmarshal(ln.Error, &e) == nil {
			u.Message = e.Message
			u.ApprovalRequired = e.Type == "policy_violation"
		}
	}
	return u
}

// result emits the run usage of a result line's stats, a fatal error when
// the run failed, and the result.
func (s *geminiStream) result(ln *geminiLine, ev *event.Event, emit agents.Emit) {
	s.msgID, s.textOpen = "", false
	var durMs *int64
	if agents.Present(ln.Stats) {
		u, ok, d := geminiUsage(ln.Stats)
		durMs = d
		if ok {
			emit(s.Event(&event.Event{Timestamp: ev.Timestamp, Model: s.model, Update: u}))
		}
	}
	isErr := ln.Status != "success"
	if agents.Present(ln.Error) {
		var e geminiError
		_ = json.UnmarshalOf(ln.Error, &e) // a malformed error still fails the run
		emit(s.Event(&event.Event{Timestamp: ev.Timestamp, Update: event.Update{
			SessionUpdate: event.Error, Message: e.Message, Fatal: isErr, RawOutput: ln.Error,
		}}))
	}
	ev.Update = event.Update{
		SessionUpdate: event.Result, IsError: event.Bool(isErr), Subtype: ln.Status,
		DurationMs: durMs, Text: s.lastText.Text(&s.Lender),
	}
	emit(ev)
}

// geminiStats is result.stats (gemini-cli StreamStats). Newer builds add
// per-model stats, which are not counters of the run and are not kept.
type geminiStats struct {
	TotalTokens  *int64 `json:"total_tokens"`
	InputTokens  *int64 `json:"input_tokens"`
	OutputTokens *int64 `json:"output_tokens"`
	Cached       *int64 `json:"cached"`
	Input        *int64 `json:"input"`
	DurationMs   *int64 `json:"duration_ms"`
	ToolCalls    *int64 `json:"tool_calls"`
}

// geminiUsage maps result.stats to a run usage: input_tokens already
// includes the cached share (input_tokens = cached + input in builds that
// print the breakdown); output_tokens is the completion. total_tokens,
// input and tool_calls are kept under their own names. It also returns
// duration_ms. ok is false when the stats hold no counter.
func geminiUsage(raw json.RawMessage) (u event.Update, ok bool, durationMs *int64) {
	var st geminiStats
	if json.UnmarshalOf(raw, &st) != nil {
		return u, false, nil
	}
	u = event.Update{
		SessionUpdate: event.Usage, Scope: event.ScopeRun,
		PromptTokens: st.InputTokens, CompletionTokens: st.OutputTokens, CachedTokens: st.Cached,
	}
	for _, c := range []struct {
		name string
		v    *int64
	}{{"total_tokens", st.TotalTokens}, {"input", st.Input}, {"tool_calls", st.ToolCalls}} {
		if c.v != nil {
			if u.UsageExtra == nil {
				u.UsageExtra = make(map[string]int64, 3)
			}
			u.UsageExtra[c.name] = *c.v
		}
	}
	if u.PromptTokens == nil && u.CompletionTokens == nil && u.CachedTokens == nil && u.UsageExtra == nil {
		return u, false, st.DurationMs
	}
	return u, true, st.DurationMs
}

// Finish implements Stream. Gemini's end is its result line; a stream that
// stops before it has no result event.
func (s *geminiStream) Finish(agents.Emit) {}
