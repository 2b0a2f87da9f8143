package capture

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/pelletier/go-toml/v2"
)

// codexModel reads Codex's model: -m/--model, then a `-c model=…`
// override (its value is TOML, else the raw string), then the profile's
// (-p NAME: $CODEX_HOME/NAME.config.toml as codex 0.171 layers it, else
// the older [profiles.NAME] table), then config.toml's own `model`, with
// a `profile` key choosing a [profiles.NAME] table first.
// $CODEX_HOME defaults to ~/.codex.
func codexModel(l Launch) (Model, error) {
	if m, ok := fromFlag(l.Args, "-m", "--model"); ok {
		return m, nil
	}
	if m, ok := codexOverride(l.Args); ok {
		return m, nil
	}
	home := l.getenv("CODEX_HOME")
	if home == "" {
		if l.home() == "" {
			return Model{}, nil
		}
		home = filepath.Join(l.home(), ".codex")
	}
	profile, _ := flagValue(l.Args, "-p", "--profile")
	base := filepath.Join(home, "config.toml")
	var cfg codexConfig
	return firstOf(
		func() (Model, error) {
			if profile == "" {
				return Model{}, nil
			}
			path := filepath.Join(home, profile+".config.toml")
			var p codexConfig
			err := readTOML(path, &p)
			return Model{Name: p.Model, Source: l.show(path)}, err
		},
		func() (Model, error) {
			if err := readTOML(base, &cfg); err != nil {
				return Model{}, err
			}
			if profile == "" {
				profile = cfg.Profile
			}
			if p, ok := cfg.Profiles[profile]; ok && p.Model != "" {
				return Model{Name: p.Model, Source: l.show(base) + " [profiles." + profile + "]"}, nil
			}
			return Model{Name: cfg.Model, Source: l.show(base)}, nil
		},
	)
}

// codexConfig is what sift reads of a Codex config.toml.
type codexConfig struct {
	Model    string `toml:"model"`
	Profile  string `toml:"profile"`
	Profiles map[string]struct {
		Model string `toml:"model"`
	} `toml:"profiles"`
}

// codexOverride reads the last `-c model=VALUE` (or --config) override.
func codexOverride(args []string) (Model, bool) {
	var m Model
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		var kv, flag string
		switch {
		case (a == "-c" || a == "--config") && i+1 < len(args):
			kv, flag = args[i+1], a
			i++
		case strings.HasPrefix(a, "--config="):
			kv, flag = a[len("--config="):], "--config"
		default:
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) != "model" {
			continue
		}
		// Codex parses the value as TOML, else takes it as it is.
		var doc struct {
			V string `toml:"v"`
		}
		if err := toml.Unmarshal([]byte("v = "+v), &doc); err == nil {
			v = doc.V
		}
		if v = strings.TrimSpace(v); v != "" {
			m = Model{Name: v, Source: flag + " model=…"}
		}
	}
	return m, m.Name != ""
}

// readTOML reads a TOML file into v; a missing file leaves v as it is.
func readTOML(path string, v any) error {
	b, err := readConfig(path)
	if err != nil || b == nil {
		return err
	}
	if err := toml.Unmarshal(b, v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// claudeModel reads Claude Code's model, in its documented order:
// --model, then $ANTHROPIC_MODEL, then the settings files' `model` key:
// managed settings, --settings (a file or a JSON text), the project's
// .claude/settings.local.json and .claude/settings.json, then the user's
// ($CLAUDE_CONFIG_DIR, else ~/.claude)/settings.json.
func claudeModel(l Launch) (Model, error) {
	if m, ok := fromFlag(l.Args, "--model"); ok {
		return m, nil
	}
	if m, ok := fromEnv(l, "ANTHROPIC_MODEL"); ok {
		return m, nil
	}
	var layers []func() (Model, error)
	file := func(path string) func() (Model, error) {
		return func() (Model, error) { return jsonModel(l, path, "model") }
	}
	layers = append(layers, file("/etc/claude-code/managed-settings.json"))
	if s, _ := flagValue(l.Args, "--settings"); s != "" {
		if strings.HasPrefix(strings.TrimSpace(s), "{") {
			layers = append(layers, func() (Model, error) {
				name, err := modelKey([]byte(s), "model")
				if err != nil {
					return Model{}, fmt.Errorf("--settings: %w", err)
				}
				return Model{Name: name, Source: "--settings"}, nil
			})
		} else {
			layers = append(layers, file(s))
		}
	}
	if l.Dir != "" {
		layers = append(layers, file(filepath.Join(l.Dir, ".claude", "settings.local.json")),
			file(filepath.Join(l.Dir, ".claude", "settings.json")))
	}
	user := l.getenv("CLAUDE_CONFIG_DIR")
	if user == "" && l.home() != "" {
		user = filepath.Join(l.home(), ".claude")
	}
	if user != "" {
		layers = append(layers, file(filepath.Join(user, "settings.json")))
	}
	return firstOf(layers...)
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

// jsonModel reads the first of the keys (dotted paths) that holds a
// string from a JSON (or JSON-with-comments) file; a missing file names
// none.
func jsonModel(l Launch, path string, keys ...string) (Model, error) {
	b, err := readConfig(path)
	if err != nil || b == nil {
		return Model{}, err
	}
	name, err := modelKey(b, keys...)
	if err != nil {
		return Model{}, fmt.Errorf("read %s: %w", path, err)
	}
	return Model{Name: name, Source: l.show(path)}, nil
}

// modelKey returns the first of the keys (dotted paths) whose value is a
// non-empty string in a JSON document, which may carry comments and
// trailing commas (settings files often do).
func modelKey(doc []byte, keys ...string) (string, error) {
	var v map[string]any
	if err := json.Unmarshal(jsonc(doc), &v); err != nil {
		return "", err
	}
	for _, k := range keys {
		var cur any = v
		for _, part := range strings.Split(k, ".") {
			m, ok := cur.(map[string]any)
			if !ok {
				cur = nil
				break
			}
			cur = m[part]
		}
		if s, ok := cur.(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s), nil
		}
	}
	return "", nil
}

// jsonc returns a JSON-with-comments text as JSON: // and /* */ comments
// outside strings become spaces and a comma before a closing bracket is
// dropped.
func jsonc(b []byte) []byte {
	if !bytes.Contains(b, []byte("/")) && !bytes.Contains(b, []byte(",")) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(b))
			out = append(out, b[i:end]...)
			i = end - 1
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 3
			out = append(out, ' ')
		case c == ']' || c == '}':
			k := len(out) - 1
			for k >= 0 && (out[k] == ' ' || out[k] == '\t' || out[k] == '\n' || out[k] == '\r') {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out[k] = ' '
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
