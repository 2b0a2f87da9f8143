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

// CLI is how one agent CLI is launched with its streaming flags: its
// harness's entry (agents.Harness.CLI).
type CLI struct {
	// Kind is the harness.
	Kind agents.Kind
	agents.CLI
}

// CLIs returns every agent CLI sift can launch, by kind.
func CLIs() map[agents.Kind]CLI {
	hs := agents.Harnesses()
	m := make(map[agents.Kind]CLI, len(hs))
	for _, h := range hs {
		if h.CLI.Binary != "" {
			m[h.Kind] = CLI{Kind: h.Kind, CLI: h.CLI}
		}
	}
	return m
}

// LookupCLI returns the CLI for a kind or its binary name (cursor-agent,
// agy).
func LookupCLI(name string) (CLI, error) {
	all := CLIs()
	c, ok := all[agents.Kind(strings.ToLower(name))]
	if !ok {
		c, ok = byBinary(all, strings.ToLower(name))
	}
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

// byBinary returns the CLI whose binary is named bin.
func byBinary(all map[agents.Kind]CLI, bin string) (CLI, bool) {
	for _, c := range all {
		if c.Binary == bin {
			return c, true
		}
	}
	return CLI{}, false
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
