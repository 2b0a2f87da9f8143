package goose

import (
	"path/filepath"
	"runtime"

	"github.com/agentsift/sift/core/agents"
)

// Harness is Goose (block/goose): sift reads its session database;
// it does not run it.
func Harness() agents.Harness {
	return agents.Harness{
		Kind: "goose",
		History: &agents.History{
			Parser: gooseHistoryParser{},
			Dirs:   gooseDirs,
			Sessions: func(dir string) ([]agents.StoredSession, func(), error) {
				return agents.DBSessions(filepath.Join(dir, "sessions.db"), gooseDBList)
			},
			Render: gooseRender,
		},
		EditTools: []string{"developer__text_editor", "text_editor"},
	}
}

// gooseDirs is Goose's sessions folder: its data folder's sessions/
// (Paths::data_dir, from the etcetera crate's app strategy for
// Block/goose): $GOOSE_PATH_ROOT/data when set, else on macOS
// ~/Library/Application Support/Block/goose, elsewhere
// ($XDG_DATA_HOME, else ~/.local/share)/goose.
func gooseDirs(getenv func(string) string, home string) []string {
	if root := getenv("GOOSE_PATH_ROOT"); root != "" {
		return []string{filepath.Join(root, "data", "sessions")}
	}
	if runtime.GOOS == "darwin" && home != "" {
		return []string{filepath.Join(home, "Library", "Application Support", "Block", "goose", "sessions")}
	}
	if data := agents.XDGData(getenv, home, "goose"); data != "" {
		return []string{filepath.Join(data, "sessions")}
	}
	return nil
}
