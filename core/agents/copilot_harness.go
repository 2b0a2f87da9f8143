package agents

// copilotHarness is GitHub Copilot CLI, which has no structured mode.
func copilotHarness() Harness {
	return Harness{
		Kind:   Copilot,
		Parser: copilotParser{},
		CLI:    CLI{Binary: "copilot", Probe: NoStream},
	}
}
