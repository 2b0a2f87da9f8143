package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/textsafe"
)

// WriteMarkdown writes the report as Markdown for a pull request or a
// chat message, meant to read as well raw (pasted as text) as rendered.
// Text from streams and reviewers is inert: a word Markdown or HTML would
// act on, or that could link or mention (live), is shown in an inline code
// span as it is, never escaped with backslashes, so it can neither format
// the page, carry markup, link nor notify anyone. No line starts with such
// text, so none can open a block either.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("# sift report, %s\n\n%s\n", fmtTime(r.GeneratedAt), topLine(r))

	p("\n## Left to review (%d)\n\n", r.Totals.ToReview)
	if len(r.ToReview) == 0 {
		p("Nothing: every failed, interrupted or flagged run %s is decided.\n", window(r.Since))
	} else {
		p("Failed, died and interrupted runs first, then flagged ones; the most harmful and costliest first.\n\n")
	}
	for _, e := range r.ToReview {
		p("- **%s**%s; %s, %s\n", md(outcomeWord(e.Outcome)), mdRuns(e), fmtDurationOf(e.DurationMs), costWords(e.CostUSD, e.UnknownCost))
		for _, f := range e.Findings {
			p("  - %s: %s%s\n", md(flagNames(f)), md(f.Sentence), lineWords(f.Line))
			for _, ev := range f.Evidence {
				if ev := md(ev); ev != "" { // an empty item under text would underline it
					p("    - %s\n", ev)
				}
			}
		}
		if e.Varied {
			p("  - %s\n", variedWords)
		}
	}
	if r.MoreToReview > 0 {
		p("\nAnd %s left to review: `sift` opens them in this order.\n", plural(r.MoreToReview, "more run"))
	}

	p("\n## Runs by outcome\n\n")
	if len(r.Outcomes) == 0 {
		p("No runs.\n")
	} else {
		p("| outcome | runs |\n|---|---:|\n")
		for _, o := range r.Outcomes {
			p("| %s | %d |\n", mdCell(outcomeWord(o.Outcome)), o.Runs)
		}
	}
	for _, t := range spendTables(r) {
		if len(t.Rows) == 0 {
			continue
		}
		p("\n## %s\n\n| %s | runs | time | cost |\n|---|---:|---:|---:|\n", t.Title, t.Col)
		for _, s := range t.Rows {
			p("| %s | %d | %s | %s |\n", mdCell(s.Key), s.Runs, fmtDurationOf(s.DurationMs), fmtSpendCost(s.CostUSD, s.UnknownCost))
		}
		if t.More > 0 {
			p("\nAnd %d more, %s.\n", t.More, t.What)
		}
	}

	p("\n## Stalls\n\n")
	if len(r.Stalls) == 0 {
		p("None.\n")
	} else {
		p("| run | agent | wait | kind | turn | line |\n|---|---|---:|---|---|---:|\n")
		for _, s := range r.Stalls {
			p("| %s | %s | %s | %s | %s | %d |\n", mdCell(s.Label), mdCell(s.Agent), fmtDuration(s.GapMs), mdCell(s.Kind), mdCell(s.TurnID), s.Line)
		}
		if r.MoreStalls > 0 {
			p("\nAnd %s, shorter.\n", plural(r.MoreStalls, "more stall"))
		}
	}

	p("\n## Open follow-ups (%d)\n\n", r.Totals.FollowupsOpen)
	if len(r.Followups) == 0 {
		p("None.\n")
	}
	for _, f := range r.Followups {
		p("- since %s%s: %s, %s%s\n", fmtTime(f.Since), by(f.Reviewer, md), mdRun(f.RunRef), md(f.Target), note(f.Note, md))
		if f.Resume == "" {
			p("  - resume: %s\n", md(f.ResumeUnavailable))
			continue
		}
		p("  - resume: %s\n", mdCode(f.Resume))
		if f.ResumeFolder != "" {
			p("  - folder: %s\n", md(f.ResumeFolder))
		}
		if f.ResumeWithNote != "" {
			p("  - or, %s: %s\n", md(review.NoteLabel), mdCode(f.ResumeWithNote))
		}
	}
	if r.MoreFollowups > 0 {
		p("\nAnd %d more, newer: `sift followups` lists them all.\n", r.MoreFollowups)
	}

	p("\n## Decisions %s\n\n", window(r.Since))
	if len(r.Decisions) == 0 {
		p("None.\n")
	}
	if r.MoreDecisions > 0 {
		p("%s before these.\n\n", plural(r.MoreDecisions, "decision"))
	}
	for _, d := range r.Decisions {
		p("- %s%s: **%s** %s, %s%s\n", fmtTime(d.At), by(d.Reviewer, md), md(d.Decision), mdRun(d.RunRef), md(d.Target), note(d.Note, md))
	}
	return b.Flush()
}

// topLine is the report's first sentence: runs, failed, left to review,
// spent, follow-ups open.
func topLine(r *Report) string {
	t := r.Totals
	if t.Runs == 0 {
		return fmt.Sprintf("No runs %s; %s open.", window(r.Since), plural(t.FollowupsOpen, "follow-up"))
	}
	parts := []string{fmt.Sprintf("%d failed", t.Failed)}
	if t.Interrupted > 0 {
		parts = append(parts, fmt.Sprintf("%d interrupted", t.Interrupted))
	}
	parts = append(parts, fmt.Sprintf("%d left to review", t.ToReview), spentWords(t.CostUSD, t.UnknownCost),
		plural(t.FollowupsOpen, "follow-up")+" open")
	return fmt.Sprintf("%s %s: %s.", plural(t.Runs, "run"), window(r.Since), strings.Join(parts, ", "))
}

// spendTable is one cost and time table of the report.
type spendTable struct {
	Title, Col, What string
	Rows             []Spend
	More             int
}

func spendTables(r *Report) []spendTable {
	return []spendTable{
		{"Cost and time by agent", "agent", "cheaper agents", r.ByAgent, r.MoreAgents},
		{"Cost and time by work item", "work item", "cheaper work items", r.ByWorkItem, r.MoreItems},
	}
}

// mdRuns names an entry's runs after its outcome: ": LABEL (AGENT)
// `KEY`" for one, ", N AGENT runs: LABEL `KEY`; … and M more" for
// several.
func mdRuns(e ReviewEntry) string {
	if len(e.Runs) == 1 && e.MoreRuns == 0 {
		return ": " + mdRun(e.Runs[0]) + " " + mdCode(e.Runs[0].Session)
	}
	names := make([]string, len(e.Runs))
	for i, r := range e.Runs {
		names[i] = md(r.Label) + " " + mdCode(r.Session)
	}
	s := fmt.Sprintf(", %d %s runs: %s", len(e.Runs)+e.MoreRuns, md(e.Agent), strings.Join(names, "; "))
	if e.MoreRuns > 0 {
		s += fmt.Sprintf(" and %d more", e.MoreRuns)
	}
	return s
}

// variedWords says an entry's findings are its first run's, the others'
// in other words.
const variedWords = "in the first run's words; the others' differ"

// mdRun names a run by its label and agent.
func mdRun(r RunRef) string {
	if r.Agent == "" {
		return md(r.Label)
	}
	return md(r.Label) + " (" + md(r.Agent) + ")"
}

// flagNames names a finding's flags: "harness_error, run_failed".
func flagNames(f FlagFinding) string {
	s := string(f.Flag)
	for _, a := range f.Also {
		s += ", " + string(a)
	}
	return s
}

// lineWords is " (line N)", or nothing for line 0.
func lineWords(line int) string {
	if line <= 0 {
		return ""
	}
	return fmt.Sprintf(" (line %d)", line)
}

// by is " REVIEWER" after a comma, escaped, or nothing.
func by(reviewer string, esc func(string) string) string {
	if reviewer == "" {
		return ""
	}
	return ", " + esc(reviewer)
}

// note is ": NOTE" on one line, escaped, or nothing.
func note(n string, esc func(string) string) string {
	if n == "" {
		return ""
	}
	return ": " + esc(n)
}

// md makes untrusted text one inert line of Markdown: each word that is
// plain (see plain) as it is, every other, and a first word that could
// open a block (opensBlock), in an inline code span, as it is: GitHub
// makes no link, mention, reference or emphasis inside code. Such words
// in a row share one span.
func md(s string) string { return mdWords(s, false) }

// mdCell is md for a table cell: GFM splits a row at a '|' before it
// reads code spans, so a '|' is put in a span and escaped there.
func mdCell(s string) string { return mdWords(s, true) }

func mdWords(s string, cell bool) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = textsafe.Inert(w)
	}
	var b strings.Builder
	for i := 0; i < len(words); {
		if i > 0 {
			b.WriteByte(' ')
		}
		if plain(words[i], cell) && (i > 0 || !opensBlock(words[i])) {
			b.WriteString(words[i])
			i++
			continue
		}
		j := i + 1
		for j < len(words) && !plain(words[j], cell) {
			j++
		}
		b.WriteString(codeSpan(strings.Join(words[i:j], " "), cell))
		i = j
	}
	return b.String()
}

// plain reports whether a word reads as itself in a line of Markdown
// (not at its start): it cannot link, mention or refer (live), and has no
// character inline Markdown or HTML acts on: no backslash, backtick, '*',
// '~', '[', ']' or '<'; a '&' only at its end (no entity); a '_' only
// between letters or digits (which never emphasizes); a '|' only outside
// a table.
func plain(w string, cell bool) bool {
	if live(w) {
		return false
	}
	rs := []rune(w)
	for i, r := range rs {
		switch r {
		case '\\', '`', '*', '~', '[', ']', '<':
			return false
		case '|':
			if cell {
				return false
			}
		case '&':
			if i < len(rs)-1 {
				return false
			}
		case '_':
			if i == 0 || i == len(rs)-1 || !alnum(rs[i-1]) || !alnum(rs[i+1]) {
				return false
			}
		}
	}
	return true
}

// opensBlock reports whether a word at the start of a line could open a
// Markdown block (a list item, a block quote, a thematic break or a
// heading underline): one starting with '-', '+' or '>' or '=', or a
// number followed by '.' or ')'. md puts such a first word in code, so
// text after a list marker stays the item's text.
func opensBlock(w string) bool {
	if strings.ContainsAny(w[:1], "-+>=") {
		return true
	}
	digits := strings.TrimLeft(w, "0123456789")
	return len(digits) < len(w) && (strings.HasPrefix(digits, ".") || strings.HasPrefix(digits, ")"))
}

func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// live reports whether a word could become a link, a mention or a
// reference on GitHub however it is escaped: it holds an '@' (a mention,
// an e-mail address), a '#' (an issue reference), a ':' before its last
// character (a URL's scheme, mailto:) or "www." (an extended autolink).
func live(w string) bool {
	return strings.ContainsAny(w, "@#") || strings.Contains(strings.TrimRight(w, ":"), ":") ||
		strings.Contains(strings.ToLower(w), "www.")
}

// mdCode is untrusted text as one inline code span.
func mdCode(s string) string {
	return codeSpan(textsafe.Inert(strings.Join(strings.Fields(s), " ")), false)
}

// codeSpan is one line of text as an inline code span (CommonMark): fenced
// by one backtick more than its longest run of them, and padded with a
// space on each side when it holds one, which the renderer strips, so a
// backtick at either end is not read as part of the fence. In a table
// cell, each '|' is escaped.
func codeSpan(s string, cell bool) string {
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
