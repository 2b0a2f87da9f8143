package claude

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentsift/sift/core/agents"
)

// Harness is Claude Code.
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Claude,
		Parser: Parser{Agent: agents.Claude},
		History: &agents.History{
			Parser: claudeHistoryParser{},
			Dirs:   claudeHistoryDirs, Session: claudeSession, Root: claudeHistoryRoot,
			SubagentParents: true,
		},
		CLI:   agents.CLI{Binary: "claude", Stream: []string{"--print", "--output-format", "stream-json", "--verbose"}},
		Model: claudeModel,
		// claude 2.1.332: -r, --resume <session-id>; -p, --print.
		Resume: &agents.Resume{ID: agents.UUIDID(),
			Args:   func(id string) []string { return []string{"--resume", id} },
			Prompt: func(id, p string) []string { return []string{"--resume", id, "-p", "--", p} }},
		EditTools: []string{"Edit", "MultiEdit", "Write"},
		RunTotal:  "result line",
		Deltas:    claudeDeltas,
	}
}

// claudeModel reads Claude Code's model, in its documented order:
// --model, then $ANTHROPIC_MODEL, then the settings files' `model` key:
// managed settings, --settings (a file or a JSON text), the project's
// .claude/settings.local.json and .claude/settings.json, then the user's
// ($CLAUDE_CONFIG_DIR, else ~/.claude)/settings.json.
func claudeModel(l agents.Launch) (agents.Model, error) {
	if m, ok := agents.FromFlag(l.Args, "--model"); ok {
		return m, nil
	}
	if m, ok := agents.FromEnv(l, "ANTHROPIC_MODEL"); ok {
		return m, nil
	}
	var layers []func() (agents.Model, error)
	file := func(path string) func() (agents.Model, error) {
		return func() (agents.Model, error) { return agents.JSONModel(l, path, "model") }
	}
	layers = append(layers, file("/etc/claude-code/managed-settings.json"))
	if s, _ := agents.FlagValue(l.Args, "--settings"); s != "" {
		if strings.HasPrefix(strings.TrimSpace(s), "{") {
			layers = append(layers, func() (agents.Model, error) {
				name, err := agents.ModelKey([]byte(s), "model")
				if err != nil {
					return agents.Model{}, fmt.Errorf("--settings: %w", err)
				}
				return agents.Model{Name: name, Source: "--settings"}, nil
			})
		} else {
			layers = append(layers, file(s))
		}
	}
	if l.Dir != "" {
		layers = append(layers, file(filepath.Join(l.Dir, ".claude", "settings.local.json")),
			file(filepath.Join(l.Dir, ".claude", "settings.json")))
	}
	user := l.Getenv("CLAUDE_CONFIG_DIR")
	if user == "" && l.Home() != "" {
		user = filepath.Join(l.Home(), ".claude")
	}
	if user != "" {
		layers = append(layers, file(filepath.Join(user, "settings.json")))
	}
	return agents.FirstOf(layers...)
}

// claudeDeltas recognises Claude Code's stream_event content_block_delta
// lines (--include-partial-messages): text, thinking and a tool input's
// JSON, each block by its index.
func claudeDeltas(b []byte, obj agents.JSONVal, typ string) (string, agents.JSONVal, bool) {
	if typ != "stream_event" {
		return "", agents.JSONVal{}, false
	}
	ev := obj.Member(b, "event")
	if ev.Str(b, "type") == "content_block_delta" {
		delta := ev.Member(b, "delta")
		index := string(ev.Member(b, "index").Raw(b))
		switch delta.Str(b, "type") {
		case "text_delta":
			return "claude:text:" + index, delta.Member(b, "text"), true
		case "thinking_delta":
			return "claude:thinking:" + index, delta.Member(b, "thinking"), true
		case "input_json_delta":
			return "claude:input:" + index, delta.Member(b, "partial_json"), true
		}
	}
	return "", agents.JSONVal{}, false
}

// claudeHistoryDirs are the folders Claude Code keeps its sessions in:
// <dir>/projects of every folder of CLAUDE_CONFIG_DIR (comma-separated, as
// ccusage reads it), else of ~/.config/claude ($XDG_CONFIG_HOME/claude)
// and ~/.claude.
func claudeHistoryDirs(getenv func(string) string, home string) []string {
	if v := getenv("CLAUDE_CONFIG_DIR"); strings.TrimSpace(v) != "" {
		var dirs []string
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d != "" {
				dirs = append(dirs, filepath.Join(d, "projects"))
			}
		}
		return dirs
	}
	if home == "" {
		return nil
	}
	xdg := getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	return []string{filepath.Join(xdg, "claude", "projects"), filepath.Join(home, ".claude", "projects")}
}

// claudeSession names a Claude Code session file:
// <project>/<session>.jsonl, <project>/<session>/subagents/agent-<id>.jsonl,
// and transcripts in deeper folders of a project (as ccusage globs
// projects/**/*.jsonl), named by their path in the project.
func claudeSession(parts []string) (workItem, name string, ok bool) {
	name = parts[len(parts)-1]
	if !strings.HasSuffix(name, ".jsonl") || len(parts) < 2 {
		return "", name, false
	}
	if len(parts) == 4 && parts[2] == "subagents" {
		name = parts[1] + "." + name
	} else if len(parts) > 2 {
		name = strings.Join(parts[1:], ".")
	}
	return parts[0], name, true
}

// claudeHistoryRoot is the projects folder a transcript is in: two
// folders up, four from a subagent's.
func claudeHistoryRoot(path string) string {
	if filepath.Base(filepath.Dir(path)) == "subagents" {
		return agents.UpDirs(path, 4)
	}
	return agents.UpDirs(path, 2)
}
