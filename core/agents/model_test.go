package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write puts files (path → content, relative to root) under root.
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestInvocationModel pins each CLI's order: flag, environment, then its
// configuration files, in the shapes the CLIs document and write.
func TestInvocationModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		kind  Kind
		args  []string
		env   []string
		files map[string]string // under a temp root holding home/ and work/
		want  Model
	}{
		{"codex -m wins over config", Codex, []string{"exec", "-m", "gpt-5.1", "fix it"}, nil,
			map[string]string{"home/.codex/config.toml": `model = "gpt-5"`}, Model{"gpt-5.1", "-m"}},
		{"codex --model=", Codex, []string{"--model=o3", "hi"}, nil, nil, Model{"o3", "--model"}},
		{"codex -c model override is TOML", Codex, []string{"-c", `model="o4-mini"`, "hi"}, nil,
			map[string]string{"home/.codex/config.toml": `model = "gpt-5"`}, Model{"o4-mini", "-c model=…"}},
		{"codex -c model override raw", Codex, []string{"--config", "model=gpt-5-codex"}, nil, nil,
			Model{"gpt-5-codex", "--config model=…"}},
		{"codex config.toml", Codex, []string{"hi"}, nil,
			map[string]string{"home/.codex/config.toml": "# mine\nmodel = \"gpt-5\"\nmodel_provider = \"openai\"\n\n[model_providers.mock]\nbase_url = \"http://127.0.0.1:1/v1\"\n"},
			Model{"gpt-5", "~/.codex/config.toml"}},
		{"codex $CODEX_HOME", Codex, []string{"hi"}, []string{"CODEX_HOME=ROOT/ch"},
			map[string]string{"ch/config.toml": `model = 'gpt-5-mini'`, "home/.codex/config.toml": `model = "gpt-5"`},
			Model{"gpt-5-mini", "ROOT/ch/config.toml"}},
		{"codex profile key selects a table", Codex, nil, nil,
			map[string]string{"home/.codex/config.toml": "model = \"gpt-5\"\nprofile = \"deep\"\n[profiles.deep]\nmodel = \"o3\"\n"},
			Model{"o3", "~/.codex/config.toml [profiles.deep]"}},
		{"codex -p layers NAME.config.toml", Codex, []string{"-p", "fast"}, nil,
			map[string]string{"home/.codex/fast.config.toml": `model = "gpt-5-nano"`, "home/.codex/config.toml": `model = "gpt-5"`},
			Model{"gpt-5-nano", "~/.codex/fast.config.toml"}},
		{"codex no model anywhere", Codex, []string{"hi"}, nil,
			map[string]string{"home/.codex/config.toml": `approval_policy = "never"`}, Model{}},
		{"codex flags after -- are the prompt", Codex, []string{"--", "-m", "x"}, nil, nil, Model{}},

		{"claude --model", Claude, []string{"--model", "claude-sonnet-4-5", "--", "hi"}, []string{"ANTHROPIC_MODEL=opus"},
			nil, Model{"claude-sonnet-4-5", "--model"}},
		{"claude $ANTHROPIC_MODEL", Claude, nil, []string{"ANTHROPIC_MODEL=claude-opus-4-5"},
			map[string]string{"home/.claude/settings.json": `{"model": "haiku"}`}, Model{"claude-opus-4-5", "$ANTHROPIC_MODEL"}},
		{"claude project settings over user", Claude, nil, nil,
			map[string]string{"work/.claude/settings.json": `{"model": "claude-sonnet-4-5"}`, "home/.claude/settings.json": `{"model": "haiku"}`},
			Model{"claude-sonnet-4-5", "ROOT/work/.claude/settings.json"}},
		{"claude --settings JSON", Claude, []string{"--settings", `{"model":"claude-haiku-4-5"}`}, nil, nil,
			Model{"claude-haiku-4-5", "--settings"}},
		{"claude user settings", Claude, nil, nil,
			map[string]string{"home/.claude/settings.json": "{\n  // mine\n  \"model\": \"claude-opus-4-1\",\n}\n"},
			Model{"claude-opus-4-1", "~/.claude/settings.json"}},

		{"gemini -m", Gemini, []string{"-m", "gemini-2.5-pro", "-p", "hi"}, nil, nil, Model{"gemini-2.5-pro", "-m"}},
		{"gemini $GEMINI_MODEL", Gemini, nil, []string{"GEMINI_MODEL=gemini-2.5-flash"}, nil,
			Model{"gemini-2.5-flash", "$GEMINI_MODEL"}},
		{"gemini settings model.name", Gemini, nil, nil,
			map[string]string{"home/.gemini/settings.json": `{"security":{"auth":{"selectedType":"gemini-api-key"}},"model":{"name":"gemini-2.5-pro"}}`},
			Model{"gemini-2.5-pro", "~/.gemini/settings.json"}},
		{"gemini older settings model string", Gemini, nil, nil,
			map[string]string{"home/.gemini/settings.json": `{"model":"gemini-2.0-flash"}`}, Model{"gemini-2.0-flash", "~/.gemini/settings.json"}},
		{"gemini workspace over user", Gemini, nil, nil,
			map[string]string{"work/.gemini/settings.json": `{"model":{"name":"gemini-3-pro-preview"}}`, "home/.gemini/settings.json": `{"model":{"name":"gemini-2.5-pro"}}`},
			Model{"gemini-3-pro-preview", "ROOT/work/.gemini/settings.json"}},

		{"opencode -m", OpenCode, []string{"-m", "anthropic/claude-sonnet-4-5", "hi"}, nil, nil,
			Model{"anthropic/claude-sonnet-4-5", "-m"}},
		{"opencode project opencode.json", OpenCode, []string{"hi"}, nil,
			map[string]string{"work/opencode.json": `{"$schema":"https://opencode.ai/config.json","model":"openai/gpt-5"}`,
				"home/.config/opencode/opencode.json": `{"model":"anthropic/claude-haiku-4-5"}`},
			Model{"openai/gpt-5", "ROOT/work/opencode.json"}},
		{"opencode global jsonc", OpenCode, nil, nil,
			map[string]string{"home/.config/opencode/opencode.jsonc": "{\n /* default */ \"model\": \"anthropic/claude-haiku-4-5\",\n}"},
			Model{"anthropic/claude-haiku-4-5", "~/.config/opencode/opencode.jsonc"}},
		{"opencode inline content wins", OpenCode, nil, []string{`OPENCODE_CONFIG_CONTENT={"model":"openai/gpt-5-mini"}`},
			map[string]string{"work/opencode.json": `{"model":"openai/gpt-5"}`}, Model{"openai/gpt-5-mini", "$OPENCODE_CONFIG_CONTENT"}},

		{"a harness sift reads no configuration of", Droid, []string{"-m", "x"}, nil, nil, Model{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			write(t, root, tc.files)
			home, work := filepath.Join(root, "home"), filepath.Join(root, "work")
			for _, d := range []string{home, work} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			env := []string{"HOME=" + home, "XDG_CONFIG_HOME=", "GEMINI_CLI_SYSTEM_SETTINGS_PATH=" + filepath.Join(root, "none.json")}
			for _, e := range tc.env {
				env = append(env, strings.ReplaceAll(e, "ROOT", root))
			}
			got, err := InvocationModel(tc.kind, Launch{Args: tc.args, Env: env, Dir: work})
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			want.Source = strings.ReplaceAll(want.Source, "ROOT", root)
			if got != want {
				t.Errorf("InvocationModel = %+v, want %+v", got, want)
			}
		})
	}
}

// TestInvocationModelBadConfig: a configuration file the CLI would refuse
// is an error naming it, not a model guessed from a file after it.
func TestInvocationModelBadConfig(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, root, map[string]string{"home/.codex/config.toml": "model = \n"})
	_, err := InvocationModel(Codex, Launch{Env: []string{"HOME=" + filepath.Join(root, "home")}})
	if err == nil || !strings.Contains(err.Error(), "config.toml") {
		t.Fatalf("err = %v, want one naming config.toml", err)
	}
}
