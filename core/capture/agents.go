package capture

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentsift/sift/core/agents"
)

// Mode says how an agent's stdout is captured.
type Mode uint8

// The capture modes.
const (
	// Plaintext captures stdout and stderr verbatim (redacted), line by
	// line.
	Plaintext Mode = iota
	// Structured captures stdout JSON lines (redacted, still JSON) and
	// wraps stderr lines in sift.stderr envelopes.
	Structured
)

// String names the mode.
func (m Mode) String() string {
	if m == Structured {
		return "structured"
	}
	return "plaintext"
}

// probe says how an agent's streaming mode is decided.
type probe uint8

const (
	always     probe = iota // the flags are known to work
	never                   // no structured mode: plaintext
	probeHelp               // gemini: --help must advertise the flags
	probeTwice              // agy: --help, then a trivial run, cached per version
)

// CLI describes how one agent CLI is launched with its streaming flags.
type CLI struct {
	// Kind is the harness.
	Kind agents.Kind
	// Binary is the default executable name, looked up on PATH.
	Binary string
	// Sub is a subcommand the non-interactive mode needs (codex exec,
	// opencode run, droid exec); it is kept when capture is disabled.
	Sub string
	// Stream are the flags that make the CLI print its JSON stream.
	Stream []string
	probe  probe
}

// CLIs returns every agent CLI sift can launch, by kind. The flags follow
// testdata/streams/FORMATS.md.
func CLIs() map[agents.Kind]CLI {
	list := []CLI{
		{Kind: agents.Claude, Binary: "claude", Stream: []string{"--print", "--output-format", "stream-json", "--verbose"}},
		{Kind: agents.Codex, Binary: "codex", Sub: "exec", Stream: []string{"--json"}},
		{Kind: agents.Cursor, Binary: "cursor-agent", Stream: []string{"--print", "--output-format", "stream-json", "--stream-partial-output"}},
		{Kind: agents.Gemini, Binary: "gemini", Stream: []string{"--output-format", "stream-json"}, probe: probeHelp},
		{Kind: agents.Antigravity, Binary: "agy", Stream: []string{"--print", "--output-format", "stream-json"}, probe: probeTwice},
		{Kind: agents.OpenCode, Binary: "opencode", Sub: "run", Stream: []string{"--format", "json"}},
		{Kind: agents.Copilot, Binary: "copilot", probe: never},
		{Kind: agents.Qwen, Binary: "qwen", Stream: []string{"--output-format", "stream-json"}},
		{Kind: agents.Kimi, Binary: "kimi", Stream: []string{"--print", "--output-format", "stream-json"}},
		{Kind: agents.Droid, Binary: "droid", Sub: "exec", Stream: []string{"--output-format", "stream-json"}},
	}
	m := make(map[agents.Kind]CLI, len(list))
	for _, c := range list {
		m[c.Kind] = c
	}
	return m
}

// LookupCLI returns the CLI for a kind or its binary name (cursor-agent,
// agy).
func LookupCLI(name string) (CLI, error) {
	k := agents.Kind(strings.ToLower(name))
	switch k {
	case "cursor-agent":
		k = agents.Cursor
	case "agy":
		k = agents.Antigravity
	}
	all := CLIs()
	c, ok := all[k]
	if !ok {
		kinds := make([]string, 0, len(all))
		for k := range all {
			kinds = append(kinds, string(k))
		}
		slices.Sort(kinds)
		return CLI{}, fmt.Errorf("%w %q (known: %s)", agents.ErrUnknownAgent, name, strings.Join(kinds, ", "))
	}
	return c, nil
}

// Argv returns the arguments after the binary: the subcommand (unless the
// user already gave it), then, for structured capture, the stream flags
// the user did not already pass, then the user's arguments.
func (c CLI) Argv(mode Mode, user []string) []string {
	var out []string
	if c.Sub != "" {
		out = append(out, c.Sub)
		if len(user) > 0 && user[0] == c.Sub {
			user = user[1:]
		}
	}
	if mode == Structured {
		out = append(out, missingFlags(c.Stream, user)...)
	}
	return append(out, user...)
}

// missingFlags drops from flags each flag (with its value) that user
// already passes, as `--flag`, `--flag value` or `--flag=value`.
func missingFlags(flags, user []string) []string {
	var out []string
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		hasValue := i+1 < len(flags) && !strings.HasPrefix(flags[i+1], "-")
		if passes(user, f) {
			if hasValue {
				i++
			}
			continue
		}
		out = append(out, f)
		if hasValue {
			out = append(out, flags[i+1])
			i++
		}
	}
	return out
}

// passes reports whether user passes flag, before any `--`.
func passes(user []string, flag string) bool {
	for _, a := range user {
		if a == "--" {
			return false
		}
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}
