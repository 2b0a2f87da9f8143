package export

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/textsafe"
)

// ACPSchema names the schema the ACP export is written against: the
// stable ACP v1 schema that @agentclientprotocol/sdk ships as
// schema/v1/schema.json (the SDK's default protocol version).
const ACPSchema = "ACP v1 (@agentclientprotocol/sdk schema/v1/schema.json)"

// ACPWriter writes a session's normalized events as ACP `session/update`
// notifications, one JSON-RPC 2.0 message per line.
//
// ACP's update kinds are a closed list. The seven sift shares with it are
// written as themselves, with only the fields ACP defines; what sift knows
// beyond them (the stream line, time, model, exit code, approval stop) is
// in the notification's `_meta.sift`. sift's own kinds (error, usage,
// session_start, result, stderr, raw) are written as a
// `session_info_update`, which carries no field of its own here, with the
// whole update in `_meta.sift.update`: a strict reader sees a valid
// message it may ignore.
//
// Every line is redacted and made inert before it is written.
type ACPWriter struct {
	w         io.Writer
	sessionID string
	buf       []byte
}

// NewACPWriter returns a writer of notifications to w. sessionID is the
// session's id for events that name none.
func NewACPWriter(w io.Writer, sessionID string) *ACPWriter {
	return &ACPWriter{w: w, sessionID: sessionID}
}

// acpMessage is one JSON-RPC notification.
type acpMessage struct {
	JSONRPC string    `json:"jsonrpc"`
	Method  string    `json:"method"`
	Params  acpParams `json:"params"`
}

// acpParams are the params of session/update (ACP SessionNotification).
type acpParams struct {
	SessionID string         `json:"sessionId"`
	Update    any            `json:"update"`
	Meta      map[string]any `json:"_meta,omitempty"`
}

// Write writes one event as one line.
func (a *ACPWriter) Write(ev *event.Event) error {
	sid := ev.SessionID
	if sid == "" {
		sid = a.sessionID
	}
	meta := map[string]any{"line": ev.Line}
	if !ev.Timestamp.IsZero() {
		meta["timestamp"] = ev.Timestamp.UTC().Format(time.RFC3339Nano)
	}
	if ev.Model != "" {
		meta["model"] = ev.Model
	}
	if ev.ParentToolCallID != "" {
		meta["parentToolCallId"] = ev.ParentToolCallID
	}
	if len(ev.Extra) > 0 {
		meta["extra"] = ev.Extra
	}
	msg := acpMessage{JSONRPC: "2.0", Method: "session/update",
		Params: acpParams{SessionID: sid, Update: acpUpdate(ev, meta), Meta: map[string]any{"sift": meta}}}
	line, err := json.Marshal(&msg)
	if err != nil {
		return err
	}
	// Redacted as JSON, the line stays the same document with every
	// secret in its strings replaced; then made inert.
	a.buf = textsafe.AppendJSON(a.buf[:0], redact.JSONLine(line))
	a.buf = append(a.buf, '\n')
	_, err = a.w.Write(a.buf)
	return err
}

// acpUpdate is the ACP update of an event; what ACP has no field for
// goes into meta.
func acpUpdate(ev *event.Event, meta map[string]any) any {
	u := &ev.Update
	switch u.SessionUpdate {
	case event.UserMessageChunk, event.AgentMessageChunk, event.AgentThoughtChunk:
		return acpChunk{SessionUpdate: string(u.SessionUpdate), Content: contentBlock(u.Content), MessageID: ev.MessageID}
	case event.ToolCall:
		toolMeta(u, meta)
		title := u.Title
		if title == "" {
			title = functionName(u)
		}
		return acpToolCall{SessionUpdate: "tool_call", ToolCallID: u.ToolCallID, Title: title, Name: u.ToolName,
			Kind: string(u.ToolKind), Status: string(u.Status), Locations: locations(u.Locations),
			RawInput: u.RawInput, RawOutput: u.RawOutput, Content: toolContent(u)}
	case event.ToolCallUpdate:
		toolMeta(u, meta)
		return acpToolCall{SessionUpdate: "tool_call_update", ToolCallID: u.ToolCallID, Title: u.Title, Name: u.ToolName,
			Kind: string(u.ToolKind), Status: string(u.Status), Locations: locations(u.Locations),
			RawInput: u.RawInput, RawOutput: rawOutput(u), Content: toolContent(u)}
	case event.Plan:
		return acpPlan{SessionUpdate: "plan", Entries: planEntries(u.Entries, meta)}
	}
	// sift's own kinds travel in _meta.
	meta["kind"] = string(u.SessionUpdate)
	meta["update"] = u
	return acpInfo{SessionUpdate: "session_info_update"}
}

// rawOutput is a call update's raw result, beside its content: the
// harness's structured result where it recorded one (Claude Code's
// tool_use_result), else the result's text as the tool returned it, a
// JSON string, as claude-code-acp sends a tool_result's content
// (rawOutput: chunk.content); nil when the update carries no result.
func rawOutput(u *event.Update) json.RawMessage {
	if len(u.RawOutput) > 0 {
		return u.RawOutput
	}
	text := u.Message
	if u.Content != nil && u.Content.Type == "text" {
		text = u.Content.Text
	}
	if text == "" {
		return nil
	}
	b, err := json.Marshal(text)
	if err != nil {
		return nil
	}
	return b
}

// StreamACP parses a stream (agent names its harness; empty sniffs) and
// writes its events as ACP notifications to w. sessionID stands in for
// events that name no session.
func StreamACP(r io.Reader, agent string, w io.Writer, sessionID string) error {
	a := NewACPWriter(w, sessionID)
	var werr error
	_, err := detail.Parse(r, agent, true, func(ev *event.Event) {
		if werr == nil {
			werr = a.Write(ev)
		}
	})
	if err != nil {
		return fmt.Errorf("read stream: %w", err)
	}
	return werr
}
