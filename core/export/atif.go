// Package export turns what sift knows about a run into the formats other
// tools read: an ATIF trajectory (the Agent Trajectory Interchange Format
// of the Harbor framework), ACP `session/update` notifications (the Agent
// Client Protocol), and the morning report of many sessions (Markdown,
// HTML or JSON).
//
// It knows events, summaries and the review vocabulary, never SQL: the
// commands read the store and hand this package what it read. Stream text
// is untrusted: everything written is redacted (core/redact), and the
// JSON and HTML forms keep control characters and markup inert.
package export

import "encoding/json"

// ATIFVersion is the ATIF schema version sift writes, named in every
// trajectory's schema_version. v1.4 is the newest version whose
// specification text (Harbor's RFC 0001) sift could read; the JSON Schema
// in testdata/atif is written from it.
const ATIFVersion = "ATIF-v1.4"

// Trajectory is an ATIF trajectory: one agent run as a sequence of steps.
// Its JSON names follow the RFC; optional fields are left out when the
// harness did not report them, never filled with a guess.
type Trajectory struct {
	SchemaVersion string         `json:"schema_version"`
	SessionID     string         `json:"session_id"`
	Agent         Agent          `json:"agent"`
	Steps         []Step         `json:"steps"`
	Notes         string         `json:"notes,omitempty"`
	FinalMetrics  *FinalMetrics  `json:"final_metrics,omitempty"`
	Extra         map[string]any `json:"extra,omitzero"`
}

// Agent identifies the agent system of a trajectory.
type Agent struct {
	Name      string         `json:"name"`
	Version   string         `json:"version"`
	ModelName string         `json:"model_name,omitempty"`
	Extra     map[string]any `json:"extra,omitzero"`
}

// FinalMetrics are a trajectory's aggregate figures.
type FinalMetrics struct {
	TotalPromptTokens     *int64         `json:"total_prompt_tokens,omitempty"`
	TotalCompletionTokens *int64         `json:"total_completion_tokens,omitempty"`
	TotalCachedTokens     *int64         `json:"total_cached_tokens,omitempty"`
	TotalCostUSD          *float64       `json:"total_cost_usd,omitempty"`
	TotalSteps            *int           `json:"total_steps,omitempty"`
	Extra                 map[string]any `json:"extra,omitzero"`
}

// The sources of a step.
const (
	SourceSystem = "system"
	SourceUser   = "user"
	SourceAgent  = "agent"
)

// Step is one system prompt, user message or agent turn. ModelName,
// ReasoningEffort, ReasoningContent, ToolCalls and Metrics apply to agent
// steps only.
type Step struct {
	StepID           int            `json:"step_id"`
	Timestamp        string         `json:"timestamp,omitempty"`
	Source           string         `json:"source"`
	ModelName        string         `json:"model_name,omitempty"`
	ReasoningEffort  any            `json:"reasoning_effort,omitempty"`
	Message          string         `json:"message"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCall     `json:"tool_calls,omitzero"`
	Observation      *Observation   `json:"observation,omitempty"`
	Metrics          *Metrics       `json:"metrics,omitempty"`
	Extra            map[string]any `json:"extra,omitzero"`
}

// ToolCall is one function or tool invocation of an agent step.
// Arguments is always a JSON object.
type ToolCall struct {
	ToolCallID   string          `json:"tool_call_id"`
	FunctionName string          `json:"function_name"`
	Arguments    json.RawMessage `json:"arguments"`
}

// Metrics are one agent step's LLM figures. PromptTokens includes the
// cached share, CachedTokens.
type Metrics struct {
	PromptTokens       *int64         `json:"prompt_tokens,omitempty"`
	CompletionTokens   *int64         `json:"completion_tokens,omitempty"`
	CachedTokens       *int64         `json:"cached_tokens,omitempty"`
	CostUSD            *float64       `json:"cost_usd,omitempty"`
	PromptTokenIDs     []int64        `json:"prompt_token_ids,omitzero"`
	CompletionTokenIDs []int64        `json:"completion_token_ids,omitzero"`
	Logprobs           []float64      `json:"logprobs,omitzero"`
	Extra              map[string]any `json:"extra,omitzero"`
}

// Observation is the environment's feedback to a step.
type Observation struct {
	Results []ObservationResult `json:"results"`
}

// ObservationResult is the result of one tool call (SourceCallID names
// it) or of an action outside tool calling. Content is nil when the
// result is a subagent trajectory alone.
type ObservationResult struct {
	SourceCallID          string        `json:"source_call_id,omitempty"`
	Content               *string       `json:"content,omitempty"`
	SubagentTrajectoryRef []SubagentRef `json:"subagent_trajectory_ref,omitzero"`
}

// SubagentRef points at the trajectory of a subagent a tool call started.
type SubagentRef struct {
	SessionID      string         `json:"session_id"`
	TrajectoryPath string         `json:"trajectory_path,omitempty"`
	Extra          map[string]any `json:"extra,omitzero"`
}
