package agents

// qwenHarness is Qwen Code, whose stream has Claude Code's shape
// (claude.go).
func qwenHarness() Harness {
	return Harness{
		Kind:   Qwen,
		Parser: claudeParser{kind: Qwen},
		History: &History{
			Parser: qwenHistoryParser{},
			Dirs:   qwenHistoryDirs, Session: qwenSession, Root: qwenHistoryRoot,
			ProjectFromCwd: true,
		},
		CLI:       CLI{Binary: "qwen", Stream: []string{"--output-format", "stream-json"}},
		RunTotal:  "result line",
		EditTools: []string{"edit"},
	}
}
