package tui

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// maxHighlightBytes is how much text is highlighted; the rest is plain.
const maxHighlightBytes = 256 << 10

// lexer returns the chroma lexer for a language name or a file name,
// memoised; nil when none fits.
func (c *Common) lexer(name string) chroma.Lexer {
	if l, ok := c.lexers[name]; ok {
		return l
	}
	l := lexers.Get(name)
	if l == nil && strings.Contains(name, ".") {
		l = lexers.Match(filepath.Base(name))
	}
	if l != nil {
		l = chroma.Coalesce(l)
	}
	c.lexers[name] = l
	return l
}

// detectLang picks a language for a text: JSON when it parses as JSON, a
// diff when it looks like one, else the file's extension, else none.
func detectLang(text, path string) string {
	t := strings.TrimSpace(text)
	if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		return "json"
	}
	if strings.HasPrefix(t, "diff --git") || strings.HasPrefix(t, "--- ") || strings.HasPrefix(t, "@@ ") ||
		strings.Contains(t, "\n@@ ") || strings.HasPrefix(t, "*** Begin Patch") {
		return "diff"
	}
	if path != "" && filepath.Ext(path) != "" {
		return filepath.Base(path)
	}
	return ""
}

// prettyJSON indents a JSON value; it returns the input when it is not
// JSON.
func prettyJSON(raw []byte) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, bytes.TrimSpace(raw), "", "  "); err != nil {
		return string(raw)
	}
	return buf.String()
}

// highlight splits text into lines made inert, styled with the lexer of
// lang (a language or file name; empty for plain text).
func (c *Common) highlight(text, lang string) []string {
	st := c.Styles
	head, tail := text, ""
	if len(text) > maxHighlightBytes {
		cut := strings.LastIndexByte(text[:maxHighlightBytes], '\n')
		cut = max(cut, 0)
		head, tail = text[:cut], text[cut:]
	}
	var l chroma.Lexer
	if lang != "" {
		l = c.lexer(lang)
	}
	var lines []string
	if l == nil {
		lines = InertLines(head)
	} else if it, err := l.Tokenise(nil, strings.ReplaceAll(head, "\r\n", "\n")); err != nil {
		lines = InertLines(head)
	} else {
		var cur strings.Builder
		for tok := it(); tok != chroma.EOF; tok = it() {
			style := st.token(tok.Type)
			parts := strings.Split(tok.Value, "\n")
			for i, p := range parts {
				if i > 0 {
					lines = append(lines, cur.String())
					cur.Reset()
				}
				if p != "" {
					cur.WriteString(style.Render(inert(p)))
				}
			}
		}
		lines = append(lines, cur.String())
	}
	if tail != "" {
		tl := InertLines(tail)
		if len(tl) > 0 && tl[0] == "" {
			tl = tl[1:]
		}
		lines = append(lines, tl...)
	}
	for len(lines) > 1 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
