package kimi

import (
	"github.com/agentsift/sift/core/agents"
)

// Harness is Kimi CLI.
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Kimi,
		Parser: kimiParser{},
		History: &agents.History{
			Parser: kimiHistoryParser{},
			Dirs:   kimiHistoryDirs, Session: kimiSession, Root: kimiHistoryRoot, Projects: kimiProjects,
		},
		CLI: agents.CLI{Binary: "kimi", Stream: []string{"--print", "--output-format", "stream-json"}},
	}
}
