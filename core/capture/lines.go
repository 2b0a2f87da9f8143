package capture

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/agentsift/sift/core/redact"
)

// MaxStderrLine bounds the buffer of one stderr line: a longer line is cut
// there and stamped with StderrCutMarker, so a CLI that prints a
// pathological newline-free line cannot grow sift's memory.
const MaxStderrLine = 64 << 10

// StderrCutMarker ends a stderr line that was cut at MaxStderrLine.
const StderrCutMarker = "[...stderr line truncated]"

// EnvelopeType is the type of the JSON line that carries a stderr line of
// a structured agent.
const EnvelopeType = "sift.stderr"

// lineSplitter is the io.Writer an agent's stdout or stderr is copied to.
// It passes every byte on to pass (sift's own stdout or stderr) as it
// arrives, and hands each complete line to line, bounding the pending line
// at max bytes: of a longer line, line gets the first max bytes and the
// count of bytes cut.
type lineSplitter struct {
	pass io.Writer
	max  int
	buf  []byte
	over int64
	line func(b []byte, cut int64)
	// flush is called after each write that drained the pipe; soon after
	// one that filled the copy buffer (more output is on its way).
	flush, flushSoon func()
}

// pipeChunk is the buffer size of exec's copy from the agent's pipes.
const pipeChunk = 32 << 10

// Write implements io.Writer. It never fails: a pass-through error (sift's
// own stdout closed) must not stop the capture nor the agent.
func (l *lineSplitter) Write(p []byte) (int, error) {
	if l.pass != nil {
		if _, err := l.pass.Write(p); err != nil {
			l.pass = nil // a closed pipe stays closed
		}
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
			l.line(seg, 0) // the common case: no copy
			continue
		}
		l.add(seg)
		l.emit()
	}
	switch {
	case len(p) >= pipeChunk && l.flushSoon != nil:
		l.flushSoon()
	case l.flush != nil:
		l.flush()
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

func (l *lineSplitter) emit() {
	l.line(l.buf, l.over)
	l.buf = l.buf[:0]
	l.over = 0
}

// Close hands over a last line that had no newline.
func (l *lineSplitter) Close() {
	if len(l.buf) > 0 || l.over > 0 {
		l.emit()
	}
	if l.flush != nil {
		l.flush()
	}
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
	keyMarker = redact.Prefix + "private-key]"
)

// line returns the redacted line.
func (k *keyBlock) line(b []byte) []byte {
	if k.inside {
		i := bytes.Index(b, []byte(pemEnd))
		if i < 0 || !bytes.Contains(b[i:], []byte(pemKey)) {
			return []byte(keyMarker)
		}
		k.inside = false
		j := i + bytes.Index(b[i:], []byte(pemKey)) + len(pemKey)
		return append([]byte(keyMarker), redact.Bytes(b[j:])...)
	}
	if i := bytes.LastIndex(b, []byte(pemBegin)); i >= 0 && bytes.Contains(b[i:], []byte(pemKey)) &&
		!bytes.Contains(b[i:], []byte(pemEnd)) {
		k.inside = true
	}
	return redact.Bytes(b)
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
// stderr line: {"type":"sift.stderr","text":"…"}.
func Envelope(text []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"` + EnvelopeType + `","text":`)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(string(text)) //nolint:errcheck // a string always encodes
	b.Truncate(b.Len() - 1)  // Encode's newline
	b.WriteByte('}')
	return b.Bytes()
}
