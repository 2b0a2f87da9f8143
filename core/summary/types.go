// Package summary folds the normalized events of one session into the
// figures a reviewer triages by: duration, time to first token, tokens,
// cost, tool calls, stalls, thinking and executing time, turns and flags.
//
// The rules, in brief:
//
//   - Tokens: a `run` usage is the harness's total and wins (the last one
//     when there are several: codex's is thread-cumulative); otherwise the
//     `call` usages, keeping the last snapshot per message id and adding
//     across messages. A counter the harness never printed stays nil.
//   - Cost: the harness's figure (the run usage's cost, else per-call costs
//     added), else an estimate from the price table at each turn's model,
//     else unknown; CostSource and CostBasis say which.
//   - Time: an event's own timestamp; once a stream has shown a clock, an
//     untimed event takes the last time shown; before that, with an
//     invocation window, its line (or byte offset) is projected onto the
//     window. The harness's duration wins for the total. Executing time is
//     the union of finished tool intervals plus explicit durations that
//     come without times; thinking is the rest, never below 0.
//   - Stalls: a gap between timed events over the threshold, classed by
//     what was outstanding (a tool call, the model, or nothing known);
//     gaps after a result line are ignored until the next run starts. A
//     wait on a tool is tool time: it flags only past the tool threshold
//     or when the tool then failed.
//   - Turns: a model response (a message id, or agent output after a tool
//     result or prompt) with the calls it issued; a subagent's work stays
//     in the turn of the call that started it.
//   - Flags: judged per turn on the final state of its calls and rolled up;
//     a failed run, a non-zero exit and a truncated capture flag the
//     session. Each flag instance is a sentence with its lines (notes.go).
//   - Outcome: from the terminal events only (outcome.go).
//
// The Builder streams: it never holds events, only a record per turn and
// per tool call, so memory follows what the summary lists.
package summary

import "time"

// Summary is the summary of one session (one stream file). Its JSON form,
// with the session's decisions added after it (review.Session), is served
// by `sift summary --json`, `sift list --json` and the API. Counters the
// harness did not report are nil (null), never 0.
type Summary struct {
	WorkItemID string `json:"workItemId"`
	FileName   string `json:"fileName"`
	Phase      string `json:"phase"`
	Iteration  *int   `json:"iteration"`
	AgentKind  string `json:"agentKind"`
	SessionID  string `json:"sessionId,omitempty"`
	Model      string `json:"model,omitempty"`
	// ModelSource says where Model was read: "stream" when the stream
	// names it, else what the invocation's Options.ModelSource says
	// ("--model", "$GEMINI_MODEL", "~/.codex/config.toml"). Empty when
	// there is no model.
	ModelSource string `json:"modelSource,omitempty"`
	// StreamCwd is the folder the stream records the run in (Claude's init
	// line, a Codex rollout's session_meta; for a Gemini CLI chat, which
	// records none, the project root the CLI's projects.json names),
	// redacted; "" when it records none. It is the stream's text, untrusted: a resume uses it only
	// when it names an existing folder (core/capture.ResumeCommand).
	StreamCwd string `json:"cwd,omitempty"`

	StartedAt          *time.Time `json:"startedAt"`
	EndedAt            *time.Time `json:"endedAt"`
	TotalDurationMs    *int64     `json:"totalDurationMs"`
	TimeToFirstTokenMs *int64     `json:"timeToFirstTokenMs"`

	InputTokens       *int64 `json:"inputTokens"`
	OutputTokens      *int64 `json:"outputTokens"`
	CachedInputTokens *int64 `json:"cachedInputTokens"`
	// CacheWriteTokens is the cache-creation share of InputTokens.
	CacheWriteTokens *int64 `json:"cacheWriteTokens"`

	EstimatedUSD *float64   `json:"estimatedUsd"`
	CostSource   CostSource `json:"costSource"`
	// CostBasis says what the cost was read or estimated from: the
	// harness field, or the price table's date and the model priced.
	CostBasis string `json:"costBasis,omitempty"`
	// Reconciliation states the harness's own token total against the
	// sum of the calls (reconcile.go); nil when the stream reported no
	// usage.
	Reconciliation *Reconciliation `json:"reconciliation,omitempty"`
	// NumTurns is the harness's own turn count (claude num_turns), added
	// over the result lines; nil when it printed none.
	NumTurns *int `json:"numTurns"`

	ThinkingMs  *int64 `json:"thinkingMs"`
	ExecutingMs *int64 `json:"executingMs"`

	// ToolCalls, Stalls and Turns are never nil in a summary the Builder
	// made (an empty list is []); they are nil, and left out of the JSON,
	// in the brief rows of a session list, which leaves them out unless
	// asked for them (sift list --json --full, GET /sessions?full=true).
	ToolCalls []ToolCall `json:"toolCalls,omitzero"`
	Stalls    []Stall    `json:"stalls,omitzero"`
	Turns     []Turn     `json:"turns,omitzero"`

	Flags   []Flag `json:"flags"`
	Flagged bool   `json:"flagged"`
	// FlagNotes says why each flag was raised, one sentence per flag
	// instance with the lines that raised it, in line order: the
	// session's own notes (a failed run, a truncated capture, an error
	// outside any turn) and the turns' (Turn.FlagNotes), at most
	// MaxSessionNotes of them; the turns hold theirs in full.
	FlagNotes []FlagNote `json:"flagNotes"`
	// Outcome is how the run ended: completed, failed, interrupted,
	// died_before_start or unknown, decided from its terminal events
	// (outcome.go). OutcomeEvidence says what it was decided from, and
	// the line of that evidence (0 when it is no line: an exit code).
	Outcome         Outcome  `json:"outcome"`
	OutcomeEvidence Evidence `json:"outcomeEvidence"`
	// ExitCode is the agent process's exit status, when the caller knew it.
	ExitCode *int `json:"exitCode"`

	FinalAssistantMessage *string `json:"finalAssistantMessage"`
	// FilesTouched are the files the session's calls changed, with the
	// lines their inputs add and remove (touched.go); left out when none.
	FilesTouched []FileTouched `json:"filesTouched,omitempty"`
	// FilesTouchedCount counts them all, past MaxFilesTouched.
	FilesTouchedCount int `json:"filesTouchedCount,omitempty"`

	LineCount      int      `json:"lineCount"`
	ByteCount      int64    `json:"byteCount"`
	ErrorLineCount int      `json:"errorLineCount"`
	RawLineCount   int      `json:"rawLineCount"`
	Tail           []string `json:"tail"`
	Truncated      bool     `json:"truncated"`
	// Plaintext is true when no structured event was recognised.
	Plaintext bool `json:"plaintext"`

	// Counts the inbox sorts and filters on.
	ToolCallCount int `json:"toolCallCount"`
	// StallCount counts the flagged stalls: tool time below the tool
	// threshold is listed in Stalls, never counted.
	StallCount    int `json:"stallCount"`
	ErrorCount    int `json:"errorCount"`
	ApprovalCount int `json:"approvalCount"`
}

// The model sources that are not a flag, variable or file the
// invocation named.
const (
	// ModelFromStream is the source of a model the stream names.
	ModelFromStream = "stream"
	// ModelGiven is the source of a model a caller gave without saying
	// where it was read.
	ModelGiven = "given"
)

// CostSource says where a cost figure came from.
type CostSource string

// The cost sources.
const (
	CostHarness  CostSource = "harness"
	CostEstimate CostSource = "estimate"
	CostUnknown  CostSource = "unknown"
)

// ToolCall is one tool call of a session.
type ToolCall struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	Kind         string     `json:"kind"`
	Title        string     `json:"title,omitempty"`
	InputSummary string     `json:"inputSummary"`
	TurnID       string     `json:"turnId"`
	StartedAt    *time.Time `json:"startedAt"`
	EndedAt      *time.Time `json:"endedAt"`
	DurationMs   *int64     `json:"durationMs"`
	// Success is true, false, or nil when unknown (no result).
	Success          *bool   `json:"success"`
	ApprovalRequired bool    `json:"approvalRequired,omitempty"`
	OutputBytes      *int64  `json:"outputBytes"`
	ExitCode         *int    `json:"exitCode"`
	Error            *string `json:"error"`
	// Why is the line of a failed call's output or error that explains
	// the failure (its flag's sentence quotes it); empty when none does,
	// and on sessions summarized before sift picked it.
	Why string `json:"why,omitempty"`
	// Line and EndLine are the stream lines of the call and its result.
	Line    int `json:"line"`
	EndLine int `json:"endLine,omitempty"`
	// ParentToolCallID is set for calls made inside a subagent.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
}

// Stall is a gap between consecutive events longer than the threshold.
// A wait on a tool (tool_execution) is tool time: it is listed, but is a
// stall (Flagged: it flags its turn and counts in StallCount) only past
// the tool threshold (Options.ToolStallThreshold) or when the tool then
// failed. One rule for the inbox's column, the flag, the timeline and
// the report.
type Stall struct {
	StartedAt time.Time `json:"startedAt"`
	GapMs     int64     `json:"gapMs"`
	Kind      StallKind `json:"kind"`
	TurnID    string    `json:"turnId"`
	// FromLine is the line of the event the wait began after, Line the
	// line of the event that ended it.
	FromLine int `json:"fromLine,omitempty"`
	Line     int `json:"line"`
	// ToolCallID is the call a tool_execution wait was on, when known.
	ToolCallID string `json:"toolCallId,omitempty"`
	// Flagged says the stall raised the stall flag.
	Flagged bool `json:"flagged"`
}

// StallKind classifies a stall by what was outstanding before it.
type StallKind string

// The stall kinds.
const (
	StallTool    StallKind = "tool_execution"
	StallLLM     StallKind = "llm"
	StallUnknown StallKind = "unknown"
)

// Turn is one model response with the tool calls it issued and their
// results.
type Turn struct {
	TurnID       string     `json:"turnId"`
	MessageID    string     `json:"messageId,omitempty"`
	StartedAt    *time.Time `json:"startedAt"`
	DurationMs   *int64     `json:"durationMs"`
	InputTokens  *int64     `json:"inputTokens"`
	OutputTokens *int64     `json:"outputTokens"`
	// EstimatedUSD is what the turn's model requests cost: the
	// harness's per-call figures, else the price table's at the turn's
	// model; nil when the turn reported no usage or could not be priced.
	EstimatedUSD *float64 `json:"estimatedUsd"`
	// CostSource says where EstimatedUSD came from; empty when the turn
	// reported no usage.
	CostSource  CostSource `json:"costSource,omitempty"`
	Model       string     `json:"model,omitempty"`
	ToolCallIDs []string   `json:"toolCallIds"`
	Flags       []Flag     `json:"flags"`
	// FlagNotes says why each of the turn's flags was raised, one
	// sentence per instance (a failed call, a stall), at most
	// MaxTurnNotes; absent when the turn has no flag.
	FlagNotes []FlagNote `json:"flagNotes,omitempty"`
	// Text is the start of what the model said in this turn.
	Text    string `json:"text,omitempty"`
	Line    int    `json:"line"`
	EndLine int    `json:"endLine"`
}

// Flag marks something a reviewer should look at.
type Flag string

// The flags, per turn and rolled up to the session.
const (
	FlagToolFailed     Flag = "tool_failed"
	FlagApproval       Flag = "approval_required"
	FlagHarnessError   Flag = "harness_error"
	FlagTokenSpike     Flag = "token_spike"
	FlagStall          Flag = "stall"
	FlagUnfinishedTool Flag = "unfinished_tool"
	FlagRunFailed      Flag = "run_failed"
	FlagTruncated      Flag = "truncated"
)

// ReviewEvent is one thing a reviewer may look at, derived from the events:
// a prompt, a response, a tool call starting, completing or failing, or an
// approval stop.
type ReviewEvent struct {
	Type       ReviewEventType `json:"type"`
	SessionID  string          `json:"sessionId,omitempty"`
	TurnID     string          `json:"turnId,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	// Actor is user, agent or tool.
	Actor    string `json:"actor"`
	ToolName string `json:"toolName,omitempty"`
	// DisplayName is the operator's name for the tool ("Ran a command").
	DisplayName string `json:"displayName,omitempty"`
	// Summary is one redacted line saying what happened.
	Summary    string     `json:"summary"`
	DurationMs *int64     `json:"durationMs,omitempty"`
	ErrorKind  string     `json:"errorKind,omitempty"`
	Time       *time.Time `json:"time,omitempty"`
	Line       int        `json:"line"`
	// InputTokens, OutputTokens and Model are the per-turn cost row, set on
	// response events.
	InputTokens  *int64 `json:"inputTokens,omitempty"`
	OutputTokens *int64 `json:"outputTokens,omitempty"`
	Model        string `json:"model,omitempty"`
}

// ReviewEventType names a review event.
type ReviewEventType string

// The review event types.
const (
	ReviewPrompt            ReviewEventType = "prompt"
	ReviewResponse          ReviewEventType = "response"
	ReviewToolCallStarted   ReviewEventType = "tool_call_started"
	ReviewToolCallCompleted ReviewEventType = "tool_call_completed"
	ReviewToolCallFailed    ReviewEventType = "tool_call_failed"
	ReviewApprovalRequired  ReviewEventType = "approval_required"
)
