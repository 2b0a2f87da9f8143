package capture

import (
	"bytes"
	"encoding/json"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/redact"
)

// Harnesses that stream a reply as it is generated print one JSON line
// per few words (cursor, gemini, claude, codex, antigravity: each
// harness's entry knows its shapes, agents.DeltaText asks them). A secret
// the model writes is then split across lines, and no line on its own
// holds it. deltaLines holds such lines back while
// their text is among the newest redact.DeltaWindow bytes of the message,
// and writes each with its text redacted in the context of the message
// (redact.Window), the line otherwise as printed.

// maxHeldLineBytes bounds the bytes of the delta lines held, their text
// and the rest of them: past it the held lines are written as they are
// redacted so far (the window restarts).
const maxHeldLineBytes = 1 << 20

// deltaLines redacts and writes the structured stdout lines of one run.
// It is not safe for concurrent use; the stdout splitter calls it.
type deltaLines struct {
	write     func([]byte)
	win       redact.Window
	stream    string // the message the held lines belong to
	held      []heldDelta
	heldBytes int
	kb        *keyBlock // stdout's key-block state, for lines that are not JSON
}

// heldDelta is a delta line waiting for its text to leave the window.
type heldDelta struct {
	line   []byte // a copy of the line
	lo, hi int    // its text, a JSON string with its quotes
}

// newDeltaLines returns the writer of one run's structured stdout lines;
// write gets each line once, redacted.
func newDeltaLines(write func([]byte), kb *keyBlock) *deltaLines {
	return &deltaLines{write: write, kb: kb}
}

// Line takes the next structured stdout line. A delta line may be held;
// any other line first writes the held ones (the message has ended, or
// something else came between its deltas), then itself.
func (d *deltaLines) Line(b []byte) {
	stream, lo, hi, ok := agents.DeltaText(b)
	var text string
	if ok {
		ok = json.Unmarshal(b[lo:hi], &text) == nil
	}
	if !ok {
		d.flush()
		if looksJSON(b) {
			d.write(redact.JSONLine(b))
		} else {
			d.write(d.kb.line(b))
		}
		return
	}
	if stream != d.stream {
		d.flush()
		d.stream = stream
	}
	d.held = append(d.held, heldDelta{line: bytes.Clone(b), lo: lo, hi: hi})
	d.heldBytes += len(b)
	d.emit(d.win.Push(text))
	if d.heldBytes > maxHeldLineBytes {
		d.flush()
	}
}

// Close writes the lines still held. It may be called on a nil
// deltaLines, and more than once.
func (d *deltaLines) Close() {
	if d != nil {
		d.flush()
	}
}

// flush releases every held line: the message has ended.
func (d *deltaLines) flush() {
	if len(d.held) > 0 {
		d.emit(d.win.Flush())
	}
	d.stream = ""
}

// emit writes the first len(texts) held lines, each with its text
// replaced by the redacted one.
func (d *deltaLines) emit(texts []string) {
	for i, t := range texts {
		h := d.held[i]
		out := make([]byte, 0, len(h.line)+len(t)+16)
		out = append(out, h.line[:h.lo]...)
		out = redact.AppendJSONString(out, t)
		out = append(out, h.line[h.hi:]...)
		// The rest of the line (and the text, once more) as any line.
		d.write(redact.JSONLine(out))
		d.heldBytes -= len(h.line)
	}
	n := copy(d.held, d.held[len(texts):])
	clear(d.held[n:])
	d.held = d.held[:n]
}

// looksJSON reports whether a line opens an object or an array.
func looksJSON(b []byte) bool {
	for _, c := range b {
		if c > ' ' {
			return c == '{' || c == '['
		}
	}
	return false
}
