package agents

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	json "github.com/goccy/go-json"
)

// CrushHistory is Crush's own history: the sessions it keeps in each
// project's database (<project>/.crush/crush.db).
const CrushHistory Kind = "crush-history"

// crushHarness is Crush (charmbracelet/crush): sift reads its sessions;
// it does not run it.
func crushHarness() Harness {
	return Harness{
		Kind: "crush",
		History: &History{
			Parser:   crushHistoryParser{},
			Dirs:     crushDirs,
			Sessions: crushSessions,
			Render:   crushRender,
		},
		EditTools: []string{"edit", "multiedit", "write"},
	}
}

// crushDirs is Crush's global data folder, where its projects.json lists
// the projects it ran in and their data folders (internal/projects):
// $CRUSH_GLOBAL_DATA, else $XDG_DATA_HOME/crush, else ~/.local/share/crush
// (config.GlobalConfigData, on Linux and macOS alike). Crush keeps each
// project's sessions in the project, not under HOME: the list is how
// they are found.
func crushDirs(getenv func(string) string, home string) []string {
	if d := getenv("CRUSH_GLOBAL_DATA"); d != "" {
		return []string{d}
	}
	if d := xdgData(getenv, home, "crush"); d != "" {
		return []string{d}
	}
	return nil
}

// crushSessions lists the sessions of every project projects.json names
// (its data folder's crush.db), each in the project's folder.
func crushSessions(dir string) ([]StoredSession, func(), error) {
	b, err := os.ReadFile(filepath.Join(dir, "projects.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var list struct {
		Projects []struct {
			Path    string `json:"path"`
			DataDir string `json:"data_dir"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, nil, errors.New("projects.json: " + err.Error())
	}
	var out []StoredSession
	var dones []func()
	var errs []error
	seen := map[string]bool{}
	for _, p := range list.Projects {
		data := p.DataDir
		if data == "" && p.Path != "" {
			data = filepath.Join(p.Path, ".crush")
		}
		if !filepath.IsAbs(data) || seen[data] {
			continue
		}
		seen[data] = true
		ss, done, err := dbSessions(filepath.Join(data, "crush.db"), crushDBList)
		for i := range ss {
			ss[i].Project = p.Path
		}
		out = append(out, ss...)
		if done != nil {
			dones = append(dones, done)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return out, joinDone(dones), joinErrs(errs)
}
