package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// opencodeHarness is opencode.
func opencodeHarness() Harness {
	return Harness{
		Kind:    OpenCode,
		Parser:  opencodeParser{},
		History: opencodeHistory(),
		CLI:     CLI{Binary: "opencode", Sub: "run", Stream: []string{"--format", "json"}},
		Model:   opencodeModel,
		// opencode 1.18.33: opencode run -s, --session <id> [message..].
		Resume: &Resume{ID: regexp.MustCompile(`^ses_[0-9A-Za-z]{8,64}$`),
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
func opencodeModel(l Launch) (Model, error) {
	if m, ok := fromFlag(l.Args, "-m", "--model"); ok {
		return m, nil
	}
	var layers []func() (Model, error)
	file := func(path string) func() (Model, error) {
		return func() (Model, error) { return jsonModel(l, path, "model") }
	}
	if c := l.getenv("OPENCODE_CONFIG_CONTENT"); strings.TrimSpace(c) != "" {
		layers = append(layers, func() (Model, error) {
			name, err := modelKey([]byte(c), "model")
			if err != nil {
				return Model{}, fmt.Errorf("$OPENCODE_CONFIG_CONTENT: %w", err)
			}
			return Model{Name: name, Source: "$OPENCODE_CONFIG_CONTENT"}, nil
		})
	}
	for _, dir := range projectDirs(l.Dir) {
		for _, name := range []string{".opencode/opencode.jsonc", ".opencode/opencode.json", "opencode.jsonc", "opencode.json"} {
			layers = append(layers, file(filepath.Join(dir, filepath.FromSlash(name))))
		}
	}
	if p := l.getenv("OPENCODE_CONFIG"); p != "" {
		layers = append(layers, file(p))
	}
	cfg := l.getenv("XDG_CONFIG_HOME")
	if cfg == "" && l.home() != "" {
		cfg = filepath.Join(l.home(), ".config")
	}
	if cfg != "" {
		for _, name := range []string{"opencode.jsonc", "opencode.json", "config.json"} {
			layers = append(layers, file(filepath.Join(cfg, "opencode", name)))
		}
	}
	return firstOf(layers...)
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
