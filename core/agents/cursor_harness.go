package agents

// cursorHarness is Cursor's CLI, cursor-agent.
func cursorHarness() Harness {
	return Harness{
		Kind:     Cursor,
		Parser:   cursorParser{},
		CLI:      CLI{Binary: "cursor-agent", Stream: []string{"--print", "--output-format", "stream-json", "--stream-partial-output"}},
		RunTotal: "result line",
		deltas:   cursorDeltas,
		History:  &History{Parser: cursorHistoryParser{}, Dirs: cursorDirs, Sessions: cursorSessions, Render: cursorRender, NoTokens: true},
	}
}

// cursorDeltas recognises Cursor's --stream-partial-output lines: thinking
// deltas, and partial replies, which carry a timestamp_ms (the whole reply
// that closes the message does not).
func cursorDeltas(b []byte, obj jsonVal, typ string) (string, jsonVal, bool) {
	switch typ {
	case "thinking":
		if obj.str(b, "subtype") == "delta" {
			return "thinking", obj.member(b, "text"), true
		}
	case "assistant":
		if obj.member(b, "timestamp_ms").ok() {
			content := obj.member(b, "message").member(b, "content")
			if one := content.only(b); one.str(b, "type") == "text" {
				return "assistant", one.member(b, "text"), true
			}
		}
	}
	return "", jsonVal{}, false
}
