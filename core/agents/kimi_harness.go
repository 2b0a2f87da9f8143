package agents

// kimiHarness is Kimi CLI.
func kimiHarness() Harness {
	return Harness{
		Kind:   Kimi,
		Parser: kimiParser{},
		CLI:    CLI{Binary: "kimi", Stream: []string{"--print", "--output-format", "stream-json"}},
	}
}
