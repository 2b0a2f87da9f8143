package antigravity

import (
	"github.com/agentsift/sift/core/agents"
)

// Harness is Antigravity's CLI, agy; its history is the step
// logs of the CLI's and the IDE's conversations (brain.go).
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Antigravity,
		Parser: antigravityParser{},
		History: &agents.History{Parser: antigravityHistoryParser{}, Dirs: antigravityHistoryDirs, Sessions: antigravityConversations,
			Render: antigravityRender, ProjectFromCwd: true, NoTokens: true},
		CLI:    agents.CLI{Binary: "agy", Stream: []string{"--print", "--output-format", "stream-json"}, Probe: agents.ProbeHelpAndRun},
		Deltas: antigravityDeltas,
	}
}

// antigravityDeltas recognises agy's step_update lines that carry a
// text_delta or a thinking_delta (not both).
func antigravityDeltas(b []byte, obj agents.JSONVal, typ string) (string, agents.JSONVal, bool) {
	if typ != "" || obj.Str(b, "event") != "step_update" {
		return "", agents.JSONVal{}, false
	}
	step := obj.Member(b, "step_update")
	t, th := step.Member(b, "text_delta"), step.Member(b, "thinking_delta")
	switch {
	case t.OK() && !th.OK():
		return "agy:text", t, true
	case th.OK() && !t.OK():
		return "agy:thinking", th, true
	}
	return "", agents.JSONVal{}, false
}
