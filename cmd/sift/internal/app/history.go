package app

import (
	"errors"
	"os"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
)

// ErrHistoryPaths is returned for `sift import --history PATH…`: the
// histories are found where the CLIs keep them.
var ErrHistoryPaths = errors.New("--history takes no paths: it reads the CLIs' own folders " +
	"(set CLAUDE_CONFIG_DIR, CODEX_HOME or GEMINI_DIR to read others)")

// HistoryRoots returns the folders where the agent CLIs keep their session
// histories, as each harness's entry finds them (agents.History.Dirs),
// honouring the variables each CLI itself reads: Claude Code's
// CLAUDE_CONFIG_DIR, Codex's CODEX_HOME, Gemini CLI's GEMINI_DIR and
// GEMINI_CLI_HOME.
//
// Folders that do not exist are kept: the import skips them quietly.
func HistoryRoots(getenv func(string) string) []ingest.HistoryRoot {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var roots []ingest.HistoryRoot
	seen := map[string]bool{}
	for _, h := range agents.Harnesses() {
		if h.History == nil {
			continue
		}
		for _, dir := range h.History.Dirs(getenv, home) {
			if dir == "" || seen[dir] {
				continue
			}
			seen[dir] = true
			roots = append(roots, ingest.HistoryRoot{Agent: h.History.Parser.Kind(), Dir: dir})
		}
	}
	return roots
}
