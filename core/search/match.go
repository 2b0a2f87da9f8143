package search

import (
	"slices"
	"strings"
)

// word is one word of a text: its byte span and its lowercased form.
type word struct {
	start, end int
	low        string
}

// words splits a text into its words.
func words(s string) []word {
	var out []word
	for start, end := range wordSpans(s) {
		out = append(out, word{start, end, strings.ToLower(s[start:end])})
	}
	return out
}

// matchAt reports whether a term matches the words ws from index i.
func (t *Term) matchAt(ws []word, i int) bool {
	if i+len(t.Words) > len(ws) {
		return false
	}
	for j, w := range t.Words {
		got := ws[i+j].low
		if j == len(t.Words)-1 && t.Prefix {
			if !strings.HasPrefix(got, w) {
				return false
			}
		} else if got != w {
			return false
		}
	}
	return true
}

// in reports whether a term matches anywhere in the words ws.
func (t *Term) in(ws []word) bool {
	for i := range ws {
		if t.matchAt(ws, i) {
			return true
		}
	}
	return false
}

// Highlight returns the byte spans of text that the query's words and
// phrases match (not the excluded ones), in order and not overlapping:
// what the inbox marks in a row, and a preview in its text.
func (q *Query) Highlight(text string) [][2]int {
	pos := q.Positive()
	if len(pos) == 0 || text == "" {
		return nil
	}
	ws := words(text)
	var spans [][2]int
	for i := range ws {
		for k := range pos {
			t := &pos[k]
			if t.matchAt(ws, i) {
				spans = append(spans, [2]int{ws[i].start, ws[i+len(t.Words)-1].end})
			}
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var out [][2]int
	for _, s := range spans {
		if n := len(out); n > 0 && s[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}

// MatchDoc reports whether a session's indexed text passes the query's
// terms: each word and phrase appears in it, no excluded one does. The
// filters are not looked at. It is what a store's full-text index
// answers, for a store that has none.
func (q *Query) MatchDoc(d *Doc) bool {
	found := make([]bool, len(q.Terms))
	for _, p := range d.Parts {
		ws := words(p.Text)
		for i := range q.Terms {
			found[i] = found[i] || q.Terms[i].in(ws)
		}
	}
	for i := range q.Terms {
		if found[i] == q.Terms[i].Not {
			return false
		}
	}
	return true
}

// MatchingParts returns the indexes of the parts of a doc that a word or
// phrase of the query matches: where in the session the matches are.
func (q *Query) MatchingParts(d *Doc) []int {
	pos := q.Positive()
	var out []int
	for i, p := range d.Parts {
		ws := words(p.Text)
		for k := range pos {
			if pos[k].in(ws) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// Match is one place in a session that a query matched: which part of
// it, at which turn and tool call, and the text around the match.
type Match struct {
	Where      Where  `json:"where"`
	TurnID     string `json:"turnId,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
	// Snippet is the matching text around the match, on one line.
	Snippet string `json:"snippet"`
	// Marks are the byte spans of Snippet that matched, in order.
	Marks [][2]int `json:"marks"`
}

// MatchesAt returns the matches in one part of a session's text: text is
// the part's line (Part.Text, or as a store read it back) with the
// matched spans marked. There is one match per place the part occurs at
// (one, at the session, for a part of none), each with a snippet of at
// most n bytes (0: the whole line).
func MatchesAt(p Part, text string, marks [][2]int, n int) []Match {
	if n > 0 {
		text, marks = Snip(text, marks, n)
	}
	at := p.At
	if len(at) == 0 {
		at = []Location{{}}
	}
	out := make([]Match, len(at))
	for i, l := range at {
		out[i] = Match{Where: p.Where, TurnID: l.TurnID, ToolCallID: l.CallID, Snippet: text, Marks: marks}
	}
	return out
}

// Matches returns the places in a doc that the query's words and phrases
// match, in the doc's order, with snippets of at most n bytes (0: whole
// lines): what a store without a full-text index answers for a session.
func (q *Query) Matches(d *Doc, n int) []Match {
	var out []Match
	for _, i := range q.MatchingParts(d) {
		p := d.Parts[i]
		out = append(out, MatchesAt(p, p.Text, q.Highlight(p.Text), n)...)
	}
	return out
}

// snipContext is how much text a snippet keeps before its first mark.
const snipContext = 40

// Snip cuts a snippet of at most n bytes out of a line of text around its
// first marked span (marks are byte spans of text, in order), with "…"
// where it cut, and returns it with the marks moved into it. Marks that
// do not fit are dropped, and cut short where the snippet ends.
func Snip(text string, marks [][2]int, n int) (string, [][2]int) {
	if len(text) <= n {
		return text, marks
	}
	start := 0
	if len(marks) > 0 && marks[0][0] > snipContext {
		start = marks[0][0] - snipContext
		// From the start of a word.
		for start > 0 && isWordByte(text[start-1]) {
			start--
		}
		if start > marks[0][0]-snipContext/2 && start > 0 {
			start = marks[0][0] - snipContext
		}
		for start < len(text) && !isRuneStart(text[start]) {
			start++
		}
	}
	pre := ""
	if start > 0 {
		pre = "…"
	}
	body := cut(text[start:], n-len(pre))
	end := start + len(body)
	post := ""
	if end < len(text) {
		body = cut(body, max(len(body)-len("…"), 0))
		end = start + len(body)
		post = "…"
	}
	var out [][2]int
	shift := len(pre) - start
	for _, m := range marks {
		if m[1] <= start || m[0] >= end {
			continue
		}
		out = append(out, [2]int{max(m[0], start) + shift, min(m[1], end) + shift})
	}
	return pre + body + post, out
}

func isWordByte(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c >= 0x80
}

func isRuneStart(c byte) bool { return c&0xC0 != 0x80 }
