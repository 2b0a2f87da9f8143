package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentsift/sift/core/agents"
)

// Harness is opencode.
func Harness() agents.Harness {
	return agents.Harness{
		Kind:    agents.OpenCode,
		Parser:  opencodeParser{},
		History: opencodeHistory(),
		CLI:     agents.CLI{Binary: "opencode", Sub: "run", Stream: []string{"--format", "json"}},
		Model:   opencodeModel,
		// opencode 1.18.33: opencode run -s, --session <id> [message..].
		Resume: &agents.Resume{ID: regexp.MustCompile(`^ses_[0-9A-Za-z]{8,64}$`),
			Args:   func(id string) []string { return []string{"--session", id} },
			Prompt: func(id, p string) []string { return []string{"run", "--session", id, "--", p} }},
	}
}

// opencodeModel reads opencode's model (provider/model): -m/--model,
// then the configuration's `model`, latest layer first as opencode
// merges them: $OPENCODE_CONFIG_CONTENT, the project's
// .opencode/opencode.json(c) and opencode.json(c) (from the working
// folder up to its git root, the nearest first), $OPENCODE_CONFIG, then
// the global ($XDG_CONFIG_HOME, else ~/.config)/opencode/opencode.json,
// opencode.jsonc or config.json.
func opencodeModel(l agents.Launch) (agents.Model, error) {
	if m, ok := agents.FromFlag(l.Args, "-m", "--model"); ok {
		return m, nil
	}
	var layers []func() (agents.Model, error)
	file := func(path string) func() (agents.Model, error) {
		return func() (agents.Model, error) { return agents.JSONModel(l, path, "model") }
	}
	if c := l.Getenv("OPENCODE_CONFIG_CONTENT"); strings.TrimSpace(c) != "" {
		layers = append(layers, func() (agents.Model, error) {
			name, err := agents.ModelKey([]byte(c), "model")
			if err != nil {
				return agents.Model{}, fmt.Errorf("$OPENCODE_CONFIG_CONTENT: %w", err)
			}
			return agents.Model{Name: name, Source: "$OPENCODE_CONFIG_CONTENT"}, nil
		})
	}
	for _, dir := range projectDirs(l.Dir) {
		for _, name := range []string{".opencode/opencode.jsonc", ".opencode/opencode.json", "opencode.jsonc", "opencode.json"} {
			layers = append(layers, file(filepath.Join(dir, filepath.FromSlash(name))))
		}
	}
	if p := l.Getenv("OPENCODE_CONFIG"); p != "" {
		layers = append(layers, file(p))
	}
	cfg := l.Getenv("XDG_CONFIG_HOME")
	if cfg == "" && l.Home() != "" {
		cfg = filepath.Join(l.Home(), ".config")
	}
	if cfg != "" {
		for _, name := range []string{"opencode.jsonc", "opencode.json", "config.json"} {
			layers = append(layers, file(filepath.Join(cfg, "opencode", name)))
		}
	}
	return agents.FirstOf(layers...)
}

// projectDirs lists dir and its parents up to the first that holds a .git
// (opencode's project root), nearest first; only dir when none does.
func projectDirs(dir string) []string {
	if dir == "" {
		return nil
	}
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		out = append(out, d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return out
		}
		if filepath.Dir(d) == d {
			return out[:1]
		}
	}
}
