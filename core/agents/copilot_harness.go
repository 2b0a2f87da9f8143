package agents

// copilotHarness is GitHub Copilot CLI, which has no structured mode.
func copilotHarness() Harness {
	return Harness{
		Kind:   Copilot,
		Parser: copilotParser{},
		History: &History{
			Parser: copilotHistoryParser{},
			Dirs:   copilotHistoryDirs, Session: copilotSession, Root: copilotHistoryRoot,
			ProjectFromCwd: true,
		},
		CLI: CLI{Binary: "copilot", Probe: NoStream},
	}
}
