package agents

// droidHarness is Factory's Droid CLI.
func droidHarness() Harness {
	return Harness{
		Kind:   Droid,
		Parser: droidParser{},
		History: &History{
			Parser: droidHistoryParser{},
			Dirs:   droidHistoryDirs, Sessions: droidSessions, Render: droidRender,
			ProjectFromCwd: true,
		},
		CLI:       CLI{Binary: "droid", Sub: "exec", Stream: []string{"--output-format", "stream-json"}},
		EditTools: []string{"ApplyPatch"},
	}
}
