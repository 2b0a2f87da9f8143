package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/edit"
	"github.com/agentsift/sift/core/summary"
)

// bodySection is one part of a tool call's body: the input (or the diff
// of an edit), the output or the error, as lines of text (styled, not yet
// wrapped).
type bodySection struct {
	name  string
	lines []string
	// count is how many lines of text the section holds, for its label:
	// lines of the text itself, never screen rows, and 0 for a
	// placeholder such as "(no output)".
	count int
	// note is added to the label: a diff's stat.
	note string
	// errs marks the lines of an output or error that can explain a
	// failure, why the one the failed call's sentence quotes (-1 for
	// none): found once per build, not at every layout.
	errs []bool
	why  int
}

// bodyRow is one screen row of the body: a section's rule, or a row of a
// section's line (a long line wraps onto several rows).
type bodyRow struct {
	text string
	// plain is the row without styling, what the search looks in.
	plain string
	sec   int
	// line is the index of the section's line the row shows; -1 on the
	// rule.
	line int
}

// build renders the body's sections, then lays them out.
func (m *toolView) build() {
	if m.call == nil {
		return
	}
	m.sections = m.bodySections()
	m.classifyLines()
	m.layout()
}

// classifyLines marks the output's and error's lines that can explain a
// failure and the line the failed call's sentence quotes (its last
// occurrence: tools print their verdict last).
func (m *toolView) classifyLines() {
	why := ""
	if m.call.Success != nil && !*m.call.Success {
		why, _, _ = strings.Cut(m.call.Why, " / ")
	}
	for i := range m.sections {
		sec := &m.sections[i]
		sec.why = -1
		if sec.name != "output" && sec.name != "error" {
			continue
		}
		sec.errs = make([]bool, len(sec.lines))
		for j, l := range sec.lines {
			line := ansi.Strip(l)
			sec.errs[j] = summary.ExplainsFailure(line)
			if why != "" && quotes(strings.TrimSpace(line), why) {
				sec.why = j
			}
		}
	}
}

// layout turns the sections into rows at the screen's width, wrapped or
// not, and finds the search's matches again.
func (m *toolView) layout() {
	if m.call == nil || m.w == 0 {
		return
	}
	m.body = m.body[:0]
	for i, sec := range m.sections {
		m.body = append(m.body, bodyRow{sec: i, line: -1})
		for j, l := range sec.lines {
			rows := []string{l}
			if !m.nowrap {
				rows = wrapLines(rows, m.w)
			}
			for _, r := range rows {
				m.body = append(m.body, bodyRow{text: r, plain: ansi.Strip(r), sec: i, line: j})
			}
		}
	}
	m.findMatches()
	m.findErrors()
	m.clamp()
}

// findErrors finds the rows that start the error lines classifyLines
// marked, and the row of the line the sentence quotes.
func (m *toolView) findErrors() {
	m.errRows, m.whyRow = m.errRows[:0], -1
	for i, r := range m.body {
		if r.line < 0 || i > 0 && m.body[i-1].sec == r.sec && m.body[i-1].line == r.line {
			continue // a rule, or a wrapped line's later rows
		}
		sec := &m.sections[r.sec]
		if sec.errs != nil && sec.errs[r.line] {
			m.errRows = append(m.errRows, i)
		}
		if r.line == sec.why {
			m.whyRow = i
		}
	}
}

// quotes reports whether a line is the one a sentence quotes: the same,
// or, quoted cut ("…"), starting the same.
func quotes(line, why string) bool {
	if cut, ok := strings.CutSuffix(why, "…"); ok {
		return cut != "" && strings.HasPrefix(line, cut)
	}
	return line == why
}

// nextError moves to the next (1) or previous (-1) error line, from the
// one marked, wrapping around, and marks it.
func (m *toolView) nextError(dir int) {
	n := len(m.errRows)
	if n == 0 {
		return
	}
	cur := slices.Index(m.errRows, m.whyRow)
	switch {
	case cur >= 0:
		cur = (cur + dir + n) % n
	case dir > 0:
		cur = 0
	default:
		cur = n - 1
	}
	m.whyRow = m.errRows[cur]
	m.scrollTo(m.whyRow)
}

// bodySections are the call's input (or its diff), output and error. The
// error shows once: a failed call's output that is its error is not
// repeated under it.
func (m *toolView) bodySections() []bodySection {
	st := m.c.Styles
	var secs []bodySection
	if diff, _, ok := m.diff(); ok {
		add, del := edit.Stat(diff)
		lines := m.c.highlight(diff, "diff")
		secs = append(secs, bodySection{name: "diff", lines: lines, count: len(lines), note: fmt.Sprintf("+%d −%d", add, del)})
	} else {
		lines := m.inputLines()
		secs = append(secs, bodySection{name: "input", lines: lines, count: len(lines)})
	}
	out, lang := m.outputText()
	errText := m.errorText()
	same := errText != "" && strings.TrimSpace(out) == strings.TrimSpace(errText)
	shown := same || errText != "" && errorInOutput(out, errText)
	switch {
	case m.loading:
		secs = append(secs, bodySection{name: "output", lines: []string{" " + m.spin + st.App.Subtle.Render(" reading the stream…")}})
	case m.err != nil:
		secs = append(secs, bodySection{name: "output", lines: []string{st.Status.Error.Render(" " + Inert(streamProblem(m.err)))}})
	case out != "" && !same:
		lines := m.c.highlight(out, lang)
		secs = append(secs, bodySection{name: "output", lines: lines, count: len(lines)})
	case errText == "":
		secs = append(secs, bodySection{name: "output", lines: []string{st.App.Subtle.Render(" (no output)")}})
	}
	if errText != "" && !shown || same {
		var lines []string
		if m.c.Mode == Operator {
			lines = []string{st.Status.Error.Render(" " + Inert(firstLine(errText)))}
		} else {
			for _, l := range InertLines(strings.TrimRight(errText, "\n")) {
				lines = append(lines, st.Status.Error.Render(l))
			}
		}
		secs = append(secs, bodySection{name: "error", lines: lines, count: len(lines)})
	}
	return secs
}

// errorText is the call's error: the summary's, unless it was cut (it
// ends in "…") and the stream, once read, has it whole.
func (m *toolView) errorText() string {
	cut := m.call.Error == nil || strings.HasSuffix(*m.call.Error, "…")
	if cut && m.detail != nil && m.detail.Error != "" {
		return m.detail.Error
	}
	if m.call.Error != nil {
		return *m.call.Error
	}
	return ""
}

// errorInOutput reports whether an error is already in the output, so
// that it is not shown twice: the whole error, or, when it was cut (the
// summary's ends in "…"), its first lines.
func errorInOutput(out, errText string) bool {
	e := strings.TrimSpace(errText)
	if strings.Contains(out, e) {
		return true
	}
	e = strings.TrimSpace(strings.TrimSuffix(e, "…"))
	lines := strings.Split(e, "\n")
	if len(lines) > 3 {
		lines = lines[:3]
	}
	head := strings.TrimSpace(strings.Join(lines, "\n"))
	return head != "" && strings.Contains(out, head)
}

// diff is the call's edit as a unified diff, when it is one.
func (m *toolView) diff() (string, string, bool) {
	if m.detail == nil {
		return "", "", false
	}
	return edit.Diff(m.call.Name, m.call.Kind, m.detail.Input)
}

// inputLines is the call's input: the title for the operator; the
// command and the input JSON for the developer.
func (m *toolView) inputLines() []string {
	st, tc := m.c.Styles, m.call
	if m.c.Mode == Operator {
		return []string{" " + st.App.Text.Render(Inert(displayName(tc)+": "+firstLine(tc.InputSummary)))}
	}
	var lines []string
	var raw json.RawMessage
	if m.detail != nil {
		raw = m.detail.Input
	}
	if c := m.command(); c != "" {
		lines = append(lines, m.c.highlight("$ "+c, "bash")...)
	}
	switch {
	case len(raw) > 0:
		lines = append(lines, m.c.highlight(prettyJSON(raw), "json")...)
	case tc.InputSummary != "":
		lines = append(lines, InertLines(tc.InputSummary)...)
	default:
		lines = append(lines, st.App.Subtle.Render(" (no input)"))
	}
	return lines
}

// outputText is the call's output and its language.
func (m *toolView) outputText() (string, string) {
	if m.detail == nil {
		if len(m.raw) > 0 {
			return strings.Join(m.raw, "\n"), "json"
		}
		return "", ""
	}
	out := m.detail.Output.String()
	if out == "" && len(m.detail.RawOutput) > 0 {
		out = prettyJSON(m.detail.RawOutput)
	}
	lang := detectLang(out, m.path())
	if m.c.Mode == Operator && lang == "json" {
		return "structured output: the developer view (v) shows it", ""
	}
	return out, lang
}

// rowText draws body row i: a rule with its section's label, or the row
// with the search's matches marked.
func (m *toolView) rowText(i int) string {
	r := m.body[i]
	if r.line < 0 {
		return m.c.Styles.rule(m.sectionLabel(r.sec), m.w)
	}
	if i == m.whyRow {
		// The line the failed call's sentence quotes, or the error line
		// { and } moved to.
		text := r.text
		if strings.HasPrefix(r.plain, " ") {
			// The mark takes the place of the line's first blank.
			text = ansi.Cut(text, 1, ansi.StringWidth(text))
		}
		return fitWidth(m.c.Styles.Status.Error.Render("▶")+text, m.w)
	}
	if m.query == "" {
		return r.text
	}
	return m.markMatches(r, i)
}

// sectionLabel names a section with its true line count and, when it is
// only partly on the screen, which of its lines show: "output (15 lines,
// showing 3–20)", "output (none)".
func (m *toolView) sectionLabel(sec int) string {
	s := m.sections[sec]
	label := s.name
	if s.note != "" {
		label += " " + s.note
	}
	if s.count == 0 {
		if s.name == "output" && !m.loading && m.err == nil {
			return label + " (none)"
		}
		return label
	}
	first, last := -1, -1
	for i := m.offset; i < min(m.offset+m.bodyRows(), len(m.body)); i++ {
		if r := m.body[i]; r.sec == sec && r.line >= 0 {
			if first < 0 {
				first = r.line
			}
			last = r.line
		}
	}
	n := plural(s.count, "line")
	if first >= 0 && (first > 0 || last < s.count-1) {
		return label + " (" + n + ", showing " + strconv.Itoa(first+1) + "–" + strconv.Itoa(last+1) + ")"
	}
	return label + " (" + n + ")"
}
