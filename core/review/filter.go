package review

import (
	"iter"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Label is a session's "work item · phase-iteration" label, as the inbox
// shows it and the `/` filter matches it; "?" stands for an unknown phase.
func Label(workItem, phase string, iteration *int) string {
	if phase == "" {
		phase = "?"
	}
	if iteration != nil {
		phase += "-" + strconv.Itoa(*iteration)
	}
	return workItem + " · " + phase
}

// FilterFields are what the inbox's `/` filter looks at in a session.
type FilterFields struct {
	Agent     string
	WorkItem  string
	Phase     string
	Iteration *int
	// ToolNames yields the names of the session's tool calls (each once
	// or more; nil: none).
	ToolNames iter.Seq[string]
	// Final is the session's final message, nil when it has none.
	Final *string
}

// FilterMatches reports whether a session passes the inbox's `/` filter:
// the pattern is fuzzy-matched (FuzzyMatch) against the agent, the label
// (Label) and each tool name, and found as a plain substring of the final
// message; all ignoring case. Matching the long final message fuzzily
// would match nearly anything. An empty pattern matches every session.
//
// A store calls it once per session a filtered query reads, so it builds
// no strings: the label is matched part by part, and case is folded rune
// by rune, as strings.ToLower folds it.
func FilterMatches(pattern string, f FilterFields) bool {
	p := strings.ToLower(pattern)
	if fuzzyRest(p, f.Agent) == "" {
		return true
	}
	rest := fuzzyRest(p, f.WorkItem)
	rest = fuzzyRest(rest, " · ")
	if f.Phase == "" {
		rest = fuzzyRest(rest, "?")
	} else {
		rest = fuzzyRest(rest, f.Phase)
	}
	if f.Iteration != nil && rest != "" {
		var buf [24]byte
		rest = fuzzyRest(rest, string(strconv.AppendInt(append(buf[:0], '-'), int64(*f.Iteration), 10)))
	}
	if rest == "" {
		return true
	}
	if f.ToolNames != nil {
		for n := range f.ToolNames {
			if fuzzyRest(p, n) == "" {
				return true
			}
		}
	}
	return f.Final != nil && containsFold(*f.Final, p)
}

// FuzzyMatch reports whether the characters of pattern appear in text in
// order, ignoring case and spaces in the pattern.
func FuzzyMatch(pattern, text string) bool {
	return fuzzyRest(strings.ToLower(pattern), text) == ""
}

// fuzzyRest matches the lowered pattern p against text, each character of
// p (spaces skipped) at its first place in what is left of the text,
// ignoring case, and returns the part of p it did not reach: "" when the
// whole pattern matched. Matching the rest against the text that follows
// is matching the pattern against both joined.
func fuzzyRest(p, text string) string {
	for p != "" {
		r, n := utf8.DecodeRuneInString(p)
		if r == ' ' {
			p = p[n:]
			continue
		}
		i := indexLower(text, r)
		if i < 0 {
			return p
		}
		p = p[n:]
		text = text[i:]
	}
	return ""
}

// indexLower returns the offset in text just past its first character
// that lowers to r, or -1.
func indexLower(text string, r rune) int {
	if r < utf8.RuneSelf {
		b := byte(r)
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c >= utf8.RuneSelf {
				return indexLowerRunes(text, r, i)
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c == b {
				return i + 1
			}
		}
		return -1
	}
	return indexLowerRunes(text, r, 0)
}

// indexLowerRunes is indexLower from offset i, decoding runes.
func indexLowerRunes(text string, r rune, i int) int {
	for i < len(text) {
		c, n := utf8.DecodeRuneInString(text[i:])
		if unicode.ToLower(c) == r {
			return i + n
		}
		i += n
	}
	return -1
}

// containsFold reports whether strings.ToLower(text) contains the lowered
// pattern p, without lowering an ASCII text.
func containsFold(text, p string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(text), p)
		}
	}
	if len(p) > len(text) {
		return false
	}
	for i := 0; i+len(p) <= len(text); i++ {
		j := 0
		for j < len(p) {
			c := text[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != p[j] {
				break
			}
			j++
		}
		if j == len(p) {
			return true
		}
	}
	return false
}
