package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentsift/sift/core/review"

	"github.com/agentsift/sift/core/textsafe"
)

// WriteMarkdown writes the report as Markdown for a pull request or a
// chat message. Text from streams and reviewers is inert and escaped, or
// in code where it could link or mention (md), so it can neither format
// the page, carry markup, link nor notify anyone.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("# sift report, %s\n\n", fmtTime(r.GeneratedAt))
	p("%s %s.\n", plural(r.Sessions, "run"), window(r.Since))

	p("\n## Runs by outcome\n\n")
	if len(r.Outcomes) == 0 {
		p("No runs.\n")
	} else {
		p("| outcome | runs |\n|---|---:|\n")
		for _, o := range r.Outcomes {
			p("| %s | %d |\n", mdCell(o.Outcome), o.Runs)
		}
	}
	for _, t := range []struct {
		title, col string
		rows       []Spend
	}{{"Cost and time by agent", "agent", r.ByAgent}, {"Cost and time by work item", "work item", r.ByWorkItem}} {
		if len(t.rows) == 0 {
			continue
		}
		p("\n## %s\n\n| %s | runs | time | cost |\n|---|---:|---:|---:|\n", t.title, t.col)
		for _, s := range t.rows {
			p("| %s | %d | %s | %s |\n", mdCell(s.Key), s.Runs, fmtDuration(s.DurationMs), fmtCost(s))
		}
	}

	p("\n## Flagged sessions\n\n")
	if len(r.Flagged) == 0 {
		p("None.\n")
	}
	for _, f := range r.Flagged {
		p("### %s (%s, %s)\n\n%s\n\n", md(f.Label), md(f.Agent), md(f.Outcome), mdCode(f.Session))
		for _, ff := range f.Findings {
			p("- **%s**: %s\n", md(string(ff.Flag)), md(ff.Sentence))
			for _, e := range ff.Evidence {
				p("  - %s\n", md(e))
			}
		}
		p("\n")
	}

	p("\n## Stalls\n\n")
	if len(r.Stalls) == 0 {
		p("None.\n")
	} else {
		p("| session | wait | kind | turn | line |\n|---|---:|---|---|---:|\n")
		for _, s := range r.Stalls {
			p("| %s | %s | %s | %s | %d |\n", mdCell(s.Session), fmtDuration(s.GapMs), mdCell(s.Kind), mdCell(s.TurnID), s.Line)
		}
	}

	p("\n## Open follow-ups\n\n")
	if len(r.Followups) == 0 {
		p("None.\n")
	}
	for _, f := range r.Followups {
		p("- %s, %s, since %s%s%s\n", mdCode(f.Session), md(f.Target), fmtTime(f.Since), by(f.Reviewer, md), note(f.Note, md))
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

	p("\n## Decisions\n\n")
	if len(r.Decisions) == 0 {
		p("None %s.\n", window(r.Since))
	}
	for _, d := range r.Decisions {
		p("- %s: **%s** on %s, %s%s%s\n", fmtTime(d.At), md(d.Decision), mdCode(d.Session), md(d.Target), by(d.Reviewer, md), note(d.Note, md))
	}
	return b.Flush()
}

// by is " by REVIEWER", escaped, or nothing.
func by(reviewer string, esc func(string) string) string {
	if reviewer == "" {
		return ""
	}
	return " by " + esc(reviewer)
}

// note is ": NOTE" on one line, escaped, or nothing.
func note(n string, esc func(string) string) string {
	if n == "" {
		return ""
	}
	return ": " + esc(n)
}

// md makes untrusted text one inert line of Markdown. A word a renderer
// could turn into a link or a mention (see live) is shown in an inline
// code span, as it is: GitHub makes no link, mention or reference inside
// code. Every other word is text, each character Markdown or HTML would
// act on escaped. Live words in a row share one span.
func md(s string) string { return mdWords(s, false) }

// mdCell is md for a table cell: GFM splits a row at a '|' before it
// reads code spans, so a '|' inside one is escaped as well.
func mdCell(s string) string { return mdWords(s, true) }

func mdWords(s string, cell bool) string {
	words := strings.Fields(s)
	var b strings.Builder
	for i := 0; i < len(words); {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !live(words[i]) {
			mdEscape(&b, textsafe.Inert(words[i]))
			i++
			continue
		}
		j := i + 1
		for j < len(words) && live(words[j]) {
			j++
		}
		b.WriteString(codeSpan(textsafe.Inert(strings.Join(words[i:j], " ")), cell))
		i = j
	}
	return b.String()
}

// live reports whether a word could become a link, a mention or a
// reference on GitHub however it is escaped: it holds an '@' (a mention,
// an e-mail address), a '#' (an issue reference), a ':' before its last
// character (a URL's scheme, mailto:) or "www." (an extended autolink,
// which also swallows the backslash of an escape after it).
func live(w string) bool {
	return strings.ContainsAny(w, "@#") || strings.Contains(strings.TrimRight(w, ":"), ":") ||
		strings.Contains(strings.ToLower(w), "www.")
}

// mdEscape writes text with every character Markdown or HTML would act
// on escaped.
func mdEscape(b *strings.Builder, s string) {
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '[', ']', '(', ')', '#', '|', '!', '~', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
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

// window says a report's window: since its start, or all time for the
// zero time (a --since past a hundred years).
func window(since time.Time) string {
	if since.IsZero() {
		return "in all time"
	}
	return "since " + fmtTime(since)
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// fmtCost prints a row's known cost and how many runs had none.
func fmtCost(s Spend) string {
	c := fmt.Sprintf("$%.4f", s.CostUSD)
	if s.UnknownCost > 0 {
		c += fmt.Sprintf(" (%d unknown)", s.UnknownCost)
	}
	return c
}
