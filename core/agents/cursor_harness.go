package agents

// cursorHarness is Cursor's CLI, cursor-agent.
func cursorHarness() Harness {
	return Harness{
		Kind:     Cursor,
		Parser:   cursorParser{},
		CLI:      CLI{Binary: "cursor-agent", Stream: []string{"--print", "--output-format", "stream-json", "--stream-partial-output"}},
		RunTotal: "result line",
		Deltas:   cursorDeltas,
		History:  &History{Parser: cursorHistoryParser{}, Dirs: cursorDirs, Sessions: cursorSessions, Render: cursorRender, NoTokens: true},
	}
}

// cursorDeltas recognises Cursor's --stream-partial-output lines: thinking
// deltas, and partial replies, which carry a timestamp_ms (the whole reply
// that closes the message does not).
func cursorDeltas(b []byte, obj JSONVal, typ string) (string, JSONVal, bool) {
	switch typ {
	case "thinking":
		if obj.Str(b, "subtype") == "delta" {
			return "thinking", obj.Member(b, "text"), true
		}
	case "assistant":
		if obj.Member(b, "timestamp_ms").OK() {
			content := obj.Member(b, "message").Member(b, "content")
			if one := content.only(b); one.Str(b, "type") == "text" {
				return "assistant", one.Member(b, "text"), true
			}
		}
	}
	return "", JSONVal{}, false
}

// cursorParser reads Cursor's `cursor-agent -p --output-format
// stream-json`. Its system, assistant, user and result lines are Claude's
// shape, read by the Claude-shaped stream (claude.go); its own lines,
// thinking deltas and tool_call started/completed pairs, are read by that
// stream's methods in cursor.go, which it calls for any Claude-shaped kind, since a
// sniffed Cursor stream may be attributed to Claude. Cursor claims nothing
// when sniffing.
type cursorParser struct{}
