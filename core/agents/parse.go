package agents

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/internal/view"
)

const (
	// DefaultMaxLine is the longest line kept whole. Memory is bounded by
	// it, not by the file: a longer line is cut and kept as a raw event.
	DefaultMaxLine = 64 << 20
	// MaxRawText is how much of a line a raw event keeps as text.
	MaxRawText = 64 << 10
	// SniffLines is how many JSON lines the sniffer looks at.
	SniffLines = 20
	// sniffWindowLines and sniffWindowBytes bound the window of lines the
	// sniffer holds back, to give them to the harness's parser once it is
	// known. Every line counts, blank, non-JSON and huge ones too. Past the
	// window the lines held are kept as raw events and each further line
	// as it comes, while the sniffer goes on asking the JSON lines: a
	// harness found later reads the rest of the stream. Memory is then
	// bounded by the window and the longest line, never by the file.
	sniffWindowLines = 4096
	sniffWindowBytes = 4 << 20
)

// Options says how to parse a stream.
type Options struct {
	// Agent is the declared harness; it always wins. Empty sniffs.
	Agent Kind
	// MaxLine bounds one line; 0 means DefaultMaxLine.
	MaxLine int
	// Borrow lends each event to emit instead of handing it over: its
	// strings and bytes may point into the line being read, which the next
	// line overwrites, so the receiver must copy whatever it keeps before
	// emit returns. It spares a copy of every event's text for a receiver
	// that only folds events into figures (summary.Builder).
	Borrow bool
	// Redact, when set, is applied to each line before it is parsed: the
	// reader of a stream sift did not capture redacts where the text
	// enters (ingest passes redact.JSONLine), so that every event, and
	// everything made of them, holds redacted text. It returns the line
	// itself when it holds no secret.
	Redact func(line []byte) []byte
	// Scratch, with Borrow, is what the parse reuses from line to line,
	// kept by a caller that parses one stream after another; nil means a
	// Scratch of the parse's own.
	Scratch *Scratch
	// scribble overwrites each line once it is done and, with Borrow,
	// its events and the arrays of its texts (tests: see eventPool).
	scribble bool
	// windowLines and windowBytes, when set, replace the sniff window's
	// bounds (tests: a fuzzer's small inputs then overflow it).
	windowLines, windowBytes int
}

// Stats describes a parsed stream as a whole. It is declared in core/event
// so that a summary reads it without knowing the parsers.
type Stats = event.Stats

// Parse reads a stream line by line and emits its events. With no declared
// agent it sniffs the first JSON lines (at most SniffLines of them). It
// returns an error only when the reader fails; bad lines are data.
func (r *Registry) Parse(rd io.Reader, opt Options, emit Emit) (Stats, error) {
	d := &driver{reg: r, emit: emit, sniffing: opt.Agent == "",
		windowLines: cmp.Or(opt.windowLines, sniffWindowLines), windowBytes: cmp.Or(opt.windowBytes, sniffWindowBytes),
		scribble: opt.scribble || view.ScribblingAll()}
	if opt.Borrow {
		sc := opt.Scratch
		if sc == nil {
			sc = &Scratch{}
		}
		sc.pool.scribble = d.scribble
		d.lendFrom(sc)
	}
	d.stampFn = d.stamp
	if opt.Agent != "" {
		p, err := r.Lookup(opt.Agent)
		if err != nil {
			return Stats{}, err
		}
		d.use(p, false)
	}
	lr := newLineReader(rd, opt.MaxLine)
	for {
		line, cut, err := lr.next()
		if len(line) > 0 || err == nil {
			d.stats.Lines++
			if cut {
				d.stats.CutLines++
			}
			if opt.Redact != nil {
				line = opt.Redact(line)
			}
			d.line(Line{Bytes: line, No: d.stats.Lines, Offset: lr.start}, cut)
		}
		if err != nil {
			d.stats.Bytes = lr.offset
			if d.sniffing {
				d.decide(Unknown)
			}
			d.stream.Finish(d.stampFn)
			if errors.Is(err, io.EOF) {
				return d.stats, nil
			}
			return d.stats, fmt.Errorf("read stream: %w", err)
		}
	}
}

// driver holds the state of one Parse call.
type driver struct {
	reg  *Registry
	emit Emit
	// stampFn is d.stamp, made once: a method value passed per line would
	// be allocated per line.
	stampFn Emit
	// scribble is Options.scribble.
	scribble bool
	stream   Stream
	stats    Stats
	cur      Line
	emitted  bool
	// With Options.Borrow the driver's lender lends from the Scratch: the
	// owner does not copy, and a line's events come from its pool.
	Lender
	session string
	// sessionBuf holds session when the events are lent.
	sessionBuf KeptText
	// owner copies what emitted events still refer to of the line.
	owner owner
	// sniffing is true until the harness is known or given up on. While
	// it is, pending holds the lines of the sniff window that carry text
	// (blank lines yield nothing), and seenLines counts every line of the
	// window. Once the window is full, stream is the unknown parser's
	// until a later line names the harness.
	sniffing     bool
	pending      []pendingLine
	pendingBytes int
	seenLines    int
	jsonSeen     int
	// windowLines and windowBytes bound the sniff window.
	windowLines, windowBytes int
}

type pendingLine struct {
	line Line
	cut  bool
}

func (d *driver) use(p Parser, sniffed bool) {
	d.stream = p.NewStream()
	if l, ok := d.stream.(interface{ lendFrom(*Scratch) }); ok && d.Lends() {
		l.lendFrom(d.sc)
	}
	d.stats.Agent = string(p.Kind())
	d.stats.Sniffed = sniffed
	d.stats.EndsWithResult = p.EndsWithResult()
}

// line handles one line: sniffing first when no parser is chosen yet.
func (d *driver) line(l Line, cut bool) {
	if !d.sniffing {
		d.handle(l, cut)
		return
	}
	body := StripPrefix(l.Bytes)
	if len(body) > 0 && body[0] == '{' && !cut && !isEnvelope(body) {
		d.jsonSeen++
		if k := d.reg.SniffLine(d.sc, body); k != Unknown || d.jsonSeen >= SniffLines {
			d.decide(k)
			d.handle(l, cut)
			return
		}
	}
	if d.stream == nil {
		d.seenLines++
		if d.seenLines > d.windowLines || d.pendingBytes+len(l.Bytes) > d.windowBytes {
			// The window is full: what it held, and every line until
			// the harness is known, is read as unknown.
			d.replay(unknownParser{})
		}
	}
	if d.stream != nil {
		d.handle(l, cut)
		return
	}
	if len(body) > 0 {
		b := bytes.Clone(l.Bytes)
		d.pending = append(d.pending, pendingLine{Line{Bytes: b, No: l.No, Offset: l.Offset}, cut})
		d.pendingBytes += len(b)
	}
}

// decide picks the parser for the rest of the stream and ends sniffing.
func (d *driver) decide(k Kind) {
	d.sniffing = false
	if k == Unknown && d.stream != nil {
		return // the window overflowed: the unknown parser reads already
	}
	p, err := d.reg.Lookup(k)
	if err != nil {
		p = unknownParser{}
	}
	if d.stream != nil {
		d.stream.Finish(d.stampFn)
	}
	d.replay(p)
}

// replay starts a parser and gives it the lines held while sniffing.
func (d *driver) replay(p Parser) {
	d.use(p, true)
	for _, pl := range d.pending {
		d.handle(pl.line, pl.cut)
	}
	d.pending, d.pendingBytes = nil, 0
}

// handle gives one line to the chosen parser, after sift's own lines.
func (d *driver) handle(l Line, cut bool) {
	body := StripPrefix(l.Bytes)
	if len(body) == 0 {
		return
	}
	if d.Lends() {
		d.sc.line() // the previous line's events and texts are done with
	}
	d.cur = Line{Bytes: body, No: l.No, Offset: l.Offset}
	d.owner.setLine(body)
	d.emitted = false
	switch {
	case cut:
		d.raw(body, true)
		return
	case isEnvelope(body):
		if text, ok := envelope(body); ok {
			d.stamp(d.Event(&event.Event{Update: event.Update{SessionUpdate: event.Stderr, Text: text}}))
			return
		}
	case body[0] == '[':
		if n, ok := truncationMarker(body); ok {
			d.stats.TruncatedBytes = event.Int64(n)
			d.stamp(d.Event(&event.Event{Update: event.Update{
				SessionUpdate: event.Raw, Text: d.text(body), TruncatedBytes: event.Int64(n),
			}}))
			return
		}
	}
	ok := d.stream.Line(d.cur, d.stampFn)
	switch {
	case d.emitted:
	case ok:
		d.stats.QuietLines++
	default:
		d.raw(body, false)
	}
	if d.scribble {
		// The line is done with: a view of it kept past here, in a lent
		// event or one the owner failed to copy, shows.
		view.Scribble(body)
	}
}

// stamp fills the position and session of an event and passes it on.
func (d *driver) stamp(ev *event.Event) {
	d.emitted = true
	if !d.Lends() {
		d.owner.own(ev)
	}
	if ev.Line == 0 {
		ev.Line, ev.Offset = d.cur.No, d.cur.Offset
	}
	// The one place every parser's counters pass: none is below zero.
	ev.Update.ClampCounts()
	switch {
	case ev.SessionID == "":
		ev.SessionID = d.session
	case ev.SessionID != d.session:
		d.session = ev.SessionID
		if d.Lends() {
			// Kept past the line in an array of the driver's: the
			// events that took the last session id were lent, and are
			// done with.
			d.sessionBuf.Set(ev.SessionID)
			d.session = d.sessionBuf.Text(&d.Lender)
		}
	}
	d.emit(ev)
}

func (d *driver) raw(body []byte, cut bool) {
	ev := d.Event(&event.Event{Update: event.Update{SessionUpdate: event.Raw, Text: d.text(rawBytes(body))}})
	if cut {
		ev.Extra = map[string]any{"cut": true}
	}
	d.stamp(ev)
}

// RawText returns the text a raw event keeps of a line: at most MaxRawText
// bytes, cut at a rune boundary.
func RawText(b []byte) string { return string(rawBytes(b)) }

// rawBytes is RawText's part of b.
func rawBytes(b []byte) []byte {
	if len(b) <= MaxRawText {
		return b
	}
	n := MaxRawText
	for n > 0 && b[n]&0xC0 == 0x80 {
		n--
	}
	return b[:n]
}

// text returns bytes of the line as an event's text: a view of them when
// the events are lent (the receiver copies what it keeps), else a copy.
func (d *driver) text(b []byte) string {
	if d.Lends() && len(b) > 0 {
		return view.String(b)
	}
	return string(b)
}

// StripPrefix removes a line's trailing CR and any leading control bytes,
// whitespace or byte-order mark (sandboxes prefix lines with such bytes).
func StripPrefix(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\r'})
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	i := 0
	for i < len(b) && (b[i] <= ' ' || b[i] == 0x7f) {
		i++
	}
	return b[i:]
}

var envelopePrefix = []byte(`{"type":"` + event.StderrEnvelope + `"`)

func isEnvelope(b []byte) bool { return bytes.HasPrefix(b, envelopePrefix) }

// envelope decodes a captured stderr line, `{"type":"sift.stderr","text":…}`,
// into its text, which may refer to the line (decodeLine).
func envelope(b []byte) (string, bool) {
	var env struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if decodeLine(b, &env) != nil || env.Type != event.StderrEnvelope {
		return "", false
	}
	return env.Text, true
}

var markerPrefix, markerSuffix = []byte("[...truncated by "), []byte(" bytes]")

// truncationMarker recognises the capture's `[...truncated by N bytes]` line.
func truncationMarker(b []byte) (int64, bool) {
	if !bytes.HasPrefix(b, markerPrefix) {
		return 0, false
	}
	rest := bytes.TrimRight(b[len(markerPrefix):], " \t")
	if !bytes.HasSuffix(rest, markerSuffix) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(rest[:len(rest)-len(markerSuffix)]), 10, 64)
	return n, err == nil && n >= 0
}

// lineReader yields lines with bounded memory.
type lineReader struct {
	br     *bufio.Reader
	max    int
	buf    []byte
	offset int64 // bytes consumed so far
	start  int64 // offset of the line last returned
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &lineReader{br: bufio.NewReaderSize(r, 256<<10), max: max}
}

// next returns the next line without its newline, whether it was cut at
// the cap, and io.EOF after the last line (which may come with the final,
// unterminated line). The slice is valid until the next call.
func (lr *lineReader) next() (line []byte, cut bool, err error) {
	lr.start = lr.offset
	frag, err := lr.br.ReadSlice('\n')
	lr.offset += int64(len(frag))
	switch {
	case err == nil && len(frag)-1 <= lr.max:
		return frag[:len(frag)-1], false, nil
	case err != nil && !errors.Is(err, bufio.ErrBufferFull) && len(frag) <= lr.max:
		return frag, false, err
	}
	// A line longer than the reader's buffer or the cap: gather its
	// pieces, keeping at most the cap.
	lr.buf = lr.buf[:0]
	for {
		piece := frag
		if err == nil {
			piece = frag[:len(frag)-1]
		}
		if room := lr.max - len(lr.buf); len(piece) > room {
			piece, cut = piece[:room], true
		}
		lr.keep(piece)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return lr.buf, cut, err
		}
		frag, err = lr.br.ReadSlice('\n')
		lr.offset += int64(len(frag))
	}
}

// keep appends a piece of a long line to the buffer, doubling it as it
// grows (never past the cap): a line of n bytes allocates less than 4n
// bytes in all, where append's smaller steps for large slices allocate
// about 5n.
func (lr *lineReader) keep(piece []byte) {
	if need := len(lr.buf) + len(piece); need > cap(lr.buf) {
		nb := make([]byte, len(lr.buf), min(max(2*cap(lr.buf), need), lr.max))
		copy(nb, lr.buf)
		lr.buf = nb
	}
	lr.buf = append(lr.buf, piece...)
}
