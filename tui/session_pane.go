package tui

import (
	"fmt"
	"strings"

	"github.com/agentsift/sift/core/summary"
)

// The pane of the session screen shows the selected row in sections, one
// function each, returning its lines and nothing when it has nothing to
// say. For a turn: its flags, what the model said, then its tool calls,
// which take the pane's free height. For the final row: the final
// message in full, scrolled in the pane.

// turnSections are the sections of the selected turn above its calls.
func (m *sessionView) turnSections() []string {
	if m.turn() == nil {
		return nil
	}
	var lines []string
	for _, sec := range [][]string{m.flagsSection(), m.toolTimeSection(), m.saidSection()} {
		lines = append(lines, sec...)
	}
	// The calls keep at least three rows.
	return lines[:min(len(lines), max(m.paneRows()-3, 0))]
}

// wrap is a section's text as its lines: wrapped beside the label, at most
// n.
func (m *sessionView) wrap(text string, n int) []string { return indentLines(m.c.Styles, text, m.w, n) }

// section lays out a labelled section: the label in a fixed column on the
// first line, the text wrapped beside it, at most n lines.
func (m *sessionView) section(label, text string, n int, alert bool) []string {
	st := m.c.Styles
	out := m.wrap(text, n)
	if len(out) == 0 {
		return nil
	}
	first := st.App.Text
	if alert {
		first = st.Badge.Error
	}
	out[0] = st.label(label) + first.Render(out[0])
	return out
}

// maxFlagLines caps the lines of a turn's flags section.
const maxFlagLines = 4

// flagsSection says why the selected turn is flagged: a sentence per flag
// with the lines that raised it.
func (m *sessionView) flagsSection() []string {
	t := m.turn()
	if len(t.Flags) == 0 {
		return nil
	}
	return m.section("⚑ "+t.TurnID, m.turnFlagsText(t), maxFlagLines, true)
}

// turnFlagsText is a turn's flag sentences, one a line; or, for a summary
// stored before flags had sentences, its flag names.
func (m *sessionView) turnFlagsText(t *summary.Turn) string {
	if len(t.FlagNotes) == 0 {
		return m.flagText(t)
	}
	return noteText(t.FlagNotes)
}

// toolTimeSection lists the selected turn's waits on a running tool that
// were tool time, not stalls: counted and shown, but not flagged.
func (m *sessionView) toolTimeSection() []string {
	t := m.turn()
	var lines []string
	for _, sl := range m.s.Stalls {
		if sl.TurnID != t.TurnID || sl.Kind != summary.StallTool || sl.Flagged {
			continue
		}
		name := "a tool"
		if tc := toolCall(m.s, sl.ToolCallID); tc != nil {
			name = tc.Name
		}
		ev := summary.Evidence{Sentence: name + " ran " + fmtMs(&sl.GapMs), Line: sl.FromLine, EndLine: sl.Line}
		lines = append(lines, ev.String()+" · tool time, not a stall")
	}
	if len(lines) == 0 {
		return nil
	}
	return m.section("⏱ tools", strings.Join(lines, "\n"), 2, false)
}

// saidSection is the start of what the model said in the selected turn.
func (m *sessionView) saidSection() []string {
	t := m.turn()
	if strings.TrimSpace(t.Text) == "" {
		return nil
	}
	return m.section("assistant", t.Text, 2, false)
}

// paneLines draws the pane of the selected row.
func (m *sessionView) paneLines() []string {
	if m.turn() == nil {
		lines := m.finalLines()
		return lines[min(m.paneTop, len(lines)):min(m.paneTop+m.paneRows(), len(lines))]
	}
	return append(m.turnSections(), m.callLines()...)
}

// finalLines are the sections of the session's end: its own flags, then
// its final message.
func (m *sessionView) finalLines() []string {
	return append(m.sessionFlagsSection(), m.finalSection()...)
}

// sessionFlagsSection is the run's outcome with its evidence, then the
// session's flags as sentences: for a run that died before its first
// turn, its error.
func (m *sessionView) sessionFlagsSection() []string {
	s := &m.s.Summary
	out := m.section("outcome", outcomeText(s), 3, s.Outcome.IsFailure())
	if len(s.Flags) == 0 {
		return out
	}
	text := noteText(s.FlagNotes)
	if text == "" {
		words := make([]string, len(s.Flags))
		for i, f := range s.Flags {
			words[i] = flagName(m.c.Mode, f)
		}
		text = strings.Join(words, ", ")
	}
	if s.ErrorCount > 0 {
		text += "\n" + plural(s.ErrorCount, "error")
	}
	return append(out, m.section("⚑ session", text, 2*maxFlagLines, true)...)
}

// finalSection is the final message in full, wrapped; the last lines of a
// plaintext stream; or why there is neither.
func (m *sessionView) finalSection() []string {
	st, s := m.c.Styles, &m.s.Summary
	text := ""
	label := "final"
	switch {
	case s.FinalAssistantMessage != nil:
		text = *s.FinalAssistantMessage
	case len(s.Tail) > 0:
		text, label = strings.Join(s.Tail, "\n"), "last lines"
	}
	if strings.TrimSpace(text) == "" {
		return []string{st.label("final") + st.App.Subtle.Render("no final message in this stream")}
	}
	return m.section(label, text, 1<<20, false)
}

// callLines lists the selected turn's calls, from callTop, in the rows
// the sections leave.
func (m *sessionView) callLines() []string {
	st := m.c.Styles
	calls := m.calls()
	if len(calls) == 0 {
		return []string{st.App.Subtle.Render(" no tool calls in this turn")}
	}
	var lines []string
	for i := m.callTop; i < min(m.callTop+m.callRows(), len(calls)); i++ {
		tc := calls[i]
		sel := i == m.call && m.focus == focusPane
		status := callBadge(st, tc)
		if d, ok := m.current[[2]string{tc.TurnID, tc.ID}]; ok {
			status = decisionBadge(st, d.Kind)
		} else if d, ok := m.current[[2]string{"", tc.ID}]; ok {
			status = decisionBadge(st, d.Kind)
		}
		text := fmt.Sprintf("%-10s %6s  %s", callStatus(tc), fmtMs(tc.DurationMs), m.callLine(tc))
		line := m.marker(sel, true) + status + " " + m.style(cell(Inert(text), m.w-3, false), sel, false)
		lines = append(lines, line)
	}
	return lines
}
