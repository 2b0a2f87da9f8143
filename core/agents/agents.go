// Package agents is everything sift knows about each coding-agent CLI (a
// harness), each in its own folder. Its parsers turn the stdout stream
// of a CLI into sift's normalized events: one parser per harness, a
// registry of them in sniffing order, and a driver (Parse) that reads lines
// with bounded memory, strips sandbox prefixes, recognises sift's own
// envelope lines and keeps every line it cannot read as a raw event. Its
// entries (Harness) say the rest: how sift run launches the CLI, the model
// an invocation asks for, how it resumes a session, the tools it edits
// with, where it prints its run total, its delta lines and its history.
//
// Each harness is its own folder, core/agents/<harness> (claude, codex,
// pi, …): its parsers, stream and on-disk history, and its entry
// (Harness()); core/agents/all registers every entry (Register), and this
// package knows none of them. It holds what they share: the kinds, the
// model, the driver, and helpers that more than one wire format needs
// (wire.go). A new harness is a folder with a Parser (its Kind, the lines
// it Claims when sniffing, its Stream, and whether it EndsWithResult) and
// its entry, one line in core/agents/all, and recorded streams under
// testdata/streams/<kind> with their event goldens. The summary learns
// nothing of it but what the events, the parse's event.Stats and its entry
// say.
package agents

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/event"
)

// Kind names a harness (agent CLI).
type Kind string

// The harnesses sift knows.
const (
	Antigravity Kind = "antigravity"
	Claude      Kind = "claude"
	Codex       Kind = "codex"
	Copilot     Kind = "copilot"
	Cursor      Kind = "cursor"
	Droid       Kind = "droid"
	Gemini      Kind = "gemini"
	Kimi        Kind = "kimi"
	OpenCode    Kind = "opencode"
	Qwen        Kind = "qwen"
	Unknown     Kind = "unknown"
)

// Harness returns the agent CLI a kind's stream comes from: a history
// format's harness is the CLI that wrote it ("claude-history" → claude).
func (k Kind) Harness() Kind {
	if h, ok := strings.CutSuffix(string(k), "-history"); ok {
		return Kind(h)
	}
	return k
}

// ErrUnknownAgent is returned for an agent kind sift has no parser for.
var ErrUnknownAgent = errors.New("unknown agent")

// Emit receives one event. The parser hands over ownership: the receiver may
// keep the pointer (unless the parse lends its events, Options.Borrow).
type Emit func(*event.Event)

// Line is one line of a stream as a parser sees it: the bytes without the
// line ending and without any non-JSON prefix, its 1-based number and the
// byte offset of its start in the file. Bytes is only valid during the call.
type Line struct {
	Bytes  []byte
	No     int
	Offset int64
}

// Parser is one harness's wire format.
type Parser interface {
	// Kind is the harness this parser reads.
	Kind() Kind
	// Claims reports whether a JSON line has this harness's distinctive
	// shape. Parsers whose shape is another's claim nothing.
	Claims(line []byte) bool
	// NewStream returns the state for reading one stream.
	NewStream() Stream
	// EndsWithResult reports whether the harness ends every finished
	// stream with a result line, so that a structured stream of it
	// without one did not finish (Stats.EndsWithResult). Harnesses whose
	// streams may end without one (opencode prints none) and the on-disk
	// histories say false.
	EndsWithResult() bool
}

// Stream reads the lines of one stream in order.
type Stream interface {
	// Line emits the events of one line and reports whether it understood
	// it. The driver turns a line that was not understood into a raw event.
	// Line, Offset and (when unset) the session id of each emitted event
	// are filled by the driver.
	Line(l Line, emit Emit) bool
	// Finish is called once after the last line.
	Finish(emit Emit)
}

// Registry holds the parsers in sniffing order.
type Registry struct {
	parsers []Parser
	byKind  map[Kind]Parser
}

// NewRegistry returns a registry of the given parsers, asked in that order
// when sniffing.
func NewRegistry(parsers ...Parser) *Registry {
	r := &Registry{byKind: make(map[Kind]Parser, len(parsers))}
	for _, p := range parsers {
		r.parsers = append(r.parsers, p)
		r.byKind[p.Kind()] = p
	}
	return r
}

// Default returns the registry of every harness sift reads, in the sniffing
// order they were registered in (core/agents/all): the stdout streams (antigravity, claude, codex,
// copilot, cursor, droid, gemini, kimi, opencode, pi, qwen), the on-disk
// histories, then unknown.
func Default() *Registry {
	return NewRegistry(defaultParsers()...)
}

// Lookup returns the parser for a kind.
func (r *Registry) Lookup(k Kind) (Parser, error) {
	p, ok := r.byKind[k]
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknownAgent, k, r.Kinds())
	}
	return p, nil
}

// Kinds lists the registered kinds in sniffing order.
func (r *Registry) Kinds() []Kind {
	ks := make([]Kind, len(r.parsers))
	for i, p := range r.parsers {
		ks[i] = p.Kind()
	}
	return ks
}

// Sniff returns the kind of the first parser that claims a line, asking
// each line in turn; Unknown when none does.
func (r *Registry) Sniff(lines [][]byte) Kind {
	for _, l := range lines {
		for _, p := range r.parsers {
			if p.Claims(l) {
				return p.Kind()
			}
		}
	}
	return Unknown
}
