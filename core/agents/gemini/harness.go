package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsift/sift/core/agents"
)

// Harness is Gemini CLI.
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Gemini,
		Parser: geminiParser{},
		History: &agents.History{
			Parser: geminiHistoryParser{},
			Dirs:   geminiHistoryDirs, Session: geminiSession, Root: geminiHistoryRoot,
			Projects: geminiProjects, Document: GeminiLegacyLines, NamedByID: true,
		},
		CLI:   agents.CLI{Binary: "gemini", Stream: []string{"--output-format", "stream-json"}, Probe: agents.ProbeHelp},
		Model: geminiModel,
		// gemini 0.61.0: -r, --resume <latest|index|uuid> (its --help
		// names only latest and an index; its session selector takes
		// the UUID too); -p, --prompt.
		Resume: &agents.Resume{ID: agents.UUIDID(),
			Args:   func(id string) []string { return []string{"--resume", id} },
			Prompt: func(id, p string) []string { return []string{"--resume", id, "--prompt=" + p} }},
		EditTools: []string{"replace", "write_file"},
		RunTotal:  "stats",
		Deltas:    geminiDeltas,
	}
}

// geminiModel reads Gemini CLI's model: -m/--model, then $GEMINI_MODEL,
// then the settings files, system ($GEMINI_CLI_SYSTEM_SETTINGS_PATH, else
// /etc/gemini-cli/settings.json), the workspace's .gemini/settings.json,
// then ~/.gemini/settings.json: `model.name`, or the older string
// `model`.
func geminiModel(l agents.Launch) (agents.Model, error) {
	if m, ok := agents.FromFlag(l.Args, "-m", "--model"); ok {
		return m, nil
	}
	if m, ok := agents.FromEnv(l, "GEMINI_MODEL"); ok {
		return m, nil
	}
	file := func(path string) func() (agents.Model, error) {
		return func() (agents.Model, error) { return agents.JSONModel(l, path, "model.name", "model") }
	}
	sys := l.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
	if sys == "" {
		sys = "/etc/gemini-cli/settings.json"
	}
	layers := []func() (agents.Model, error){file(sys)}
	if l.Dir != "" {
		layers = append(layers, file(filepath.Join(l.Dir, ".gemini", "settings.json")))
	}
	if l.Home() != "" {
		layers = append(layers, file(filepath.Join(l.Home(), ".gemini", "settings.json")))
	}
	return agents.FirstOf(layers...)
}

// geminiDeltas recognises Gemini CLI's message lines with "delta":true.
func geminiDeltas(b []byte, obj agents.JSONVal, typ string) (string, agents.JSONVal, bool) {
	if typ == "message" && obj.Member(b, "delta").Is(b, "true") {
		return "message:" + obj.Str(b, "role"), obj.Member(b, "content"), true
	}
	return "", agents.JSONVal{}, false
}

// geminiHistoryDirs is the folder Gemini CLI keeps its chats in:
// <dir>/tmp of GEMINI_DIR (the .gemini folder itself), else of
// GEMINI_CLI_HOME/.gemini (Gemini CLI's home override), else of
// ~/.gemini; the chats are under <dir>/tmp/<project>/chats.
func geminiHistoryDirs(getenv func(string) string, home string) []string {
	gemini := getenv("GEMINI_DIR")
	if gemini == "" {
		if h := getenv("GEMINI_CLI_HOME"); h != "" {
			gemini = filepath.Join(h, ".gemini")
		} else if home != "" {
			gemini = filepath.Join(home, ".gemini")
		}
	}
	if gemini == "" {
		return nil
	}
	return []string{filepath.Join(gemini, "tmp")}
}

// geminiSession names a Gemini CLI chat: <project>/chats/session-*.json(l),
// and a subagent's chat <project>/chats/<parent session>/<session>.jsonl.
func geminiSession(parts []string) (workItem, name string, ok bool) {
	name = parts[len(parts)-1]
	if len(parts) < 3 || len(parts) > 4 || parts[1] != "chats" ||
		!(strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json")) {
		return "", name, false
	}
	if len(parts) == 4 {
		name = parts[2] + "." + name
	}
	return parts[0], name, true
}

// geminiHistoryRoot is the tmp folder a chat is under: three folders up,
// four from a subagent's chat.
func geminiHistoryRoot(path string) string {
	if filepath.Base(filepath.Dir(path)) != "chats" {
		return agents.UpDirs(path, 4)
	}
	return agents.UpDirs(path, 3)
}

// geminiProjects maps Gemini CLI's project folders under tmp to the
// project roots they stand for: ~/.gemini/projects.json ({"projects":
// {root: folder}}) and a folder's own .project_root file. Older Gemini CLI
// named the folder by a hash of the root, which no file maps back: those
// stay by their hash.
func geminiProjects(root string) map[string]string {
	out := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(root), "projects.json")); err == nil {
		var pj struct {
			Projects map[string]string `json:"projects"`
		}
		if json.Unmarshal(b, &pj) == nil {
			for path, slug := range pj.Projects {
				out[slug] = path
			}
		}
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(root, e.Name(), ".project_root")); err == nil {
			if p := strings.TrimSpace(string(b)); p != "" {
				out[e.Name()] = p
			}
		}
	}
	return out
}
