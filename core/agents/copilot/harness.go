package copilot

import (
	"github.com/agentsift/sift/core/agents"
)

// Harness is GitHub Copilot CLI, which has no structured mode.
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Copilot,
		Parser: copilotParser{},
		History: &agents.History{
			Parser: copilotHistoryParser{},
			Dirs:   copilotHistoryDirs, Session: copilotSession, Root: copilotHistoryRoot,
			ProjectFromCwd: true,
		},
		CLI: agents.CLI{Binary: "copilot", Probe: agents.NoStream},
	}
}
