// Package event defines sift's normalized event model: one ACP-style
// OutputEvent per thing a coding-agent CLI reported, whatever its wire format.
//
// The JSON form is the contract between sift's parsers and everything
// downstream (summaries, store, inbox, API, `sift parse`). A field the harness
// did not print is absent from the JSON, never guessed and never 0: numeric
// fields that may be missing are pointers.
package event

import (
	"encoding/json"
	"time"
)

// Event is one normalized event of a session's stream.
type Event struct {
	// Line is the 1-based line number in the stream file.
	Line int `json:"line"`
	// Offset is the byte offset of the start of the line in the file.
	Offset int64 `json:"offset"`
	// SessionID is the harness's own session id, when the line names one.
	SessionID string `json:"sessionId,omitempty"`
	// Timestamp is when the harness says the event happened; zero when the
	// line carries no time.
	Timestamp time.Time `json:"timestamp,omitzero"`
	// Model is the model named on this line, if any.
	Model string `json:"model,omitempty"`
	// MessageID groups the content blocks of one model response.
	MessageID string `json:"messageId,omitempty"`
	// ParentToolCallID is set on events produced inside a subagent that
	// was started by that tool call.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	// Update is what happened.
	Update Update `json:"update"`
	// Extra holds harness-specific fields worth keeping under their own
	// names (stop_reason, subtype, …).
	Extra map[string]any `json:"extra,omitempty"`
}

// Kind is the type of an update, the ACP `sessionUpdate` discriminator plus
// sift's additions.
type Kind string

// The update kinds. The first seven are ACP's; the rest are sift's.
const (
	AgentMessageChunk Kind = "agent_message_chunk"
	AgentThoughtChunk Kind = "agent_thought_chunk"
	UserMessageChunk  Kind = "user_message_chunk"
	ToolCall          Kind = "tool_call"
	ToolCallUpdate    Kind = "tool_call_update"
	Plan              Kind = "plan"
	Error             Kind = "error"
	Usage             Kind = "usage"
	SessionStart      Kind = "session_start"
	Result            Kind = "result"
	Stderr            Kind = "stderr"
	// System is a harness's own notice that is neither agent work nor
	// an error (a hook ran, a status changed): its Subtype is the
	// harness's word, its fields are in Extra. A failed hook is an Error.
	System Kind = "system"
	Raw    Kind = "raw"
)

// StderrEnvelope is the type of the JSON line sift's capture writes for
// each stderr line of a structured agent, `{"type":"sift.stderr",
// "text":"…"}`; the parsers read such a line back as a Stderr update.
const StderrEnvelope = "sift.stderr"

// Kinds lists every update kind in a stable order.
func Kinds() []Kind {
	return []Kind{
		AgentMessageChunk, AgentThoughtChunk, UserMessageChunk, ToolCall,
		ToolCallUpdate, Plan, Error, Usage, SessionStart, Result, Stderr, Raw,
	}
}

// IsAgentWork reports whether an update of this kind is work done by the
// agent. Neither errors nor usage reports count as agent work, nor do lines
// that sift could not read or captured stderr.
func (k Kind) IsAgentWork() bool {
	switch k {
	case AgentMessageChunk, AgentThoughtChunk, ToolCall, ToolCallUpdate, Plan:
		return true
	}
	return false
}

// ToolKind is the ACP tool kind of a tool call.
type ToolKind string

// The ACP tool kinds.
const (
	ToolRead       ToolKind = "read"
	ToolEdit       ToolKind = "edit"
	ToolDelete     ToolKind = "delete"
	ToolMove       ToolKind = "move"
	ToolSearch     ToolKind = "search"
	ToolExecute    ToolKind = "execute"
	ToolThink      ToolKind = "think"
	ToolFetch      ToolKind = "fetch"
	ToolSwitchMode ToolKind = "switch_mode"
	ToolOther      ToolKind = "other"
)

// ToolStatus is the state of a tool call.
type ToolStatus string

// The tool call states. Pending and InProgress are open; the others are
// terminal.
const (
	StatusPending    ToolStatus = "pending"
	StatusInProgress ToolStatus = "in_progress"
	StatusCompleted  ToolStatus = "completed"
	StatusFailed     ToolStatus = "failed"
)

// IsTerminal reports whether the tool call has ended.
func (s ToolStatus) IsTerminal() bool {
	return s == StatusCompleted || s == StatusFailed
}

// Scope says what a usage update covers.
type Scope string

// Usage scopes: one model call, or the harness's own total for the run.
const (
	ScopeCall Scope = "call"
	ScopeRun  Scope = "run"
)

// Update is the payload of an event. Which fields are set depends on
// SessionUpdate; the comments name the kinds that use each group.
type Update struct {
	SessionUpdate Kind `json:"sessionUpdate"`

	// Content is the text or image of a message or thought chunk, and
	// the text output of a tool call update.
	Content *Content `json:"content,omitempty"`

	// tool_call, tool_call_update.
	ToolCallID string          `json:"toolCallId,omitempty"`
	ToolName   string          `json:"toolName,omitempty"`
	Title      string          `json:"title,omitempty"`
	ToolKind   ToolKind        `json:"kind,omitempty"`
	Status     ToolStatus      `json:"status,omitempty"`
	RawInput   json.RawMessage `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage `json:"rawOutput,omitempty"`
	Locations  []Location      `json:"locations,omitempty"`
	// ApprovalRequired marks a tool call that was denied permission or is
	// blocked waiting for approval: not an error of the tool.
	ApprovalRequired bool `json:"approvalRequired,omitempty"`
	// ExitCode is the exit status of a command, when the harness printed it.
	ExitCode *int `json:"exitCode,omitempty"`
	// StartedAt and EndedAt are tool timings the harness printed inside the
	// call (opencode part.time, cursor startedAtMs).
	StartedAt time.Time `json:"startedAt,omitzero"`
	EndedAt   time.Time `json:"endedAt,omitzero"`

	// plan.
	Entries []PlanEntry `json:"entries,omitempty"`

	// error, and the error text of a failed tool call update.
	Message string `json:"message,omitempty"`
	Fatal   bool   `json:"fatal,omitempty"`

	// usage.
	Scope            Scope    `json:"scope,omitempty"`
	PromptTokens     *int64   `json:"promptTokens,omitempty"`
	CompletionTokens *int64   `json:"completionTokens,omitempty"`
	CachedTokens     *int64   `json:"cachedTokens,omitempty"`
	CostUSD          *float64 `json:"costUsd,omitempty"`
	// UsageExtra keeps the harness's other counters under its own names
	// (cache_creation_input_tokens, reasoning_output_tokens, …).
	UsageExtra map[string]int64 `json:"usageExtra,omitempty"`

	// session_start.
	Cwd        string   `json:"cwd,omitempty"`
	Tools      []string `json:"tools,omitempty"`
	CLIVersion string   `json:"cliVersion,omitempty"`

	// result. IsError is the harness's verdict; Subtype its own word
	// (success, error_max_turns, …); DurationMs an explicit duration (also
	// used on tool call updates that report one without timestamps).
	IsError    *bool  `json:"isError,omitempty"`
	Subtype    string `json:"subtype,omitempty"`
	DurationMs *int64 `json:"durationMs,omitempty"`
	NumTurns   *int   `json:"numTurns,omitempty"`

	// stderr, raw, result: the line's text (the final message for result).
	Text string `json:"text,omitempty"`
	// TruncatedBytes is set on the raw update for a capture's
	// `[...truncated by N bytes]` marker.
	TruncatedBytes *int64 `json:"truncatedBytes,omitempty"`
}

// Content is one ACP content block: text, or an image kept as its MIME type
// and base64 data (never drawn as text).
type Content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	Data     string `json:"data,omitempty"`
}

// Text returns a text content block.
func Text(s string) *Content { return &Content{Type: "text", Text: s} }

// Image returns an image content block.
func Image(mime, data string) *Content {
	return &Content{Type: "image", MimeType: mime, Data: data}
}

// Location is a file a tool call touches.
type Location struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
}

// PlanEntry is one item of an agent's plan or todo list.
type PlanEntry struct {
	Content string `json:"content"`
	Status  string `json:"status,omitempty"`
}

// Int64 returns a pointer to v, for optional counters.
func Int64(v int64) *int64 { return &v }

// Int returns a pointer to v.
func Int(v int) *int { return &v }

// Float64 returns a pointer to v.
func Float64(v float64) *float64 { return &v }

// Bool returns a pointer to v.
func Bool(v bool) *bool { return &v }
