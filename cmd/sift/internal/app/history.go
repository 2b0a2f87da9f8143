package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/ingest"
)

// ErrHistoryPaths is returned for `sift import --history PATH…`: the
// histories are found where the CLIs keep them.
var ErrHistoryPaths = errors.New("--history takes no paths: it reads the CLIs' own folders " +
	"(set CLAUDE_CONFIG_DIR, CODEX_HOME or GEMINI_DIR to read others)")

// HistoryRoots returns the folders where the agent CLIs keep their session
// histories, honouring the variables each CLI itself reads:
//
//   - Claude Code: every folder of CLAUDE_CONFIG_DIR (comma-separated, as
//     ccusage reads it), else ~/.config/claude and ~/.claude; sessions
//     are under <dir>/projects.
//   - Codex: CODEX_HOME, else ~/.codex; rollouts are under <dir>/sessions.
//   - Gemini CLI: GEMINI_DIR (the .gemini folder itself), else
//     GEMINI_CLI_HOME/.gemini (Gemini CLI's home override), else
//     ~/.gemini; chats are under <dir>/tmp/<project>/chats.
//
// Folders that do not exist are kept: the import skips them quietly.
func HistoryRoots(getenv func(string) string) []ingest.HistoryRoot {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var roots []ingest.HistoryRoot
	seen := map[string]bool{}
	add := func(k agents.Kind, dir string) {
		if dir == "" || seen[dir] {
			return
		}
		seen[dir] = true
		roots = append(roots, ingest.HistoryRoot{Agent: k, Dir: dir})
	}
	if v := getenv("CLAUDE_CONFIG_DIR"); strings.TrimSpace(v) != "" {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				add(agents.ClaudeHistory, filepath.Join(d, "projects"))
			}
		}
	} else if home != "" {
		xdg := getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		add(agents.ClaudeHistory, filepath.Join(xdg, "claude", "projects"))
		add(agents.ClaudeHistory, filepath.Join(home, ".claude", "projects"))
	}
	codex := getenv("CODEX_HOME")
	if codex == "" && home != "" {
		codex = filepath.Join(home, ".codex")
	}
	if codex != "" {
		add(agents.CodexHistory, filepath.Join(codex, "sessions"))
	}
	gemini := getenv("GEMINI_DIR")
	if gemini == "" {
		if h := getenv("GEMINI_CLI_HOME"); h != "" {
			gemini = filepath.Join(h, ".gemini")
		} else if home != "" {
			gemini = filepath.Join(home, ".gemini")
		}
	}
	if gemini != "" {
		add(agents.GeminiHistory, filepath.Join(gemini, "tmp"))
	}
	return roots
}
