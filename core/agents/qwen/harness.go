package qwen

import (
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/claude"
)

// Harness is Qwen Code, whose stream has Claude Code's shape
// (core/agents/claude).
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Qwen,
		Parser: claude.Parser{Agent: agents.Qwen},
		History: &agents.History{
			Parser: qwenHistoryParser{},
			Dirs:   qwenHistoryDirs, Session: qwenSession, Root: qwenHistoryRoot,
			ProjectFromCwd: true,
		},
		CLI:       agents.CLI{Binary: "qwen", Stream: []string{"--output-format", "stream-json"}},
		RunTotal:  "result line",
		EditTools: []string{"edit"},
	}
}
