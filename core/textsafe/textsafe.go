// Package textsafe makes untrusted text inert before sift writes it
// anywhere a person or a program reads it: a terminal, a table, a log
// line or a JSON document. Stream content, tool names, model names, error
// text and file and folder names all count as untrusted: any of them may
// carry an escape sequence that moves the cursor, retitles the window,
// writes the clipboard (OSC 52) or hides a hyperlink (OSC 8), or a
// bidirectional override that reorders what a reader sees.
//
// Inert, InertLines and Truncate are for text; AppendJSON and Encoder are
// for JSON, where the text must stay the same value once decoded.
package textsafe

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// TabWidth is how many spaces a tab in untrusted text becomes.
const TabWidth = 4

// Ellipsis ends a truncated text.
const Ellipsis = "…"

// Inert makes untrusted text safe to print on one line: every control
// character (C0, DEL, C1) and every byte that is not UTF-8 is written as
// a visible escape (`\x1b`, `\x07`, `\u009b`, `\xff`), tabs become
// spaces, a line break becomes `\n`, and the line separators and
// bidirectional controls (U+061C, U+200E–U+200F, U+2028–U+202E,
// U+2066–U+2069) become `\u` escapes. Nothing in the result can move the
// cursor, change the title, set the clipboard, open a hyperlink or
// reorder the text around it. Text that needs none of this is returned
// as it is, without copying.
func Inert(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		u, n := unit(s[i:])
		b.WriteString(u)
		i += n
	}
	return b.String()
}

// InertLines is Inert for multi-line text: line breaks (LF and CRLF)
// separate the lines it returns, each of them inert.
func InertLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Inert(l)
	}
	return lines
}

// Truncate returns Inert(s) cut to at most n runes. When it cuts, the
// result ends with Ellipsis, which counts towards n. It cuts between
// runes and never inside the visible form of an escaped character, so a
// cut can neither split a UTF-8 sequence nor leave half of `\x1b`.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if clean(s) && utf8.RuneCountInString(s) <= n {
		return s
	}
	var b strings.Builder
	width, cut := 0, -1
	for i := 0; i < len(s); {
		u, size := unit(s[i:])
		w := utf8.RuneCountInString(u)
		if cut < 0 && width+w > n-1 {
			// The last place where the ellipsis still fits.
			cut = b.Len()
		}
		if width+w > n {
			return b.String()[:cut] + Ellipsis
		}
		b.WriteString(u)
		width += w
		i += size
	}
	return b.String()
}

// clean reports whether s is printable ASCII only: the common case,
// which needs no work.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// unit returns the inert form of the character at the start of s and how
// many bytes of s it stands for.
func unit(s string) (string, int) {
	c := s[0]
	if c >= 0x20 && c < 0x7f {
		return s[:1], 1
	}
	if c < utf8.RuneSelf {
		switch c {
		case '\t':
			return strings.Repeat(" ", TabWidth), 1
		case '\n':
			return `\n`, 1
		}
		return hexByte(c), 1
	}
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && n <= 1:
		return hexByte(c), 1
	case Unsafe(r):
		return uEscape(r), n
	}
	return s[:n], n
}

// Unsafe reports whether a rune must not reach a terminal or a reader as
// it is: a control character (C0, DEL, C1), a line or paragraph separator,
// or a bidirectional control that reorders the text around it.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		// Arabic letter mark, left-to-right and right-to-left marks.
		return true
	case r >= 0x2028 && r <= 0x202e:
		// Line and paragraph separators; embeddings and overrides.
		return true
	case r >= 0x2066 && r <= 0x2069:
		// Isolates.
		return true
	}
	return false
}

// hexByte is the visible form `\xNN` of one byte.
func hexByte(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{'\\', 'x', digits[c>>4], digits[c&0xf]})
}

// uEscape is the visible form `\uNNNN` of a rune of the BMP.
func uEscape(r rune) string {
	h := strconv.FormatInt(int64(r), 16)
	return `\u` + strings.Repeat("0", 4-len(h)) + h
}
