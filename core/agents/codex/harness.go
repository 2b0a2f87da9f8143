package codex

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/agentsift/sift/core/agents"
)

// Harness is OpenAI's Codex CLI.
func Harness() agents.Harness {
	return agents.Harness{
		Kind:   agents.Codex,
		Parser: codexParser{},
		History: &agents.History{
			Parser: codexHistoryParser{},
			Dirs:   codexHistoryDirs, Session: codexSession, Root: codexHistoryRoot,
			ProjectFromCwd: true,
		},
		CLI:   agents.CLI{Binary: "codex", Sub: "exec", Stream: []string{"--json"}},
		Model: codexModel,
		// codex 0.171.0: codex exec resume [SESSION_ID] [PROMPT].
		Resume: &agents.Resume{ID: agents.UUIDID(),
			Args:   func(id string) []string { return []string{"resume", id} },
			Prompt: func(id, p string) []string { return []string{"exec", "resume", id, "--", p} }},
		EditTools: []string{"apply_patch"},
		RunTotal:  "turn.completed",
		Deltas:    codexDeltas,
	}
}

// codexModel reads Codex's model: -m/--model, then a `-c model=…`
// override (its value is TOML, else the raw string), then the profile's
// (-p NAME: $CODEX_HOME/NAME.config.toml as codex 0.171 layers it, else
// the older [profiles.NAME] table), then config.toml's own `model`, with
// a `profile` key choosing a [profiles.NAME] table first.
// $CODEX_HOME defaults to ~/.codex.
func codexModel(l agents.Launch) (agents.Model, error) {
	if m, ok := agents.FromFlag(l.Args, "-m", "--model"); ok {
		return m, nil
	}
	if m, ok := codexOverride(l.Args); ok {
		return m, nil
	}
	home := l.Getenv("CODEX_HOME")
	if home == "" {
		if l.Home() == "" {
			return agents.Model{}, nil
		}
		home = filepath.Join(l.Home(), ".codex")
	}
	profile, _ := agents.FlagValue(l.Args, "-p", "--profile")
	base := filepath.Join(home, "config.toml")
	var cfg codexConfig
	return agents.FirstOf(
		func() (agents.Model, error) {
			if profile == "" {
				return agents.Model{}, nil
			}
			path := filepath.Join(home, profile+".config.toml")
			var p codexConfig
			err := readTOML(path, &p)
			return agents.Model{Name: p.Model, Source: l.Show(path)}, err
		},
		func() (agents.Model, error) {
			if err := readTOML(base, &cfg); err != nil {
				return agents.Model{}, err
			}
			if profile == "" {
				profile = cfg.Profile
			}
			if p, ok := cfg.Profiles[profile]; ok && p.Model != "" {
				return agents.Model{Name: p.Model, Source: l.Show(base) + " [profiles." + profile + "]"}, nil
			}
			return agents.Model{Name: cfg.Model, Source: l.Show(base)}, nil
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
func codexOverride(args []string) (agents.Model, bool) {
	var m agents.Model
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
			m = agents.Model{Name: v, Source: flag + " model=…"}
		}
	}
	return m, m.Name != ""
}

// readTOML reads a TOML file into v; a missing file leaves v as it is.
func readTOML(path string, v any) error {
	b, err := agents.ReadConfig(path)
	if err != nil || b == nil {
		return err
	}
	if err := toml.Unmarshal(b, v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// codexDeltas recognises codex's item.plan.delta lines and the older
// builds' *_delta messages.
func codexDeltas(b []byte, obj agents.JSONVal, typ string) (string, agents.JSONVal, bool) {
	switch typ {
	case "item.plan.delta":
		return "plan", obj.Member(b, "delta"), true
	case "":
		if msg := obj.Member(b, "msg"); msg.OK() {
			switch t := msg.Str(b, "type"); t {
			case "agent_message_delta", "agent_reasoning_delta", "agent_reasoning_raw_content_delta":
				return t, msg.Member(b, "delta"), true
			}
		}
	}
	return "", agents.JSONVal{}, false
}

// codexHistoryDirs is the folder Codex keeps its rollouts in:
// $CODEX_HOME/sessions, else ~/.codex/sessions.
func codexHistoryDirs(getenv func(string) string, home string) []string {
	codex := getenv("CODEX_HOME")
	if codex == "" && home != "" {
		codex = filepath.Join(home, ".codex")
	}
	if codex == "" {
		return nil
	}
	return []string{filepath.Join(codex, "sessions")}
}

// codexSession names a Codex session file: any *.jsonl under sessions, as
// @ccusage/codex and Codex's own session listing find them, not only the
// YYYY/MM/DD/rollout-*.jsonl Codex names its rollouts (a file renamed or
// copied in by hand, an older flat layout). A rollout keeps its name; any
// other file is named by its path under sessions, folders joined by ".",
// so that two "session.jsonl" of different days are two sessions. Its work
// item is its recorded cwd, known only once read; until then it is
// "codex".
func codexSession(parts []string) (workItem, name string, ok bool) {
	name = parts[len(parts)-1]
	if !strings.HasSuffix(name, ".jsonl") {
		return "", name, false
	}
	if !strings.HasPrefix(name, "rollout-") {
		name = strings.Join(parts, ".")
	}
	return "codex", name, true
}

// codexHistoryRoot is the sessions folder a file found by its shape is
// under: the nearest folder named sessions above it (sessions/YYYY/MM/DD),
// else, for a rollout, its own folder. Any other file outside a sessions
// tree (a capture in a logs folder) has none, and keeps its own layout.
func codexHistoryRoot(path string) string {
	for dir, i := filepath.Dir(path), 0; i < 4; dir, i = filepath.Dir(dir), i+1 {
		if filepath.Base(dir) == "sessions" {
			return dir
		}
	}
	if strings.HasPrefix(filepath.Base(path), "rollout-") {
		return agents.UpDirs(path, 1)
	}
	return ""
}
