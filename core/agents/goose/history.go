package goose

import (
	"path/filepath"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// gooseDBList lists the sessions of Goose's database (tables sessions and
// messages, each message's content_json the content blocks of an rmcp
// message: crates/goose/src/session/session_manager.rs): one per session
// row, in its working_dir, with the count and bytes of its messages as its
// change token (a message's row is rewritten as its tool request's
// metadata changes) and its last update.
func gooseDBList(db agents.Queryer) ([]agents.StoredSession, error) {
	return agents.ListSessions(db, `SELECT s.id, s.working_dir,
		COUNT(m.id) + COALESCE(SUM(LENGTH(m.content_json)), 0),
		MAX(COALESCE(CAST(strftime('%s', s.updated_at) AS INTEGER), 0), COALESCE(MAX(m.created_timestamp), 0)) * 1000
		FROM sessions s LEFT JOIN messages m ON m.session_id = s.id GROUP BY s.id ORDER BY s.id`, gooseDBLines)
}

// gooseRender renders a session of a Goose database again by its key.
func gooseRender(key string) ([]byte, bool, error) {
	db, id, ok := agents.SplitStoredKey(key)
	if !ok || filepath.Base(db) != "sessions.db" {
		return nil, false, nil
	}
	lines, err := agents.DBRender(db, func(q agents.Queryer) ([]byte, error) { return gooseDBLines(q, id) })
	return lines, true, err
}

// gooseDBLines renders one session of Goose's database as the lines its
// history parser reads: a session line (its row: folder, name, tokens,
// model) and a message line per message row, in order; nil when the
// session is gone. The render is sift's: the database holds rows.
func gooseDBLines(db agents.Queryer, id string) ([]byte, error) {
	return agents.RowLines(db, `SELECT * FROM sessions WHERE id = ?`,
		`SELECT * FROM messages WHERE session_id = ? ORDER BY id`, id, "content_json", "metadata_json")
}

// gooseHistoryParser reads a rendered Goose session (gooseDBLines).
type gooseHistoryParser struct{}

// Kind implements Parser.
func (gooseHistoryParser) Kind() agents.Kind { return agents.GooseHistory }

// NewStream implements Parser.
func (gooseHistoryParser) NewStream() agents.Stream { return &gooseStream{} }

// EndsWithResult implements Parser.
func (gooseHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: a render is never met on disk.
func (gooseHistoryParser) Claims([]byte) bool { return false }

// gooseLine is one rendered line.
type gooseLine struct {
	Session *struct {
		ID                      string          `json:"id"`
		WorkingDir              string          `json:"working_dir"`
		Name                    string          `json:"name"`
		Description             string          `json:"description"`
		InputTokens             *int64          `json:"input_tokens"`
		OutputTokens            *int64          `json:"output_tokens"`
		AccumulatedInputTokens  *int64          `json:"accumulated_input_tokens"`
		AccumulatedOutputTokens *int64          `json:"accumulated_output_tokens"`
		TotalTokens             *int64          `json:"total_tokens"`
		AccumulatedTotalTokens  *int64          `json:"accumulated_total_tokens"`
		CreatedAt               string          `json:"created_at"`
		ProviderName            *string         `json:"provider_name"`
		ModelConfig             json.RawMessage `json:"model_config_json"`
	} `json:"session"`
	Message *struct {
		Role     string          `json:"role"`
		Content  json.RawMessage `json:"content_json"`
		Created  int64           `json:"created_timestamp"`
		Metadata *struct {
			UserVisible *bool `json:"userVisible"`
			Inference   *struct {
				Provider       string `json:"provider"`
				RequestedModel string `json:"requestedModel"`
			} `json:"inference"`
		} `json:"metadata_json"`
	} `json:"message"`
}

// gooseBlock is one content block of a message (MessageContent, tagged
// by type in camelCase).
type gooseBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
	ID       string `json:"id"`
	ToolCall *struct {
		Status string `json:"status"`
		Value  *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"value"`
		Error string `json:"error"`
	} `json:"toolCall"`
	ToolResult *struct {
		Status string          `json:"status"`
		Value  json.RawMessage `json:"value"`
		Error  string          `json:"error"`
	} `json:"toolResult"`
	Message string `json:"message"`
}

type gooseStream struct {
	id, model      string
	in, out, total *int64
	last           time.Time
	replied        bool
	lastReply      string
	usageLineNo    agents.Line
}

// Line implements Stream.
func (s *gooseStream) Line(l agents.Line, emit agents.Emit) bool {
	var r gooseLine
	if json.Unmarshal(l.Bytes, &r) != nil {
		return false
	}
	switch {
	case r.Session != nil:
		ss := r.Session
		s.id = ss.ID
		s.in = firstPresent(ss.AccumulatedInputTokens, ss.InputTokens)
		s.out = firstPresent(ss.AccumulatedOutputTokens, ss.OutputTokens)
		s.total = firstPresent(ss.AccumulatedTotalTokens, ss.TotalTokens)
		var mc struct {
			ModelName string `json:"model_name"`
		}
		if len(ss.ModelConfig) > 0 && ss.ModelConfig[0] == '"' {
			// model_config_json is a JSON document in a text column.
			var doc string
			if json.Unmarshal(ss.ModelConfig, &doc) == nil {
				_ = json.Unmarshal([]byte(doc), &mc)
			}
		}
		s.model = mc.ModelName
		// created_at, a TIMESTAMP column, comes out of the reader as
		// RFC 3339 in UTC.
		emit(&event.Event{SessionID: ss.ID, Timestamp: agents.ISOTime(ss.CreatedAt), Update: event.Update{SessionUpdate: event.SessionStart,
			Cwd: ss.WorkingDir, Title: agents.FirstNonEmpty(ss.Name, ss.Description)}})
	case r.Message != nil:
		s.message(r, emit)
	default:
		return false
	}
	s.usageLineNo = l
	return true
}

// message emits a message's blocks: what the person wrote, what the agent
// said and thought, its tool requests and their responses.
func (s *gooseStream) message(r gooseLine, emit agents.Emit) {
	m := r.Message
	ts := time.Unix(m.Created, 0).UTC()
	s.last = ts
	if md := m.Metadata; md != nil && md.Inference != nil && md.Inference.RequestedModel != "" {
		s.model = md.Inference.RequestedModel
	}
	hidden := m.Metadata != nil && m.Metadata.UserVisible != nil && !*m.Metadata.UserVisible
	var blocks []gooseBlock
	_ = json.Unmarshal(m.Content, &blocks)
	put := func(u event.Update) {
		ev := &event.Event{SessionID: s.id, Timestamp: ts, Update: u}
		if m.Role == "assistant" {
			ev.Model = s.model
		}
		emit(ev)
	}
	asked := false
	for i := range blocks {
		b := &blocks[i]
		switch {
		case b.Type == "text" && strings.TrimSpace(b.Text) != "" && m.Role == "user":
			if !hidden {
				put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(b.Text)})
				s.replied = false
			}
		case b.Type == "text" && strings.TrimSpace(b.Text) != "":
			put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(b.Text)})
			s.lastReply = b.Text
		case b.Type == "thinking" && b.Thinking != "":
			put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(b.Thinking)})
		case b.Type == "toolRequest" && b.ToolCall != nil:
			asked = true
			u := event.Update{SessionUpdate: event.ToolCall, ToolCallID: b.ID, Status: event.StatusPending}
			if v := b.ToolCall.Value; v != nil {
				agents.DescribeTool(&u, v.Name, v.Arguments)
			}
			put(u)
			if b.ToolCall.Status == "error" {
				put(event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: b.ID, Status: event.StatusFailed, Message: b.ToolCall.Error})
			}
		case b.Type == "toolResponse" && b.ToolResult != nil:
			put(gooseResult(b))
		}
	}
	if m.Role == "assistant" {
		s.replied = !asked
	}
}

// gooseResult is a tool response's update: its content's text, failed
// when the call failed (status error) or its result says so (isError).
func gooseResult(b *gooseBlock) event.Update {
	u := event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: b.ID, Status: event.StatusCompleted}
	tr := b.ToolResult
	if tr.Status == "error" {
		u.Status, u.Message = event.StatusFailed, agents.FirstLine(tr.Error)
		if tr.Error != "" {
			u.Content = event.Text(tr.Error)
		}
		return u
	}
	// The value is a CallToolResult ({content, isError}), or before it
	// a bare content array.
	var res struct {
		Content []gooseBlock `json:"content"`
		IsError bool         `json:"isError"`
	}
	if len(tr.Value) > 0 && tr.Value[0] == '[' {
		_ = json.Unmarshal(tr.Value, &res.Content)
	} else {
		_ = json.Unmarshal(tr.Value, &res)
	}
	var texts []string
	for _, c := range res.Content {
		if c.Type == "text" && c.Text != "" {
			texts = append(texts, c.Text)
		}
	}
	if t := strings.Join(texts, "\n"); t != "" {
		u.Content = event.Text(t)
	}
	if res.IsError {
		u.Status, u.Message = event.StatusFailed, agents.FirstLine(strings.Join(texts, "\n"))
	}
	return u
}

// Finish implements Stream: the session's tokens, which Goose keeps per
// session only (its accumulated counters; a total beyond the input and
// output, a reasoning model's, counts as output, as ccusage's goose
// adapter bills it: countTotal), and its end: a session whose last
// message is the agent's reply without a tool request is one Goose
// finished answering.
func (s *gooseStream) Finish(emit agents.Emit) {
	if s.in != nil || s.out != nil || s.total != nil {
		in, out := agents.CountTotal(s.in, s.out, s.total, s.in, s.out)
		emit(&event.Event{SessionID: s.id, Timestamp: s.last, Model: s.model, Line: s.usageLineNo.No, Offset: s.usageLineNo.Offset,
			Update: event.Update{SessionUpdate: event.Usage, Scope: event.ScopeRun, PromptTokens: in, CompletionTokens: out}})
	}
	if s.replied {
		emit(&event.Event{SessionID: s.id, Timestamp: s.last, Line: s.usageLineNo.No, Offset: s.usageLineNo.Offset,
			Update: event.Update{SessionUpdate: event.Result, IsError: event.Bool(false), Subtype: "reply", Text: s.lastReply}})
	}
}

// firstPresent is the first of vs that is set.
func firstPresent(vs ...*int64) *int64 {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}
