package agents

// cursorHarness is Cursor's CLI, cursor-agent.
func cursorHarness() Harness {
	return Harness{
		Kind:   Cursor,
		Parser: cursorParser{},
		CLI:    CLI{Binary: "cursor-agent", Stream: []string{"--print", "--output-format", "stream-json", "--stream-partial-output"}},
	}
}
