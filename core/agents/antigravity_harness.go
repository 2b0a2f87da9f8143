package agents

// antigravityHarness is Antigravity's CLI, agy; its history is the step
// logs of the CLI's and the IDE's conversations (antigravity_brain.go).
func antigravityHarness() Harness {
	return Harness{
		Kind:   Antigravity,
		Parser: antigravityParser{},
		History: &History{Parser: antigravityHistoryParser{}, Dirs: antigravityHistoryDirs, Sessions: antigravityConversations,
			Render: antigravityRender, ProjectFromCwd: true, NoTokens: true},
		CLI:    CLI{Binary: "agy", Stream: []string{"--print", "--output-format", "stream-json"}, Probe: ProbeHelpAndRun},
		Deltas: antigravityDeltas,
	}
}

// antigravityDeltas recognises agy's step_update lines that carry a
// text_delta or a thinking_delta (not both).
func antigravityDeltas(b []byte, obj JSONVal, typ string) (string, JSONVal, bool) {
	if typ != "" || obj.Str(b, "event") != "step_update" {
		return "", JSONVal{}, false
	}
	step := obj.Member(b, "step_update")
	t, th := step.Member(b, "text_delta"), step.Member(b, "thinking_delta")
	switch {
	case t.OK() && !th.OK():
		return "agy:text", t, true
	case th.OK() && !t.OK():
		return "agy:thinking", th, true
	}
	return "", JSONVal{}, false
}
