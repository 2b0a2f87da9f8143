package agents

import (
	"strings"

	json "github.com/goccy/go-json"
)

// The content blocks of Anthropic's Messages API, as the histories that
// store its messages as they are (Cline's and its forks', Droid's) keep them.

// AnthropicBlock is one content block of a message.
type AnthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// AnthropicResultText is a tool_result block's content: a string or text
// blocks.
func AnthropicResultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var t string
		_ = json.Unmarshal(raw, &t)
		return t
	}
	var blocks []AnthropicBlock
	_ = json.Unmarshal(raw, &blocks)
	var out []string
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			out = append(out, b.Text)
		}
	}
	return strings.Join(out, "\n")
}
