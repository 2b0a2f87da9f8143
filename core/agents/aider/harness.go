package aider

import (
	"os"
	"path/filepath"

	"github.com/agentsift/sift/core/agents"
)

// aiderHistoryFile is the name of the chat history Aider writes in the
// git root of the folder it runs in, or in that folder outside a
// repository (aider/args.py, --chat-history-file's default).
const aiderHistoryFile = ".aider.chat.history.md"

// Harness is Aider (Aider-AI/aider): sift reads its chat histories;
// it does not run it.
func Harness() agents.Harness {
	return agents.Harness{
		Kind: "aider",
		History: &agents.History{
			Parser:     aiderHistoryParser{},
			Dirs:       aiderDirs,
			InProjects: aiderInProjects,
			Sessions:   aiderSessions,
			Render:     aiderRender,
			NoTokens:   true,
		},
	}
}

// aiderDirs is the chat history $AIDER_CHAT_HISTORY_FILE names when it is
// absolute (Aider reads every option from an AIDER_ variable as well,
// aider/args.py auto_env_var_prefix): Aider keeps nothing else outside
// the projects it runs in, which sift finds through aiderInProjects.
func aiderDirs(getenv func(string) string, _ string) []string {
	if f := getenv("AIDER_CHAT_HISTORY_FILE"); filepath.IsAbs(f) {
		return []string{filepath.Clean(f)}
	}
	return nil
}

// aiderInProjects returns where a project folder sift knows keeps Aider
// chat histories: the folder, and the git root above it, that holds
// .aider.chat.history.md (Aider writes it in the git root even when
// started in a subfolder), and a relative $AIDER_CHAT_HISTORY_FILE under
// either. Each file is its own root, never the project folder: the
// session view may open what is inside a root, and a project holds much
// besides its chat history. Only what exists is returned.
func aiderInProjects(getenv func(string) string, project string) []string {
	if !filepath.IsAbs(project) {
		return nil
	}
	project = filepath.Clean(project)
	folders := []string{project}
	if root := gitRoot(project); root != "" && root != project {
		folders = append(folders, root)
	}
	rel := getenv("AIDER_CHAT_HISTORY_FILE")
	if filepath.IsAbs(rel) {
		rel = ""
	}
	var out []string
	for _, f := range folders {
		if p := filepath.Join(f, aiderHistoryFile); isFile(p) {
			out = append(out, p)
		}
		if rel != "" && isFile(filepath.Join(f, rel)) {
			out = append(out, filepath.Join(f, rel))
		}
	}
	return out
}

// gitRoot is the nearest folder at or above dir that holds a .git entry;
// "" when none does.
func gitRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// isFile reports whether path is a regular file (a link to one counts).
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
