package cline

import (
	"path/filepath"
	"runtime"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/agents/opencode"
)

// The VS Code extensions' ids: the folder of each under globalStorage.
const (
	clineExt = "saoudrizwan.claude-dev"
	rooExt   = "rooveterinaryinc.roo-cline"
	kiloExt  = "kilocode.kilo-code"
)

// Harness is Cline, the VS Code extension: sift reads its task
// history; it has no CLI sift runs.
func Harness() agents.Harness { return vscodeTaskHarness("cline", agents.ClineHistory, clineExt) }

// RooHarness is Roo Code, Cline's fork.
func RooHarness() agents.Harness { return vscodeTaskHarness("roo", agents.RooHistory, rooExt) }

// KiloHarness is Kilo Code: its VS Code extension's task folders from
// before it moved onto opencode's core, and the database of the Kilo CLI
// (an opencode fork; the newer extension shares it): kilo.db in its data
// folder, ($XDG_DATA_HOME, else ~/.local/share)/kilo, and the one $KILO_DB
// names. A root that is a tasks folder is the extension's; any other the
// database's, read by opencode's reader.
func KiloHarness() agents.Harness {
	h := vscodeTaskHarness("kilo", agents.KiloHistory, kiloExt)
	tasks, db := *h.History, opencode.DatabaseHistory("kilo", "KILO_DB")
	h.History.Dirs = func(getenv func(string) string, home string) []string {
		return append(tasks.Dirs(getenv, home), db.Dirs(getenv, home)...)
	}
	h.History.Sessions = func(root string) ([]agents.StoredSession, func(), error) {
		if filepath.Base(root) == "tasks" && filepath.Base(filepath.Dir(root)) == kiloExt {
			return tasks.Sessions(root)
		}
		return db.Sessions(root)
	}
	h.History.Render = func(key string) ([]byte, bool, error) {
		if lines, ok, err := tasks.Render(key); ok {
			return lines, ok, err
		}
		return db.Render(key)
	}
	return h
}

// vscodeTaskHarness is the entry of a VS Code extension of Cline's line
// that keeps a folder per task under its globalStorage.
func vscodeTaskHarness(kind agents.Kind, hist agents.Kind, ext string) agents.Harness {
	return agents.Harness{
		Kind: kind,
		History: &agents.History{
			Parser:         clineHistoryParser{kind: hist},
			Dirs:           func(getenv func(string) string, home string) []string { return vscodeTaskDirs(getenv, home, ext) },
			Sessions:       clineTasks,
			Render:         clineRender(ext),
			ProjectFromCwd: true,
		},
		EditTools: []string{"write_to_file", "replace_in_file", "apply_diff", "insert_content", "search_and_replace"},
	}
}

// vscodeVariants are the VS Code builds whose user folders hold an
// extension's globalStorage, by their folder names.
var vscodeVariants = []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"}

// vscodeTaskDirs are an extension's tasks folders: under each VS Code
// build's User/globalStorage/<ext> in the application data folder (Linux:
// $XDG_CONFIG_HOME, else ~/.config; macOS: ~/Library/Application Support,
// as Electron's appData),
// and under a remote server's (~/.vscode-server/data, Codespaces'
// ~/.vscode-remote/data).
func vscodeTaskDirs(getenv func(string) string, home string, ext string) []string {
	base := getenv("XDG_CONFIG_HOME")
	switch {
	case runtime.GOOS == "darwin" && home != "":
		base = filepath.Join(home, "Library", "Application Support")
	case base == "" && home != "":
		base = filepath.Join(home, ".config")
	}
	var dirs []string
	if base != "" {
		for _, v := range vscodeVariants {
			dirs = append(dirs, filepath.Join(base, v, "User", "globalStorage", ext, "tasks"))
		}
	}
	if home != "" {
		for _, r := range []string{".vscode-server", ".vscode-remote"} {
			dirs = append(dirs, filepath.Join(home, r, "data", "User", "globalStorage", ext, "tasks"))
		}
	}
	return dirs
}
