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
		deltas: antigravityDeltas,
	}
}

// antigravityDeltas recognises agy's step_update lines that carry a
// text_delta or a thinking_delta (not both).
func antigravityDeltas(b []byte, obj jsonVal, typ string) (string, jsonVal, bool) {
	if typ != "" || obj.str(b, "event") != "step_update" {
		return "", jsonVal{}, false
	}
	step := obj.member(b, "step_update")
	t, th := step.member(b, "text_delta"), step.member(b, "thinking_delta")
	switch {
	case t.ok() && !th.ok():
		return "agy:text", t, true
	case th.ok() && !t.ok():
		return "agy:thinking", th, true
	}
	return "", jsonVal{}, false
}
