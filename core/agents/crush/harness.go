package crush

import (
	"os"
	"path/filepath"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/agents"
)

// Harness is Crush (charmbracelet/crush): sift reads its sessions;
// it does not run it.
func Harness() agents.Harness {
	return agents.Harness{
		Kind: "crush",
		History: &agents.History{
			Parser:   crushHistoryParser{},
			Dirs:     crushDirs,
			Sessions: crushSessions,
			Render:   crushRender,
		},
		EditTools: []string{"edit", "multiedit", "write"},
	}
}

// crushDirs are the data folders of the projects Crush ran in, as the
// projects.json in its global data folder lists them
// (internal/projects): Crush keeps each project's sessions in the
// project (<project>/.crush/crush.db), nothing under HOME but that list.
// The global folder is $CRUSH_GLOBAL_DATA, else $XDG_DATA_HOME/crush, else
// ~/.local/share/crush (config.GlobalConfigData, on Linux and macOS
// alike). A list that cannot be read names no folder.
func crushDirs(getenv func(string) string, home string) []string {
	global := getenv("CRUSH_GLOBAL_DATA")
	if global == "" {
		global = agents.XDGData(getenv, home, "crush")
	}
	if global == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(global, "projects.json"))
	if err != nil {
		return nil
	}
	var list struct {
		Projects []struct {
			Path    string `json:"path"`
			DataDir string `json:"data_dir"`
		} `json:"projects"`
	}
	if json.Unmarshal(b, &list) != nil {
		return nil
	}
	var dirs []string
	for _, p := range list.Projects {
		data := p.DataDir
		if data == "" && p.Path != "" {
			data = filepath.Join(p.Path, ".crush")
		}
		if filepath.IsAbs(data) && !slices.Contains(dirs, filepath.Clean(data)) {
			dirs = append(dirs, filepath.Clean(data))
		}
	}
	return dirs
}

// crushSessions lists the sessions of a project's data folder (its
// crush.db), in the project's folder: the data folder's parent when it is
// the default .crush (a project that moved its data elsewhere has its
// sessions under Crush's name).
func crushSessions(dir string) ([]agents.StoredSession, func(), error) {
	ss, done, err := agents.DBSessions(filepath.Join(dir, "crush.db"), crushDBList)
	if filepath.Base(dir) == ".crush" {
		for i := range ss {
			ss[i].Project = filepath.Dir(dir)
		}
	}
	return ss, done, err
}
