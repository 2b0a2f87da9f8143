package agents

// codexHarness is OpenAI's Codex CLI.
func codexHarness() Harness {
	return Harness{
		Kind:    Codex,
		Parser:  codexParser{},
		History: &History{Parser: codexHistoryParser{}},
		CLI:     CLI{Binary: "codex", Sub: "exec", Stream: []string{"--json"}},
	}
}
