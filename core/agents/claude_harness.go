package agents

// claudeHarness is Claude Code.
func claudeHarness() Harness {
	return Harness{
		Kind:    Claude,
		Parser:  claudeParser{kind: Claude},
		History: &History{Parser: claudeHistoryParser{}},
		CLI:     CLI{Binary: "claude", Stream: []string{"--print", "--output-format", "stream-json", "--verbose"}},
	}
}
