package cursor

import (
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/claude"
)

// Harness is Cursor's CLI, cursor-agent.
func Harness() agents.Harness {
	return agents.Harness{
		Kind:     agents.Cursor,
		Parser:   cursorParser{},
		CLI:      agents.CLI{Binary: "cursor-agent", Stream: []string{"--print", "--output-format", "stream-json", "--stream-partial-output"}},
		RunTotal: "result line",
		Deltas:   cursorDeltas,
		History:  &agents.History{Parser: cursorHistoryParser{}, Dirs: cursorDirs, Sessions: cursorSessions, Render: cursorRender, NoTokens: true},
	}
}

// cursorDeltas recognises Cursor's --stream-partial-output lines: thinking
// deltas, and partial replies, which carry a timestamp_ms (the whole reply
// that closes the message does not).
func cursorDeltas(b []byte, obj agents.JSONVal, typ string) (string, agents.JSONVal, bool) {
	switch typ {
	case "thinking":
		if obj.Str(b, "subtype") == "delta" {
			return "thinking", obj.Member(b, "text"), true
		}
	case "assistant":
		if obj.Member(b, "timestamp_ms").OK() {
			content := obj.Member(b, "message").Member(b, "content")
			if one := content.Only(b); one.Str(b, "type") == "text" {
				return "assistant", one.Member(b, "text"), true
			}
		}
	}
	return "", agents.JSONVal{}, false
}

// cursorParser reads Cursor's `cursor-agent -p --output-format
// stream-json`. Its system, assistant, user and result lines are Claude's shape,
// read by the Claude-shaped stream (core/agents/claude); its own lines,
// thinking deltas and tool_call started/completed pairs, are read by that
// stream's methods in core/agents/claude/cursor.go, which it calls for any
// Claude-shaped kind, since a sniffed Cursor stream may be attributed to
// Claude. Cursor claims nothing when sniffing.
type cursorParser struct{}

// Kind implements Parser.
func (cursorParser) Kind() agents.Kind { return agents.Cursor }

// Claims implements Parser: Cursor's lines are Claude's shape, claimed by
// none.
func (cursorParser) Claims([]byte) bool { return false }

// NewStream implements Parser.
func (cursorParser) NewStream() agents.Stream { return claude.NewStream(agents.Cursor) }

// EndsWithResult implements Parser: Cursor ends with Claude's result line.
func (cursorParser) EndsWithResult() bool { return true }
