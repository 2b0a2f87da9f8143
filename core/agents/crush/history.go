package crush

import (
	"path/filepath"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// crushDBList lists the sessions of a Crush database (tables sessions and
// messages, each message's parts a JSON array of {type, data}:
// internal/db/migrations, internal/message): one per session row, with the
// count and bytes of its messages as its change token (a message's row is
// rewritten as it streams) and its last update. Crush writes its times in
// unix seconds (strftime('%s', 'now')); a value already in milliseconds is
// kept.
func crushDBList(db agents.Queryer) ([]agents.StoredSession, error) {
	return agents.ListSessions(db, `SELECT s.id, NULL,
		COUNT(m.id) + COALESCE(SUM(LENGTH(m.parts)), 0),
		CASE WHEN MAX(s.updated_at, COALESCE(MAX(m.updated_at), 0)) > 100000000000
			THEN MAX(s.updated_at, COALESCE(MAX(m.updated_at), 0))
			ELSE MAX(s.updated_at, COALESCE(MAX(m.updated_at), 0)) * 1000 END
		FROM sessions s LEFT JOIN messages m ON m.session_id = s.id GROUP BY s.id ORDER BY s.created_at, s.id`, crushDBLines)
}

// crushRender renders a session of a Crush database again by its key.
func crushRender(key string) ([]byte, bool, error) {
	db, id, ok := agents.SplitStoredKey(key)
	if !ok || filepath.Base(db) != "crush.db" {
		return nil, false, nil
	}
	lines, err := agents.DBRender(db, func(q agents.Queryer) ([]byte, error) { return crushDBLines(q, id) })
	return lines, true, err
}

// crushDBLines renders one session of a Crush database as the lines its
// history parser reads (rowLines).
func crushDBLines(db agents.Queryer, id string) ([]byte, error) {
	return agents.RowLines(db, `SELECT * FROM sessions WHERE id = ?`,
		`SELECT * FROM messages WHERE session_id = ? ORDER BY created_at, rowid`, id, "parts")
}

// crushHistoryParser reads a rendered Crush session (crushDBLines).
type crushHistoryParser struct{}

// Kind implements Parser.
func (crushHistoryParser) Kind() agents.Kind { return agents.CrushHistory }

// NewStream implements Parser.
func (crushHistoryParser) NewStream() agents.Stream { return &crushStream{} }

// EndsWithResult implements Parser.
func (crushHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a render is never met on disk.
func (crushHistoryParser) Claims([]byte) bool { return false }

// crushLine is one rendered line.
type crushLine struct {
	Session *struct {
		ID               string   `json:"id"`
		Title            string   `json:"title"`
		PromptTokens     *int64   `json:"prompt_tokens"`
		CompletionTokens *int64   `json:"completion_tokens"`
		Cost             *float64 `json:"cost"`
	} `json:"session"`
	Message *struct {
		Role     string          `json:"role"`
		Parts    json.RawMessage `json:"parts"`
		Model    *string         `json:"model"`
		Provider *string         `json:"provider"`
		Created  int64           `json:"created_at"`
	} `json:"message"`
}

// crushPart is one part of a message, {type, data}.
type crushPart struct {
	Type string `json:"type"`
	Data struct {
		Text       string `json:"text"`
		Thinking   string `json:"thinking"`
		ID         string `json:"id"`
		Name       string `json:"name"`
		Input      string `json:"input"`
		ToolCallID string `json:"tool_call_id"`
		Content    string `json:"content"`
		IsError    bool   `json:"is_error"`
		Reason     string `json:"reason"`
		Time       int64  `json:"time"`
		Message    string `json:"message"`
		Details    string `json:"details"`
	} `json:"data"`
}

type crushStream struct {
	id, model string
	in, out   *int64
	cost      *float64
	last      time.Time
	line      agents.Line
	// end is how the last assistant message finished, held to the end:
	// a later prompt means the session went on.
	end     *crushPart
	endLine agents.Line
	reply   string
}

// crushTime reads a Crush time, unix seconds (or milliseconds).
func crushTime(v int64) time.Time {
	if v > 100_000_000_000 {
		return time.UnixMilli(v).UTC()
	}
	return time.Unix(v, 0).UTC()
}

// Line implements Stream.
func (s *crushStream) Line(l agents.Line, emit agents.Emit) bool {
	var r crushLine
	if json.Unmarshal(l.Bytes, &r) != nil {
		return false
	}
	s.line = l
	switch {
	case r.Session != nil:
		s.id, s.in, s.out, s.cost = r.Session.ID, r.Session.PromptTokens, r.Session.CompletionTokens, r.Session.Cost
		emit(&event.Event{SessionID: s.id, Update: event.Update{SessionUpdate: event.SessionStart, Title: r.Session.Title}})
	case r.Message != nil:
		s.message(r, l, emit)
	default:
		return false
	}
	return true
}

// message emits a message's parts: the prompt, what the agent thought and
// said, its tool calls, their results, and how it finished.
func (s *crushStream) message(r crushLine, l agents.Line, emit agents.Emit) {
	m := r.Message
	ts := crushTime(m.Created)
	s.last = ts
	if m.Model != nil && *m.Model != "" {
		s.model = *m.Model
		if m.Provider != nil && *m.Provider != "" {
			s.model = *m.Provider + "/" + *m.Model
		}
	}
	var parts []crushPart
	_ = json.Unmarshal(m.Parts, &parts)
	put := func(u event.Update) {
		ev := &event.Event{SessionID: s.id, Timestamp: ts, Update: u}
		if m.Role == "assistant" {
			ev.Model = s.model
		}
		emit(ev)
	}
	for i := range parts {
		p := &parts[i]
		d := &p.Data
		switch {
		case p.Type == "text" && strings.TrimSpace(d.Text) != "" && m.Role == "user":
			s.end = nil
			put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(d.Text)})
		case p.Type == "text" && strings.TrimSpace(d.Text) != "":
			s.reply = d.Text
			put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(d.Text)})
		case p.Type == "reasoning" && d.Thinking != "":
			put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(d.Thinking)})
		case p.Type == "tool_call":
			u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: d.ID, Status: event.StatusPending}
			input := json.RawMessage(d.Input)
			if !json.Valid(input) {
				input = nil
			}
			agents.DescribeTool(&u, d.Name, input)
			put(u)
		case p.Type == "tool_result":
			u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: d.ToolCallID, Status: event.StatusCompleted}
			if d.Content != "" {
				u.Content = event.Text(d.Content)
			}
			if d.IsError {
				u.Status, u.Message = event.StatusFailed, agents.FirstLine(d.Content)
			}
			put(u)
		case p.Type == "finish" && m.Role == "assistant":
			held := *p
			s.end, s.endLine = &held, l
		}
	}
}

// Finish implements Stream: the session's tokens and cost, which Crush
// keeps per session only, and how its last assistant message finished:
// end_turn completes it; an error, a cancel or the token limit ends it
// with that reason.
func (s *crushStream) Finish(emit agents.Emit) {
	if s.in != nil || s.out != nil || s.cost != nil {
		emit(&event.Event{SessionID: s.id, Timestamp: s.last, Model: s.model, Line: s.line.No, Offset: s.line.Offset,
			Update: event.Update{SessionUpdate: event.Usage, Scope: event.ScopeRun, PromptTokens: s.in, CompletionTokens: s.out, CostUSD: s.cost}})
	}
	e := s.end
	if e == nil {
		return
	}
	ev := &event.Event{SessionID: s.id, Timestamp: crushTime(e.Data.Time), Line: s.endLine.No, Offset: s.endLine.Offset}
	switch e.Data.Reason {
	case "end_turn":
		ev.Update = event.Update{SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: e.Data.Reason, Text: s.reply}
	case "tool_use":
		return
	default:
		msg := agents.FirstNonEmpty(e.Data.Message, e.Data.Details, e.Data.Reason)
		ev.Update = event.Update{SessionUpdate: event.Result, IsError: event.Bool(true), Subtype: e.Data.Reason, Text: msg}
	}
	emit(ev)
}
