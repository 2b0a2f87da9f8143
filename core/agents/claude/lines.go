package claude

import (
	json "github.com/goccy/go-json"
)

// The lines of Claude Code's stream-json, as the Claude-shaped stream
// (claude.go) decodes them: one union of the fields of every line, and a
// variant that reads the message content in the same pass.

// claudeLine is the union of the fields of every Claude-shaped line sift
// reads. Payloads it only passes on stay raw.
type claudeLine struct {
	Type            string          `json:"type"`
	Subtype         string          `json:"subtype"`
	SessionID       string          `json:"session_id"`
	Timestamp       string          `json:"timestamp"`
	TimestampMs     *int64          `json:"timestamp_ms"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	Message         *claudeMessage  `json:"message"`
	ToolUseResult   json.RawMessage `json:"tool_use_result"`
	ToolResultMeta  []struct {
		ID               string `json:"id"`
		NonExecutionKind string `json:"non_execution_kind"`
	} `json:"tool_result_meta"`
	IsSynthetic bool `json:"isSynthetic"`

	// On-disk transcripts (~/.claude/projects) spell some keys in
	// camelCase and add request ids and sidechain markers.
	SessionIDCamel     string          `json:"sessionId"`
	ToolUseResultCamel json.RawMessage `json:"toolUseResult"`
	RequestID          string          `json:"requestId"`
	IsSidechain        bool            `json:"isSidechain"`
	AgentID            string          `json:"agentId"`
	Version            string          `json:"version"`
	// IsAPIErrorMessage marks the assistant line a transcript writes for
	// a failed API call (model "<synthetic>", the error as its text).
	IsAPIErrorMessage bool `json:"isApiErrorMessage"`

	// system/hook_started, system/hook_response.
	HookName  string `json:"hook_name"`
	HookEvent string `json:"hook_event"`
	Outcome   string `json:"outcome"`
	ExitCode  *int   `json:"exit_code"`
	Stderr    string `json:"stderr"`

	// system/init
	Cwd               string   `json:"cwd"`
	Model             string   `json:"model"`
	Tools             []string `json:"tools"`
	ClaudeCodeVersion string   `json:"claude_code_version"`
	QwenCodeVersion   string   `json:"qwen_code_version"`
	PermissionMode    string   `json:"permissionMode"`
	APIKeySource      string   `json:"apiKeySource"`

	// result
	IsError           *bool           `json:"is_error"`
	Result            json.RawMessage `json:"result"`
	NumTurns          *int            `json:"num_turns"`
	DurationMs        *int64          `json:"duration_ms"`
	DurationAPIMs     *int64          `json:"duration_api_ms"`
	TotalCostUSD      *float64        `json:"total_cost_usd"`
	Usage             *claudeUsage    `json:"usage"`
	TerminalReason    string          `json:"terminal_reason"`
	APIErrorStatus    json.RawMessage `json:"api_error_status"`
	TTFTMs            *int64          `json:"ttft_ms"`
	PermissionDenials []struct {
		ToolName  string          `json:"tool_name"`
		ToolUseID string          `json:"tool_use_id"`
		ToolInput json.RawMessage `json:"tool_input"`
	} `json:"permission_denials"`
	Errors json.RawMessage `json:"errors"`

	// cursor: thinking deltas and tool_call lines.
	Text        string                     `json:"text"`
	CallID      string                     `json:"call_id"`
	ModelCallID string                     `json:"model_call_id"`
	ToolCall    map[string]json.RawMessage `json:"tool_call"`

	// control_request (bidirectional mode)
	Request *struct {
		Subtype   string          `json:"subtype"`
		ToolName  string          `json:"tool_name"`
		ToolUseID string          `json:"tool_use_id"`
		Input     json.RawMessage `json:"input"`
	} `json:"request"`
}

type claudeMessage struct {
	ID         string        `json:"id"`
	Model      string        `json:"model"`
	Role       string        `json:"role"`
	StopReason *string       `json:"stop_reason"`
	Content    claudeContent `json:"content"`
	Usage      *claudeUsage  `json:"usage"`
}

// claudeContent is a message's content: an array of blocks, or a plain
// string (kept as one text block marked by plain).
type claudeContent struct {
	blocks []claudeBlock
	plain  bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *claudeContent) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var text string
		if err := json.Unmarshal(b, &text); err != nil {
			return err
		}
		c.blocks, c.plain = []claudeBlock{{Type: "text", Text: text}}, true
		return nil
	}
	return json.Unmarshal(b, &c.blocks)
}

// claudeUsage holds Anthropic's snake_case usage and Cursor's camelCase one.
type claudeUsage struct {
	InputTokens   *int64 `json:"input_tokens"`
	OutputTokens  *int64 `json:"output_tokens"`
	CacheRead     *int64 `json:"cache_read_input_tokens"`
	CacheCreation *int64 `json:"cache_creation_input_tokens"`
	TotalTokens   *int64 `json:"total_tokens"`

	CamelInput      *int64 `json:"inputTokens"`
	CamelOutput     *int64 `json:"outputTokens"`
	CamelCacheRead  *int64 `json:"cacheReadTokens"`
	CamelCacheWrite *int64 `json:"cacheWriteTokens"`
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   *bool           `json:"is_error"`
	Source    *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// claudeLineFast is claudeLine with the message content read as an array
// of blocks in the same pass. claudeContent, which also reads a plain
// string, has an UnmarshalJSON method, for which the decoder copies the
// content and decodes it again; a line whose content is not an array fails
// this decoding and is decoded again as a claudeLine.
type claudeLineFast struct {
	claudeLine
	Message *claudeMessageFast `json:"message"`
}

type claudeMessageFast struct {
	claudeMessage
	Content []claudeBlock `json:"content"`
}

// empty reports a message with nothing in it: absent from the line (the
// scratch message decoded into is left as it was) or `{}`.
func (m *claudeMessageFast) empty() bool {
	return m.ID == "" && m.Model == "" && m.Role == "" && m.StopReason == nil && m.Usage == nil && len(m.Content) == 0
}
