package agents

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/agentsift/sift/core/internal/view"
)

// lineTexts is the array the JSON strings of a line that a stream reads
// from raw values (a tool's output, a message's text) are unescaped into
// when the events are lent, reused from line to line (Scratch), rather
// than a new string for each. A stream that reads a field this way
// declares it json.RawMessage and calls lender.text once the line is
// decoded.
type lineTexts struct{ buf []byte }

// reset starts a line: the strings of the last one are overwritten from
// now on.
func (t *lineTexts) reset() {
	if cap(t.buf) > maxKeptRaw {
		t.buf = nil
	}
	t.buf = t.buf[:0]
}

// Text returns the string a raw JSON value holds, as decoding it into a
// string field with decodeLine would: "" for an absent value or null, and
// false where that decoding fails (a value that is no string, or a
// malformed one), so that the caller fails the line as it failed before.
// A string without an escape is a view of raw; an escaped one is
// unescaped into the line's texts when the events are lent, else into a
// string of its own.
func (l *Lender) Text(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	if raw[0] != '"' || len(raw) < 2 || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	i := special(body)
	if i == len(body) {
		return view.String(body), true
	}
	if l.sc != nil {
		if s, ok := l.sc.texts.unescape(body, i); ok {
			return s, true
		}
	}
	var s string
	if json.UnmarshalOf(raw, &s, json.DecodeNoCopyString()) != nil {
		return "", false
	}
	return s, true
}

// StringText is text for a value that must be a JSON string: false for
// an absent value and null too, as jsonText reads them.
func (l *Lender) StringText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	return l.Text(raw)
}

// unescape decodes the body of a JSON string, whose first byte that is
// not plain ASCII is at i, into the array and returns a view of it; false
// for anything but valid UTF-8 and the escapes of the common case (\",
// \\, \/, \b, \f, \n, \r, \t and \u of a character that is no
// surrogate), which the decoder itself then reads.
func (t *lineTexts) unescape(body []byte, i int) (string, bool) {
	start := len(t.buf)
	out := append(t.buf, body[:i]...)
	for i < len(body) {
		switch c := body[i]; {
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && n == 1 {
				return "", false
			}
			out = append(out, body[i:i+n]...)
			i += n
		case c == '\\':
			if i+1 >= len(body) {
				return "", false
			}
			switch e := body[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(body[i+2:])
				if !ok || r >= 0xd800 && r < 0xe000 {
					return "", false
				}
				out = utf8.AppendRune(out, r)
				i += 4
			default:
				return "", false
			}
			i += 2
		default:
			// A control byte or a bare quote.
			return "", false
		}
		n := special(body[i:])
		out = append(out, body[i:i+n]...)
		i += n
	}
	// Should the array have grown, the strings of the line so far keep
	// the old one, which nothing writes again.
	t.buf = out
	return view.String(out[start:]), true
}

// special returns the index of the first byte of b that is not plain
// string ASCII (a control byte, a quote, a backslash or a byte of a
// multi-byte character), or len(b), looking at eight bytes at a time.
func special(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		const ones, highs = 0x0101010101010101, 0x8080808080808080
		quote, backslash := w^(ones*'"'), w^(ones*'\\')
		m := (w-ones*0x20)&^w | (quote-ones)&^quote | (backslash-ones)&^backslash | w
		if m &= highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return i
}

// hex4 reads the four hex digits b starts with.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// JoinTexts joins the texts of a message's blocks that text reads, one a
// line, leaving out the empty ones.
func JoinTexts[B any](blocks []B, text func(*B) string) string {
	var out []string
	for i := range blocks {
		if t := text(&blocks[i]); t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}
