package agents

// kimiHarness is Kimi CLI.
func kimiHarness() Harness {
	return Harness{
		Kind:   Kimi,
		Parser: kimiParser{},
		History: &History{
			Parser: kimiHistoryParser{},
			Dirs:   kimiHistoryDirs, Session: kimiSession, Root: kimiHistoryRoot, Projects: kimiProjects,
		},
		CLI: CLI{Binary: "kimi", Stream: []string{"--print", "--output-format", "stream-json"}},
	}
}
