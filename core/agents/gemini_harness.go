package agents

// geminiHarness is Gemini CLI.
func geminiHarness() Harness {
	return Harness{
		Kind:    Gemini,
		Parser:  geminiParser{},
		History: &History{Parser: geminiHistoryParser{}},
		CLI:     CLI{Binary: "gemini", Stream: []string{"--output-format", "stream-json"}, Probe: ProbeHelp},
	}
}
