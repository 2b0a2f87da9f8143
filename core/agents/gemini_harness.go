package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// geminiHarness is Gemini CLI.
func geminiHarness() Harness {
	return Harness{
		Kind:   Gemini,
		Parser: geminiParser{},
		History: &History{
			Parser: geminiHistoryParser{},
			Dirs:   geminiHistoryDirs, Session: geminiSession, Root: geminiHistoryRoot,
			Projects: geminiProjects, Document: GeminiLegacyLines, NamedByID: true,
		},
		CLI:   CLI{Binary: "gemini", Stream: []string{"--output-format", "stream-json"}, Probe: ProbeHelp},
		Model: geminiModel,
		// gemini 0.61.0: -r, --resume <latest|index|uuid> (its --help
		// names only latest and an index; its session selector takes
		// the UUID too); -p, --prompt.
		Resume: &Resume{ID: uuidID(),
			Args:   func(id string) []string { return []string{"--resume", id} },
			Prompt: func(id, p string) []string { return []string{"--resume", id, "--prompt=" + p} }},
		EditTools: []string{"replace", "write_file"},
		RunTotal:  "stats",
		deltas:    geminiDeltas,
	}
}

// geminiModel reads Gemini CLI's model: -m/--model, then $GEMINI_MODEL,
// then the settings files, system ($GEMINI_CLI_SYSTEM_SETTINGS_PATH, else
// /etc/gemini-cli/settings.json), the workspace's .gemini/settings.json,
// then ~/.gemini/settings.json: `model.name`, or the older string
// `model`.
func geminiModel(l Launch) (Model, error) {
	if m, ok := fromFlag(l.Args, "-m", "--model"); ok {
		return m, nil
	}
	if m, ok := fromEnv(l, "GEMINI_MODEL"); ok {
		return m, nil
	}
	file := func(path string) func() (Model, error) {
		return func() (Model, error) { return jsonModel(l, path, "model.name", "model") }
	}
	sys := l.getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
	if sys == "" {
		sys = "/etc/gemini-cli/settings.json"
	}
	layers := []func() (Model, error){file(sys)}
	if l.Dir != "" {
		layers = append(layers, file(filepath.Join(l.Dir, ".gemini", "settings.json")))
	}
	if l.home() != "" {
		layers = append(layers, file(filepath.Join(l.home(), ".gemini", "settings.json")))
	}
	return firstOf(layers...)
}

// geminiDeltas recognises Gemini CLI's message lines with "delta":true.
func geminiDeltas(b []byte, obj jsonVal, typ string) (string, jsonVal, bool) {
	if typ == "message" && obj.member(b, "delta").is(b, "true") {
		return "message:" + obj.str(b, "role"), obj.member(b, "content"), true
	}
	return "", jsonVal{}, false
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
		return UpDirs(path, 4)
	}
	return UpDirs(path, 3)
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
