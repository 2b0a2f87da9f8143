package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentsift/sift/core/textsafe"
)

// WriteMarkdown writes the report as Markdown for a pull request or a
// chat message. Text from streams and reviewers is inert and escaped, so
// it can neither format the page nor carry markup.
func (r *Report) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("# sift report, %s\n\n", fmtTime(r.GeneratedAt))
	p("%s since %s.\n", plural(r.Sessions, "run"), fmtTime(r.Since))

	p("\n## Runs by outcome\n\n")
	if len(r.Outcomes) == 0 {
		p("No runs.\n")
	} else {
		p("| outcome | runs |\n|---|---:|\n")
		for _, o := range r.Outcomes {
			p("| %s | %d |\n", md(o.Outcome), o.Runs)
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
			p("| %s | %d | %s | %s |\n", md(s.Key), s.Runs, fmtDuration(s.DurationMs), fmtCost(s))
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
			p("| %s | %s | %s | %s | %d |\n", md(s.Session), fmtDuration(s.GapMs), md(s.Kind), md(s.TurnID), s.Line)
		}
	}

	p("\n## Open follow-ups\n\n")
	if len(r.Followups) == 0 {
		p("None.\n")
	}
	for _, f := range r.Followups {
		p("- %s, %s, since %s%s%s\n", mdCode(f.Session), md(f.Target), fmtTime(f.Since), by(f.Reviewer, md), note(f.Note, md))
		if f.Resume != "" {
			p("  - resume: %s\n", mdCode(f.Resume))
		} else {
			p("  - resume: %s\n", md(f.ResumeUnavailable))
		}
	}

	p("\n## Decisions\n\n")
	if len(r.Decisions) == 0 {
		p("None since %s.\n", fmtTime(r.Since))
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

// md makes untrusted text one inert line of Markdown text: every
// character Markdown or HTML would act on is escaped.
func md(s string) string {
	s = textsafe.Inert(strings.Join(strings.Fields(s), " "))
	var b strings.Builder
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
	return b.String()
}

// mdCode is untrusted text as an inline code span, fenced by more
// backticks than it holds in a row.
func mdCode(s string) string {
	s = textsafe.Inert(strings.Join(strings.Fields(s), " "))
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
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
