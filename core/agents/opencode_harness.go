package agents

// opencodeHarness is opencode.
func opencodeHarness() Harness {
	return Harness{
		Kind:   OpenCode,
		Parser: opencodeParser{},
		CLI:    CLI{Binary: "opencode", Sub: "run", Stream: []string{"--format", "json"}},
	}
}
