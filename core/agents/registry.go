package agents

import "fmt"

// registered holds every harness's entry, in sniffing order, as the
// program's init registered them (Register): the entries are read only,
// like the price catalog (pricing.builtin), so that the hot paths that ask
// them (a capture's every line, a summary's every tool call) do not build
// them each time. Those walk it by index: an entry is too large to copy
// for each look.
var registered []Harness

// Register adds harnesses' entries to the registry, in sniffing order
// after those registered before them. core/agents/all registers every
// harness sift knows, one line each, from its init: a program that reads
// streams imports it for its side effect. Register panics on a harness or
// a history whose kind is registered already; it is meant for an init,
// before any reader of the registry runs.
func Register(hs ...Harness) {
	for _, h := range hs {
		for i := range registered {
			if r := &registered[i]; r.Kind == h.Kind || h.History != nil && r.History != nil &&
				r.History.Parser.Kind() == h.History.Parser.Kind() {
				panic(fmt.Sprintf("agents: harness %q registered twice", h.Kind))
			}
		}
		registered = append(registered, h)
	}
}

// table returns the registered entries. With none registered it panics:
// a program that forgot to import core/agents/all would otherwise read
// every stream as unknown, and no history at all.
func table() []Harness {
	if len(registered) == 0 {
		panic(`agents: no harness registered: import _ "github.com/agentsift/sift/core/agents/all"`)
	}
	return registered
}

// defaultParsers lists every harness's parser in sniffing order: the
// stdout streams, then the on-disk history formats, then the parser of
// unknown streams.
func defaultParsers() []Parser {
	hs := Harnesses()
	ps := make([]Parser, 0, 2*len(hs)+1)
	for _, h := range hs {
		if h.Parser != nil {
			ps = append(ps, h.Parser)
		}
	}
	for _, h := range hs {
		if h.History != nil {
			ps = append(ps, h.History.Parser)
		}
	}
	return append(ps, unknownParser{})
}
