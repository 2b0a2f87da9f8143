package agents

// antigravityHarness is Antigravity's CLI, agy.
func antigravityHarness() Harness {
	return Harness{
		Kind:   Antigravity,
		Parser: antigravityParser{},
		CLI:    CLI{Binary: "agy", Stream: []string{"--print", "--output-format", "stream-json"}, Probe: ProbeHelpAndRun},
	}
}
