package summary

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/redact"
)

// Caps on the text a summary keeps.
const (
	maxLine     = 160
	maxTailLine = 1 << 10
	maxTurnText = 240
)

// redactText removes secrets from text a summary shows.
func redactText(s string) string { return redact.String(s) }

// redactMargin is the least of a line past its cut that clip redacts:
// more than the longest secret a rule recognises whole, so that a secret
// straddling the cut is replaced whole.
const redactMargin = 4 << 10

// firstLine returns the first non-empty line of s, cut at maxLine bytes on
// a rune boundary, with "…" marking what was left out. The result is a
// copy: keeping it does not keep a large event text alive.
func firstLine(s string) string {
	return strings.Clone(firstLineOf(s))
}

func firstLineOf(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	more := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		more = strings.TrimSpace(s[i:]) != ""
		s = s[:i]
	}
	s = strings.TrimRight(s, " \t\r")
	if len(s) > maxLine {
		return cut(s, maxLine) + "…"
	}
	if more {
		return s + " …"
	}
	return s
}

// clipLine returns the first non-empty line of s, redacted and cut to at
// most n bytes on a rune boundary: "…" marks a cut, " …" lines left out.
// The result is a copy. It redacts before it cuts, so that a secret
// straddling the cut is caught whole, and reads at most 4n bytes of the
// line (redactMargin when that is more): a text that long is cut anyway.
func clipLine(s string, n int) string { return join(clippedLine(s, n)) }

// ClipLine is clipLine for the packages that show a stream's text outside
// a summary (the live tail's running tool): redacted, then cut.
func ClipLine(s string, n int) string { return clipLine(s, n) }

// clipText returns s redacted and cut to at most n bytes on a rune
// boundary, "…" marking a cut; a copy. Like clipLine, it redacts at most
// the first 4n bytes (or redactMargin).
func clipText(s string, n int) string { return join(clipped(s, n, false)) }

// clippedLine is clipLine without the copy: the text, which may be a view
// of s, and the marker that follows it.
func clippedLine(s string, n int) (string, string) {
	s = strings.TrimLeft(s, " \t\r\n")
	more := false
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		more = strings.TrimSpace(s[i:]) != ""
		s = s[:i]
	}
	return clipped(strings.TrimRight(s, " \t\r"), n, more)
}

// clipped is clipLine and clipText without the copy.
func clipped(s string, n int, more bool) (string, string) {
	long := len(s) > n
	r := redactText(cut(s, max(4*n, redactMargin)))
	switch {
	case long || len(r) > n:
		return cut(r, n), "…"
	case more:
		return r, " …"
	}
	return r, ""
}

// join returns a copy of a text and its marker.
func join(s, marker string) string {
	if marker == "" {
		return strings.Clone(s)
	}
	return s + marker
}

// idKey returns the form an id from the stream is kept in: the id itself
// (sharing its memory), or for one longer than MaxCallID bytes its start,
// "…" and 16 hex digits of its SHA-256, so that ids that differ stay
// different.
func idKey(s string) string {
	if len(s) <= MaxCallID {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return cut(s, MaxCallID-len("…")-16) + "…" + hex.EncodeToString(sum[:8])
}

// keepID returns a kept copy of idKey(s).
func keepID(s string) string {
	if len(s) <= MaxCallID {
		return strings.Clone(s)
	}
	return idKey(s)
}

// cut returns the longest prefix of s of at most n bytes that ends on a
// rune boundary.
func cut(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// maxErrorScan bounds how much of one line is searched for error words: a
// longer line is a data dump, and its start says what it is.
const maxErrorScan = 8 << 10

// isErrorLine reports whether a line contains error, fatal, panic,
// exception or traceback, in any case, within its first maxErrorScan
// bytes. It looks only at the letters those words start with.
func isErrorLine(s string) bool {
	s = s[:min(len(s), maxErrorScan)]
	for i := 0; i < len(s); i++ {
		switch s[i] | 0x20 {
		case 'e':
			if hasFoldPrefix(s[i:], "error") || hasFoldPrefix(s[i:], "exception") {
				return true
			}
		case 'f':
			if hasFoldPrefix(s[i:], "fatal") {
				return true
			}
		case 'p':
			if hasFoldPrefix(s[i:], "panic") {
				return true
			}
		case 't':
			if hasFoldPrefix(s[i:], "traceback") {
				return true
			}
		}
	}
	return false
}

// hasFoldPrefix reports whether s starts with the lowercase ASCII word w,
// ignoring case.
func hasFoldPrefix(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// ring keeps the last max strings added, each in an array of its own that
// the string added after it in its slot overwrites: a stream of many
// plain lines copies each into a slot, and only the last max are made
// strings (list).
type ring struct {
	max   int
	items [][]byte
	next  int
}

func (r *ring) add(s string) {
	if n := len(r.items); n < r.max {
		if n < cap(r.items) {
			// A slot a stream before this one filled (reset).
			r.items = r.items[:n+1]
			r.items[n] = append(r.items[n][:0], s...)
			return
		}
		r.items = append(r.items, []byte(s))
		return
	}
	r.items[r.next] = append(r.items[r.next][:0], s...)
	r.next = (r.next + 1) % r.max
}

// reset empties the ring, keeping its slots' arrays.
func (r *ring) reset() { r.items, r.next = r.items[:0], 0 }

// list returns the strings oldest first.
func (r *ring) list() []string {
	out := make([]string, 0, len(r.items))
	for _, b := range r.items[r.next:] {
		out = append(out, string(b))
	}
	for _, b := range r.items[:r.next] {
		out = append(out, string(b))
	}
	return out
}

// stderrTail keeps the last StderrTailMax bytes of captured stderr, whole
// lines where they fit. The lines kept are buf[off:], each ended by a
// newline; lens holds their lengths with it, oldest first, from lens[head:].
type stderrTail struct {
	buf  []byte
	off  int
	lens []int
	head int
	size int
	seen bool
}

func (t *stderrTail) add(s string) {
	t.seen = true
	s = strings.TrimRight(s, "\r\n")
	if len(s) >= StderrTailMax {
		s = s[len(s)-StderrTailMax+1:]
		for len(s) > 0 && s[0]&0xC0 == 0x80 {
			s = s[1:]
		}
	}
	if t.off > StderrTailMax {
		// Move the kept lines to the start, rather than let the array
		// grow with every line dropped.
		t.buf = t.buf[:copy(t.buf, t.buf[t.off:])]
		t.off = 0
		t.lens = t.lens[:copy(t.lens, t.lens[t.head:])]
		t.head = 0
	}
	t.buf = append(append(t.buf, s...), '\n')
	t.lens = append(t.lens, len(s)+1)
	t.size += len(s) + 1
	for t.size > StderrTailMax {
		t.size -= t.lens[t.head]
		t.off += t.lens[t.head]
		t.head++
	}
}

// reset empties the tail, keeping its arrays.
func (t *stderrTail) reset() {
	buf := t.buf[:0]
	if cap(buf) > 4*StderrTailMax {
		buf = nil
	}
	*t = stderrTail{buf: buf, lens: keptList(t.lens)}
}

// text returns the kept stderr, at most StderrTailMax bytes.
func (t *stderrTail) text() string {
	if t.off == len(t.buf) {
		return ""
	}
	return string(t.buf[t.off : len(t.buf)-1])
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
