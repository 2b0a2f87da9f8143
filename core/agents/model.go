package agents

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Model is the model an agent invocation asked for and where it was read:
// Source is the flag as given ("--model", "-m", "-c model=…"), the
// environment variable ("$GEMINI_MODEL") or the configuration file, with
// the home folder written "~" ("~/.codex/config.toml").
type Model struct {
	Name, Source string
}

// Launch is what an invocation's model is read from, at its start.
type Launch struct {
	// Args are the user's arguments to the CLI (sift run's after --).
	Args []string
	// Env is the agent's environment, KEY=VALUE; a later entry wins.
	Env []string
	// Dir is the agent's working directory, where project settings are
	// looked for; empty: none is read.
	Dir string
}

// Getenv returns the value of an environment variable, the last entry
// naming it.
func (l Launch) Getenv(key string) string {
	for i := len(l.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(l.Env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// Home is the agent's home folder: its $HOME.
func (l Launch) Home() string { return l.Getenv("HOME") }

// Show writes a path for a model's source: under the home folder as ~/….
func (l Launch) Show(path string) string {
	if h := l.Home(); h != "" {
		if rel, err := filepath.Rel(h, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return path
}

// InvocationModel returns the model an invocation of a CLI asks for, in
// the CLI's own order: its arguments, then its environment, then its
// configuration files as they are at this moment (sift run calls it at
// the start). The zero Model means none of them names one: the CLI then
// uses its built-in default, which sift does not guess. An error names a
// configuration file that could not be read; the CLI would refuse it too.
func InvocationModel(kind Kind, l Launch) (Model, error) {
	if h, ok := LookupHarness(kind); ok && h.Model != nil {
		return h.Model(l)
	}
	return Model{}, nil
}

// FlagValue returns the value of the last of the named flags among args,
// as `-m X`, `-m=X`, `--model X` or `--model=X`, and the flag as given;
// arguments after `--` are not flags.
func FlagValue(args []string, names ...string) (value, flag string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		for _, n := range names {
			switch {
			case a == n && i+1 < len(args):
				value, flag = args[i+1], n
				i++
			case strings.HasPrefix(a, n+"="):
				value, flag = a[len(n)+1:], n
			}
		}
	}
	return value, flag
}

// FromFlag returns a model the arguments name.
func FromFlag(args []string, names ...string) (Model, bool) {
	v, f := FlagValue(args, names...)
	if v = strings.TrimSpace(v); v == "" {
		return Model{}, false
	}
	return Model{Name: v, Source: f}, true
}

// FromEnv returns a model an environment variable names.
func FromEnv(l Launch, key string) (Model, bool) {
	if v := strings.TrimSpace(l.Getenv(key)); v != "" {
		return Model{Name: v, Source: "$" + key}, true
	}
	return Model{}, false
}

// ReadConfig reads a configuration file; a missing one is (nil, nil).
func ReadConfig(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, nil
}

// FirstOf returns the first model of the layers that names one, trying
// each in turn: a layer is read only when the ones before it name none.
func FirstOf(layers ...func() (Model, error)) (Model, error) {
	for _, f := range layers {
		m, err := f()
		if err != nil || m.Name != "" {
			return m, err
		}
	}
	return Model{}, nil
}
