package gemini

import (
	"bytes"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// geminiHistoryParser reads Gemini CLI chat recordings, after
// packages/core/src/services/chatRecordingService.ts: a metadata record
// ({sessionId, projectHash, startTime, …}), message records ({id,
// timestamp, type: user|gemini|info|error|warning, content, and for gemini
// toolCalls, thoughts, tokens, model}), `{"$set": {…}}` metadata updates and
// `{"$rewindTo": id}` records. A message record written again with the same
// id replaces the earlier one, and a rewind drops the messages from that id
// on, so the messages are emitted when the file ends, in their order.
type geminiHistoryParser struct{}

// Kind implements Parser.
func (geminiHistoryParser) Kind() agents.Kind { return agents.GeminiHistory }

// NewStream implements Parser.
func (geminiHistoryParser) NewStream() agents.Stream {
	return &geminiHistoryStream{byID: map[string]int{}}
}

// EndsWithResult implements Parser: a chat recording has no result line.
func (geminiHistoryParser) EndsWithResult() bool { return false }

// Claims implements Parser: the metadata record (sessionId and
// projectHash), a $set or $rewindTo record, or a message record of
// Gemini's types.
func (geminiHistoryParser) Claims(line []byte) bool {
	if bytes.Contains(line, []byte(`"projectHash"`)) && bytes.Contains(line, []byte(`"sessionId"`)) {
		return true
	}
	if bytes.HasPrefix(line, []byte(`{"$set"`)) || bytes.HasPrefix(line, []byte(`{"$rewindTo"`)) {
		return true
	}
	return bytes.HasPrefix(line, []byte(`{"id":`)) && bytes.Contains(line, []byte(`"timestamp"`)) &&
		(agents.HasType(line, "gemini") || agents.HasType(line, "user")) && bytes.Contains(line, []byte(`"content"`))
}

// geminiRecord is the union of the chat records.
type geminiRecord struct {
	// metadata
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	// updates
	Set    json.RawMessage `json:"$set"`
	Rewind *string         `json:"$rewindTo"`
	// messages
	ID        *string            `json:"id"`
	Timestamp string             `json:"timestamp"`
	Type      string             `json:"type"`
	Content   json.RawMessage    `json:"content"`
	ToolCalls []geminiToolRecord `json:"toolCalls"`
	Thoughts  []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`
	Tokens *struct {
		Input    *int64 `json:"input"`
		Output   *int64 `json:"output"`
		Cached   *int64 `json:"cached"`
		Thoughts *int64 `json:"thoughts"`
		Tool     *int64 `json:"tool"`
		Total    *int64 `json:"total"`
	} `json:"tokens"`
	Model string `json:"model"`
}

// geminiToolRecord is a ToolCallRecord.
type geminiToolRecord struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
}

// geminiHeld is a message record kept until the end, with its position.
type geminiHeld struct {
	rec  *geminiRecord
	line agents.Line
	gone bool
}

type geminiHistoryStream struct {
	started bool
	msgs    []geminiHeld
	byID    map[string]int
}

// Line implements Stream.
func (s *geminiHistoryStream) Line(l agents.Line, emit agents.Emit) bool {
	var r geminiRecord
	if json.Unmarshal(l.Bytes, &r) != nil {
		return false
	}
	switch {
	case r.Rewind != nil:
		if i, ok := s.byID[*r.Rewind]; ok {
			for j := i; j < len(s.msgs); j++ {
				s.msgs[j].gone = true
			}
		} else {
			for j := range s.msgs {
				s.msgs[j].gone = true
			}
		}
		return true
	case len(r.Set) > 0:
		return true
	case r.ID != nil:
		held := geminiHeld{rec: &r, line: agents.Line{No: l.No, Offset: l.Offset}}
		if i, ok := s.byID[*r.ID]; ok && !s.msgs[i].gone {
			s.msgs[i] = held
		} else {
			s.byID[*r.ID] = len(s.msgs)
			s.msgs = append(s.msgs, held)
		}
		return true
	case r.SessionID != "" && r.ProjectHash != "":
		if !s.started {
			s.started = true
			emit(&event.Event{SessionID: r.SessionID, Timestamp: agents.ISOTime(r.StartTime),
				Update: event.Update{SessionUpdate: event.SessionStart}})
		}
		return true
	}
	return false
}

// Finish implements Stream: it emits the messages that stand.
func (s *geminiHistoryStream) Finish(emit agents.Emit) {
	for _, h := range s.msgs {
		if h.gone {
			continue
		}
		s.message(h, emit)
	}
}

func (s *geminiHistoryStream) message(h geminiHeld, emit agents.Emit) {
	r := h.rec
	base := event.Event{Line: h.line.No, Offset: h.line.Offset, Timestamp: agents.ISOTime(r.Timestamp),
		Model: r.Model, MessageID: *r.ID}
	put := func(u event.Update) {
		ev := base
		ev.Update = u
		emit(&ev)
	}
	switch r.Type {
	case "user":
		// A user record of functionResponse parts repeats the results
		// of the previous message's tool calls: only text is a prompt.
		if t := geminiPartsText(r.Content, false); t != "" {
			put(event.Update{SessionUpdate: event.UserMessageChunk, Content: event.Text(t)})
		}
	case "error":
		put(event.Update{SessionUpdate: event.Error, Message: geminiPartsText(r.Content, true)})
	case "gemini":
		for _, th := range r.Thoughts {
			t := strings.TrimSpace(th.Subject + "\n" + th.Description)
			if t != "" {
				put(event.Update{SessionUpdate: event.AgentThoughtChunk, Content: event.Text(t)})
			}
		}
		if t := geminiPartsText(r.Content, true); t != "" {
			put(event.Update{SessionUpdate: event.AgentMessageChunk, Content: event.Text(t)})
		}
		for _, tc := range r.ToolCalls {
			s.toolCall(base, &tc, emit)
		}
		if tk := r.Tokens; tk != nil && (tk.Input != nil || tk.Output != nil || tk.Total != nil) {
			prompt, completion := agents.GeminiCounts(tk.Input, tk.Tool, tk.Output, tk.Thoughts, tk.Total)
			u := event.Update{SessionUpdate: event.Usage, Scope: event.ScopeCall,
				PromptTokens: prompt, CompletionTokens: completion, CachedTokens: tk.Cached}
			extra := map[string]int64{}
			for k, v := range map[string]*int64{"thoughts": tk.Thoughts, "tool": tk.Tool, "total": tk.Total} {
				if v != nil {
					extra[k] = *v
				}
			}
			if len(extra) > 0 {
				u.UsageExtra = extra
			}
			put(u)
		}
	}
}

// toolCall emits a recorded call and, once it has ended, its result.
func (s *geminiHistoryStream) toolCall(base event.Event, tc *geminiToolRecord, emit agents.Emit) {
	ev := base
	if t := agents.ISOTime(tc.Timestamp); !t.IsZero() {
		ev.Timestamp = t
	}
	ev.Update = event.Update{SessionUpdate: event.ToolCall, ToolCallID: tc.ID, Status: event.StatusPending}
	agents.DescribeTool(&ev.Update, tc.Name, tc.Args)
	emit(&ev)
	var status event.ToolStatus
	switch tc.Status {
	case "success":
		status = event.StatusCompleted
	case "error", "cancelled":
		status = event.StatusFailed
	default:
		return
	}
	up := ev
	up.Update = event.Update{SessionUpdate: event.ToolCallUpdate, ToolCallID: tc.ID, Status: status}
	text := ""
	if len(tc.ResultDisplay) > 0 && tc.ResultDisplay[0] == '"' {
		_ = json.Unmarshal(tc.ResultDisplay, &text)
	} else {
		text = geminiPartsText(tc.Result, true)
	}
	if text != "" {
		up.Update.Content = event.Text(text)
	}
	if status == event.StatusFailed {
		up.Update.Message = agents.FirstLine(text)
		if tc.Status == "cancelled" && up.Update.Message == "" {
			up.Update.Message = "cancelled"
		}
	}
	emit(&up)
}

// geminiPartsText reads a PartListUnion: a string, a part, or parts, each
// {text} or, when responses is set, {functionResponse: {response: {output}}}.
func geminiPartsText(raw json.RawMessage, responses bool) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	type part struct {
		Text             string `json:"text"`
		FunctionResponse *struct {
			Response struct {
				Output string `json:"output"`
				Error  string `json:"error"`
			} `json:"response"`
		} `json:"functionResponse"`
	}
	var parts []part
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	case '{':
		var p part
		if json.Unmarshal(raw, &p) == nil {
			parts = []part{p}
		}
	case '[':
		_ = json.Unmarshal(raw, &parts)
	}
	var out []string
	for _, p := range parts {
		switch {
		case p.Text != "":
			out = append(out, p.Text)
		case p.FunctionResponse != nil && responses:
			if t := p.FunctionResponse.Response.Output + p.FunctionResponse.Response.Error; t != "" {
				out = append(out, t)
			}
		}
	}
	return strings.Join(out, "\n")
}

// GeminiLegacyLines turns an older Gemini CLI session-*.json document (one
// ConversationRecord with its messages) into the JSONL records of the
// current format: the metadata record, then one line per message.
func GeminiLegacyLines(doc []byte) ([]byte, error) {
	var c struct {
		SessionID   string            `json:"sessionId"`
		ProjectHash string            `json:"projectHash"`
		StartTime   string            `json:"startTime"`
		Messages    []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(doc, &c); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	meta, err := json.Marshal(map[string]string{"sessionId": c.SessionID, "projectHash": c.ProjectHash, "startTime": c.StartTime})
	if err != nil {
		return nil, err
	}
	out.Write(meta)
	out.WriteByte('\n')
	for _, m := range c.Messages {
		var b bytes.Buffer
		if err := json.Compact(&b, m); err != nil {
			return nil, err
		}
		out.Write(b.Bytes())
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}
