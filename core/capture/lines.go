package capture

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/redact"
)

// MaxStderrLine bounds the buffer of one stderr line: a longer line is cut
// there and stamped with StderrCutMarker, so a CLI that prints a
// pathological newline-free line cannot grow sift's memory.
const MaxStderrLine = 64 << 10

// StderrCutMarker ends a stderr line that was cut at MaxStderrLine.
const StderrCutMarker = "[...stderr line truncated]"

// lineSplitter is the io.Writer an agent's stdout or stderr is copied to.
// It passes every byte on to pass (sift's own stdout or stderr) as it
// arrives, and hands each complete line to line, bounding the pending line
// at max bytes: of a longer line, line gets the first max bytes and the
// count of bytes cut. line must not block (it queues the line for the
// redactor): the agent's pipe is drained whatever the redactor does. line
// may keep b only when owned is true. wake, when set, is called after the
// lines of each write.
type lineSplitter struct {
	pass io.Writer
	max  int
	line func(b []byte, cut int64, owned bool)
	wake func()

	// mu guards the pending line against Close: exec stops waiting for
	// a copy stuck writing to pass (sift's own stdout not read) after its
	// WaitDelay, and the run then closes the splitter under it.
	mu     sync.Mutex
	buf    []byte
	over   int64
	closed bool
}

// Write implements io.Writer. It never fails: a pass-through error (sift's
// own stdout closed) must not stop the capture nor the agent.
func (l *lineSplitter) Write(p []byte) (int, error) {
	if l.pass != nil {
		if _, err := l.pass.Write(p); err != nil {
			l.pass = nil // a closed pipe stays closed
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return len(p), nil
	}
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			l.add(rest)
			break
		}
		seg := rest[:i]
		rest = rest[i+1:]
		if len(l.buf) == 0 && l.over == 0 && len(seg) <= l.max {
			l.line(seg, 0, false) // the common case: no pending part
			continue
		}
		l.add(seg)
		l.emit()
	}
	if l.wake != nil {
		l.wake()
	}
	return len(p), nil
}

// add appends to the pending line up to max bytes and counts the rest.
// The buffer never grows past max.
func (l *lineSplitter) add(b []byte) {
	room := l.max - len(l.buf)
	if len(b) > room {
		l.over += int64(len(b) - room)
		b = b[:room]
	}
	if need := len(l.buf) + len(b); need > cap(l.buf) {
		nb := make([]byte, len(l.buf), min(max(2*cap(l.buf), need, 4096), l.max))
		copy(nb, l.buf)
		l.buf = nb
	}
	l.buf = append(l.buf, b...)
}

// emit hands the pending line over with its buffer.
func (l *lineSplitter) emit() {
	l.line(l.buf, l.over, true)
	l.buf = nil
	l.over = 0
}

// Close hands over a last line that had no newline; later writes are
// only passed through.
func (l *lineSplitter) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 || l.over > 0 {
		l.emit()
		if l.wake != nil {
			l.wake()
		}
	}
	l.closed = true
}

// keyBlock redacts the lines of a text stream, carrying a private-key
// block across lines: redact sees one line at a time, so after a BEGIN …
// PRIVATE KEY line without its END, every line up to the END line is
// replaced too.
type keyBlock struct{ inside bool }

const (
	pemBegin  = "-----BEGIN"
	pemEnd    = "-----END"
	pemKey    = "PRIVATE KEY-----"
	pgpKey    = "PRIVATE KEY BLOCK-----"
	keyMarker = redact.Prefix + "private-key]"
)

// line returns the redacted line.
func (k *keyBlock) line(b []byte) []byte {
	if k.inside {
		if !closesKey(b) {
			return []byte(keyMarker)
		}
		k.inside = false
		i := bytes.Index(b, []byte(pemEnd))
		j := i + keyTailEnd(b[i:])
		return append([]byte(keyMarker), redact.Bytes(b[j:])...)
	}
	k.inside = opensKey(b)
	return redact.Bytes(b)
}

// skip keeps the state across a line that is not written.
func (k *keyBlock) skip(b []byte) { k.inside = keyStepOf(b).after(k.inside) }

// opensKey reports whether a line outside a key block leaves one open: its
// last BEGIN … PRIVATE KEY has no END after it.
func opensKey(b []byte) bool {
	i := bytes.LastIndex(b, []byte(pemBegin))
	return i >= 0 && keyTailEnd(b[i:]) >= 0 && !bytes.Contains(b[i:], []byte(pemEnd))
}

// closesKey reports whether a line inside a key block ends it: an END …
// PRIVATE KEY.
func closesKey(b []byte) bool {
	i := bytes.Index(b, []byte(pemEnd))
	return i >= 0 && keyTailEnd(b[i:]) >= 0
}

// keyTailEnd returns where the first tail of a private key's BEGIN or END
// line ends in b (PEM's "PRIVATE KEY-----" or PGP's "PRIVATE KEY
// BLOCK-----"), or -1 when b has none.
func keyTailEnd(b []byte) int {
	end := -1
	for _, tail := range [...]string{pemKey, pgpKey} {
		if i := bytes.Index(b, []byte(tail)); i >= 0 && (end < 0 || i+len(tail) < end) {
			end = i + len(tail)
		}
	}
	return end
}

// keyStep is what one line, or a run of lines, does to a keyBlock's
// state: whether it opens a block when met outside one, and whether it
// closes the block when met inside one. The zero step is that of no line.
// The queue keeps the step of the lines it skips, so that the state stays
// right without redacting them.
type keyStep struct{ opens, closes bool }

// keyStepOf is the step of one line.
func keyStepOf(b []byte) keyStep {
	return keyStep{opens: opensKey(b), closes: closesKey(b)}
}

// after is the state after the step, from inside or outside a block.
func (k keyStep) after(inside bool) bool {
	if inside {
		return !k.closes
	}
	return k.opens
}

// then is the step of k's lines followed by n's.
func (k keyStep) then(n keyStep) keyStep {
	return keyStep{opens: n.after(k.after(false)), closes: !n.after(k.after(true))}
}

// cutText returns a cut stderr line with its marker, trimmed back to a
// whole UTF-8 character.
func cutText(b []byte) []byte {
	for n := 0; n < utf8.UTFMax && len(b) > 0; n++ {
		r, size := utf8.DecodeLastRune(b)
		if r != utf8.RuneError || size != 1 {
			break
		}
		b = b[:len(b)-1]
	}
	out := make([]byte, 0, len(b)+len(StderrCutMarker))
	return append(append(out, b...), StderrCutMarker...)
}

// Envelope returns the JSON line that carries one (already redacted)
// stderr line: {"type":"sift.stderr","text":"…"} (event.StderrEnvelope,
// which the parsers read back as a stderr event).
func Envelope(text []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"` + event.StderrEnvelope + `","text":`)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(string(text)) //nolint:errcheck // a string always encodes
	b.Truncate(b.Len() - 1)  // Encode's newline
	b.WriteByte('}')
	return b.Bytes()
}
