package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// tabWidth is how many spaces a tab in stream content becomes.
const tabWidth = 4

// Inert makes untrusted text from a stream safe to draw on one line: every
// control character (C0, DEL, C1) and every invalid byte is written as a
// visible escape (`\x1b`, `\x07`, `\u009b`), tabs become spaces and line
// breaks become `\n`. Nothing in the result can move the cursor, change
// the title, set the clipboard or open a hyperlink.
func Inert(s string) string {
	return inert(s)
}

// InertLines is Inert for multi-line text: it keeps line breaks (CRLF and
// LF) as line separators and returns the lines.
func InertLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = inert(l)
	}
	return lines
}

func inert(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b == 0x7f || b >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(strings.Repeat(" ", tabWidth))
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r == 0x2028 || r == 0x2029 || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			// Line separators and bidirectional overrides reorder or
			// break what follows them.
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
