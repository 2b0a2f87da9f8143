package capture

import (
	"bytes"
	"encoding/json"

	"github.com/agentsift/sift/core/redact"
)

// Harnesses that stream a reply as it is generated print one JSON line
// per few words: cursor's --stream-partial-output (assistant lines with a
// timestamp_ms, thinking/delta lines), gemini's message lines with
// "delta":true, claude's stream_event content_block_delta lines (with
// --include-partial-messages), codex's legacy *_delta messages and
// item.plan.delta lines, antigravity's step_update text_delta and
// thinking_delta. A secret the model writes is then split across lines,
// and no line on its own holds it. deltaLines holds such lines back while
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
	stream, lo, hi, ok := deltaText(b)
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

// deltaText recognises a delta line: it returns the message it belongs to
// and the bounds of its text, a JSON string.
func deltaText(b []byte) (stream string, lo, hi int, ok bool) {
	if !marksDelta(b[:min(len(b), 256)]) && !marksDelta(b[max(len(b)-64, 0):]) {
		return "", 0, 0, false
	}
	start := 0
	for start < len(b) && b[start] <= ' ' {
		start++ // sandboxes prefix lines with control bytes
	}
	obj := jsonVal{start, len(b)}
	switch typ := obj.str(b, "type"); typ {
	case "thinking":
		if obj.str(b, "subtype") == "delta" {
			return deltaOf(b, "thinking", obj.member(b, "text"))
		}
	case "assistant":
		// cursor: a partial reply carries timestamp_ms; the whole reply
		// that closes the message does not.
		if obj.member(b, "timestamp_ms").ok() {
			content := obj.member(b, "message").member(b, "content")
			if one := content.only(b); one.str(b, "type") == "text" {
				return deltaOf(b, "assistant", one.member(b, "text"))
			}
		}
	case "message":
		if obj.member(b, "delta").is(b, "true") {
			return deltaOf(b, "message:"+obj.str(b, "role"), obj.member(b, "content"))
		}
	case "stream_event":
		ev := obj.member(b, "event")
		if ev.str(b, "type") == "content_block_delta" {
			delta := ev.member(b, "delta")
			index := string(ev.member(b, "index").raw(b))
			switch delta.str(b, "type") {
			case "text_delta":
				return deltaOf(b, "claude:text:"+index, delta.member(b, "text"))
			case "thinking_delta":
				return deltaOf(b, "claude:thinking:"+index, delta.member(b, "thinking"))
			case "input_json_delta":
				return deltaOf(b, "claude:input:"+index, delta.member(b, "partial_json"))
			}
		}
	case "item.plan.delta":
		return deltaOf(b, "plan", obj.member(b, "delta"))
	case "":
		if msg := obj.member(b, "msg"); msg.ok() {
			switch t := msg.str(b, "type"); t {
			case "agent_message_delta", "agent_reasoning_delta", "agent_reasoning_raw_content_delta":
				return deltaOf(b, t, msg.member(b, "delta"))
			}
		}
		if obj.str(b, "event") == "step_update" {
			step := obj.member(b, "step_update")
			t, th := step.member(b, "text_delta"), step.member(b, "thinking_delta")
			switch {
			case t.ok() && !th.ok():
				return deltaOf(b, "agy:text", t)
			case th.ok() && !t.ok():
				return deltaOf(b, "agy:thinking", th)
			}
		}
	}
	return "", 0, 0, false
}

// marksDelta reports whether a line's head or tail names a delta ("delta",
// "text_delta", …) or a cursor timestamp_ms: every delta line does, near
// its start or its end, and looking there only costs the same on a line
// of a megabyte as on a short one.
func marksDelta(b []byte) bool {
	return bytes.Contains(b, []byte("delta")) || bytes.Contains(b, []byte("timestamp_ms"))
}

// deltaOf returns a delta's stream and text when the text is a string.
func deltaOf(b []byte, stream string, v jsonVal) (string, int, int, bool) {
	if !v.ok() || b[v.lo] != '"' {
		return "", 0, 0, false
	}
	return stream, v.lo, v.hi, true
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

// jsonVal is a JSON value within a line, b[lo:hi]; the zero jsonVal (lo == hi)
// is absent. Its methods read just enough of the line to find a member,
// without decoding the rest.
type jsonVal struct{ lo, hi int }

func (v jsonVal) ok() bool { return v.hi > v.lo }

func (v jsonVal) raw(b []byte) []byte { return b[v.lo:v.hi] }

// is reports whether the value is the literal lit.
func (v jsonVal) is(b []byte, lit string) bool { return v.ok() && string(b[v.lo:v.hi]) == lit }

// str returns the member key of the object v when it is a string without
// escapes, else "".
func (v jsonVal) str(b []byte, key string) string {
	m := v.member(b, key)
	if !m.ok() || b[m.lo] != '"' || bytes.IndexByte(b[m.lo:m.hi], '\\') >= 0 {
		return ""
	}
	return string(b[m.lo+1 : m.hi-1])
}

// member returns the value of key in the object v (absent when v is not
// an object or has no such key).
func (v jsonVal) member(b []byte, key string) jsonVal {
	i := jsonSpace(b, v.lo, v.hi)
	if i >= v.hi || b[i] != '{' {
		return jsonVal{}
	}
	i++
	for {
		i = jsonSpace(b, i, v.hi)
		if i >= v.hi || b[i] != '"' {
			return jsonVal{}
		}
		kEnd := jsonEnd(b, i, v.hi)
		if kEnd < 0 {
			return jsonVal{}
		}
		k := b[i+1 : kEnd-1]
		i = jsonSpace(b, kEnd, v.hi)
		if i >= v.hi || b[i] != ':' {
			return jsonVal{}
		}
		i = jsonSpace(b, i+1, v.hi)
		end := jsonEnd(b, i, v.hi)
		if end < 0 {
			return jsonVal{}
		}
		if string(k) == key {
			return jsonVal{i, end}
		}
		i = jsonSpace(b, end, v.hi)
		if i >= v.hi || b[i] != ',' {
			return jsonVal{}
		}
		i++
	}
}

// only returns the single element of the array v (absent unless v is an
// array of exactly one element).
func (v jsonVal) only(b []byte) jsonVal {
	i := jsonSpace(b, v.lo, v.hi)
	if i >= v.hi || b[i] != '[' {
		return jsonVal{}
	}
	i = jsonSpace(b, i+1, v.hi)
	end := jsonEnd(b, i, v.hi)
	if end < 0 {
		return jsonVal{}
	}
	if j := jsonSpace(b, end, v.hi); j >= v.hi || b[j] != ']' {
		return jsonVal{}
	}
	return jsonVal{i, end}
}

func jsonSpace(b []byte, i, hi int) int {
	for i < hi && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// jsonEnd returns the end of the JSON value at b[i], or -1.
func jsonEnd(b []byte, i, hi int) int {
	if i >= hi {
		return -1
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < hi; j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < hi; j++ {
			switch b[j] {
			case '"':
				e := jsonEnd(b, j, hi)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < hi && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] > ' ' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
