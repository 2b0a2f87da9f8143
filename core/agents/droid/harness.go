package droid

import (
	"github.com/agentsift/sift/core/agents"
)

// Harness is Factory's Droid CLI.
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Droid,
		Parser: droidParser{},
		History: &agents.History{
			Parser: droidHistoryParser{},
			Dirs:   droidHistoryDirs, Sessions: droidSessions, Render: droidRender,
			ProjectFromCwd: true,
		},
		CLI:       agents.CLI{Binary: "droid", Sub: "exec", Stream: []string{"--output-format", "stream-json"}},
		EditTools: []string{"ApplyPatch"},
	}
}
