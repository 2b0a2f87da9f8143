package agents

import (
	"bytes"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/internal/view"
)

// eventWithContent is an event and its content block in one allocation:
// most events that carry content (message and thought chunks, tool output)
// would otherwise cost two.
type eventWithContent struct {
	ev      event.Event
	content event.Content
}

// withContent makes x a copy of base whose update is u with a copy of
// content c (c itself is not kept: event.Text(s) passed here stays on the
// caller's stack).
func withContent(x *eventWithContent, base *event.Event, u event.Update, c *event.Content) *event.Event {
	x.ev = *base
	x.content = *c
	x.ev.Update = u
	x.ev.Update.Content = &x.content
	return &x.ev
}

// eventPool holds the events of the line being parsed when the parse lends
// its events (Options.Borrow): the receiver keeps none, so once the line is
// done they are all free for the next. Memory then follows the events of
// one line, not of the stream, and the collector has none to trace.
type eventPool struct {
	evs  []*eventWithContent
	used int
	// scribble overwrites the events given back (tests: an event a parser
	// kept past its line, then emitted, shows as garbage).
	scribble bool
}

func (p *eventPool) get() *eventWithContent {
	if p.used == len(p.evs) {
		p.evs = append(p.evs, new(eventWithContent))
	}
	x := p.evs[p.used]
	p.used++
	return x
}

// reset gives every event back; called when a line is done.
func (p *eventPool) reset() {
	for _, x := range p.evs[:p.used] {
		if p.scribble {
			*x = eventWithContent{ev: event.Event{SessionID: "scribbled", Update: event.Update{
				SessionUpdate: "scribbled", Text: "scribbled"}}, content: event.Content{Text: "scribbled"}}
		}
	}
	p.used = 0
}

// Scratch holds what a parse that lends its events (Options.Borrow) reuses
// from line to line: the line's events, and the arrays of its raw values
// and of its decoded texts. A caller that parses stream after stream, one
// at a time (an import's reader), passes the same Scratch to each
// (Options.Scratch), so that a stream of a few lines does not make them
// anew. A Scratch serves one parse at a time; its zero value is ready.
type Scratch struct {
	pool  eventPool
	texts lineTexts
	raws  [rawSets]rawArrays
	// own is what a harness's stream keeps here besides the events and
	// the raw values' arrays (Lender.Own): the Claude-shaped stream's
	// content blocks array (core/agents/claude).
	own any
	// tools is the array an init line's tool names are decoded into, of
	// which the last line wrote toolsUsed.
	tools     []string
	toolsUsed int
	// sniffed remembers the last line sniffed (SniffLine).
	sniffed sniffMemo
}

// sniffMemo is a line the sniffer asked the parsers about, and their
// answer.
type sniffMemo struct {
	reg  *Registry
	line []byte
	kind Kind
}

// maxSniffMemo bounds the line a sniffMemo copies.
const maxSniffMemo = 64 << 10

// SniffLine is Sniff of one line through a Scratch, which remembers the
// last line it sniffed and the kind it found: a reader that sniffs a
// file's first line before it parses the file (to tell an agent's
// history) does not have the parse ask every parser about it again. sc
// may be nil.
func (r *Registry) SniffLine(sc *Scratch, line []byte) Kind {
	if sc == nil {
		return r.Sniff([][]byte{line})
	}
	m := &sc.sniffed
	if m.reg == r && m.line != nil && bytes.Equal(m.line, line) {
		return m.kind
	}
	k := r.Sniff([][]byte{line})
	if len(line) <= maxSniffMemo {
		m.reg, m.line, m.kind = r, append(m.line[:0], line...), k
	}
	return k
}

// LendTools gives a line's tool list the Scratch's array, empty, to
// decode into; keepTools takes it back. Both do nothing unless the events
// are lent.
func (l *Lender) LendTools(tools *[]string) {
	if l.sc != nil && l.sc.tools != nil {
		clear(l.sc.tools[:l.sc.toolsUsed])
		*tools = l.sc.tools[:0]
	}
}

// keepTools: see lendTools.
func (l *Lender) KeepTools(tools []string) {
	if l.sc != nil && tools != nil && cap(tools) <= maxKeptRaw/16 {
		l.sc.tools, l.sc.toolsUsed = tools[:0], len(tools)
	}
}

// The sets of raw values whose arrays a Scratch keeps (rawArrays): the
// fields of one line struct each.
const (
	RawClaudeLine = iota
	RawCodexLine
	RawCodexItem
	RawGeminiLine
	RawDroidLine
	rawSets
)

// line starts a line: the events and texts of the last one are given back.
// In scribble mode the arrays of its texts and raw values are overwritten
// first, so that a view of them kept past the line shows.
func (sc *Scratch) line() {
	if sc.pool.scribble {
		view.Scribble(sc.texts.buf[:cap(sc.texts.buf)])
		for i := range sc.raws {
			for _, b := range sc.raws[i].bufs {
				view.Scribble(b[:cap(b)])
			}
		}
	}
	sc.pool.reset()
	sc.texts.reset()
}

// Lender makes the events a stream emits: from the parse's Scratch when
// the parse lends its events, else new ones, the receiver's to keep. A
// stream embeds it; the driver gives it the Scratch. An event a stream
// holds past the line it was made of must not come from here.
type Lender struct{ sc *Scratch }

func (l *Lender) lendFrom(sc *Scratch) { l.sc = sc }

// Lends reports whether the events are lent (Options.Borrow).
func (l *Lender) Lends() bool { return l.sc != nil }

// Own returns the Scratch's slot for what a harness's stream reuses from
// line to line and stream to stream besides the events and the raw values'
// arrays; nil when the events are not lent.
func (l *Lender) Own() *any {
	if l.sc == nil {
		return nil
	}
	return &l.sc.own
}

// Event returns a copy of e to emit.
func (l *Lender) Event(e *event.Event) *event.Event {
	if l.sc == nil {
		x := new(event.Event)
		*x = *e
		return x
	}
	x := &l.sc.pool.get().ev
	*x = *e
	return x
}

// ContentEvent returns a copy of base whose update is u with content c,
// the two in one allocation, or one slot of the pool.
func (l *Lender) ContentEvent(base *event.Event, u event.Update, c *event.Content) *event.Event {
	if l.sc == nil {
		return withContent(new(eventWithContent), base, u, c)
	}
	return withContent(l.sc.pool.get(), base, u, c)
}

// ContentSlot returns a zero event and content block to fill, the content
// not yet attached.
func (l *Lender) ContentSlot() (*event.Event, *event.Content) {
	if l.sc == nil {
		x := new(eventWithContent)
		return &x.ev, &x.content
	}
	x := l.sc.pool.get()
	*x = eventWithContent{}
	return &x.ev, &x.content
}

// BoxedWord returns s as an interface value without an allocation for the
// words harnesses repeat on many lines (stop reasons, severities), which
// are boxed from constants; any other string is boxed as it is.
func BoxedWord(s string) any {
	switch s {
	case "end_turn":
		return "end_turn"
	case "tool_use":
		return "tool_use"
	case "max_tokens":
		return "max_tokens"
	case "stop_sequence":
		return "stop_sequence"
	case "pause_turn":
		return "pause_turn"
	case "refusal":
		return "refusal"
	}
	return s
}

// Held returns an event a stream fills and holds past its line, to emit
// once later: when the events are lent, the stream's own slot (the
// receiver keeps none, and the stream holds one such event at a time),
// else a new one, the receiver's to keep.
func (l *Lender) Held(slot *event.Event) *event.Event {
	if l.sc == nil {
		return new(event.Event)
	}
	*slot = event.Event{}
	return slot
}

// Blank returns a zero event to fill and emit during this line.
func (l *Lender) Blank() *event.Event {
	if l.sc == nil {
		return new(event.Event)
	}
	x := &l.sc.pool.get().ev
	*x = event.Event{}
	return x
}

// maxKeptRaw bounds an array rawArrays keeps from line to line: a larger
// one (a line of a huge tool output) is left to the collector, so that a
// stream does not hold its largest value's size for the rest of the file.
const maxKeptRaw = 1 << 20

// rawArrays keeps, when the events are lent, the arrays a stream's lines'
// raw JSON values were decoded into, to decode the next line's into. A
// json.RawMessage decodes by appending to its own array, so a field that
// starts the line as an empty slice of one costs no allocation; the value
// is then only valid until the next line, as lent events are. When the
// events are handed over the fields stay nil, and each value is a new
// copy the receiver may keep.
type rawArrays struct{ bufs []json.RawMessage }

// LendRaw gives each field of a set, in order, its array from the last
// line, empty; keepRaw takes the arrays back, as decoded, once the line is
// decoded. Both do nothing unless the events are lent.
func (l *Lender) LendRaw(set int, fields ...*json.RawMessage) {
	if l.sc == nil {
		return
	}
	r := &l.sc.raws[set]
	for i, f := range fields {
		if i < len(r.bufs) {
			*f = r.bufs[i][:0]
		}
	}
}

// keepRaw: see lendRaw.
func (l *Lender) KeepRaw(set int, fields ...*json.RawMessage) {
	if l.sc == nil {
		return
	}
	r := &l.sc.raws[set]
	for len(r.bufs) < len(fields) {
		r.bufs = append(r.bufs, nil)
	}
	for i, f := range fields {
		r.bufs[i] = Emptied(*f)
	}
}

// Emptied returns raw's array, empty, to decode another value into; nil
// for an array past maxKeptRaw.
func Emptied(raw json.RawMessage) json.RawMessage {
	if cap(raw) > maxKeptRaw {
		return nil
	}
	return raw[:0]
}

// KeptText is a text a stream keeps past the line it came from (the last
// message, which a result line repeats), in an array of its own that the
// next text reuses.
type KeptText []byte

// Set keeps a copy of s.
func (k *KeptText) Set(s string) { *k = append((*k)[:0], s...) }

// Text returns the text for an event: a view of the array when the events
// are lent (Set, which overwrites it, comes on a later line, and the
// receiver copies what it keeps), else a copy.
func (k KeptText) Text(l *Lender) string {
	if l.sc != nil && len(k) > 0 {
		return view.String(k)
	}
	return string(k)
}

// Counters returns an empty map for an event's UsageExtra, Extras one
// for its Extra (lentMap).
func (l *Lender) Counters(keep *map[string]int64) map[string]int64 { return lentMap(l, keep) }

func (l *Lender) Extras(keep *map[string]any) map[string]any { return lentMap(l, keep) }

// lentMap returns an empty map for an event: when the events are lent,
// *keep, the stream's own, cleared (the receiver keeps none, and a stream
// emits one such map per line), else a new one.
func lentMap[V any](l *Lender, keep *map[string]V) map[string]V {
	if l.sc == nil {
		return map[string]V{}
	}
	if *keep == nil {
		*keep = map[string]V{}
	}
	clear(*keep)
	return *keep
}

// OneExtra returns an Extra of one key: when the events are lent, *keep,
// the stream's own, which only ever holds that key, shared by the events
// of a line that say the same; else a new map.
func (l *Lender) OneExtra(keep *map[string]any, key string, v any) map[string]any {
	if l.sc == nil {
		return map[string]any{key: v}
	}
	if *keep == nil {
		*keep = map[string]any{}
	}
	(*keep)[key] = v
	return *keep
}
