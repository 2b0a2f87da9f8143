package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// The pane of the session screen shows the selected row in sections, one
// function each, returning its lines and nothing when it has nothing to
// say. For a turn: its flags, the start of what the model said, a line
// for its thinking and its errors, then its tool calls, which take the
// pane's free height; t shows its text and thinking in full instead. For
// the prompt row: the prompts. For the final row: the session's flags,
// the harness's errors, the stderr lines and the final message in full.
// The text the summary keeps only the start of comes from the stream's
// re-parse (conversation), read when the session opens.

// saidLines is how many lines of what the model said a turn's pane shows
// before t shows it all.
const saidLines = 3

// turnSections are the sections of the selected turn above its calls.
func (m *sessionView) turnSections() []string {
	if m.turn() == nil {
		return nil
	}
	var lines []string
	for _, sec := range [][]string{m.flagsSection(), m.decidedSection(), m.toolTimeSection(), m.saidSection(saidLines), m.thoughtLine(), m.turnErrorsSection(2)} {
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

// decidedSection says who decided the selected turn, or one of its
// calls, and when: "reviewed by ana, 09:14".
func (m *sessionView) decidedSection() []string {
	d := m.decided(m.turn())
	if d == nil {
		return nil
	}
	text := decidedBy(d, m.c.Now())
	if d.ToolCallID != "" {
		name := d.ToolCallID
		if tc := toolCall(m.s, d.ToolCallID); tc != nil {
			name = tc.Name
		}
		text += " · on " + Inert(name)
	}
	return m.section(ansi.Strip(decisionBadge(m.c.Styles, d.Kind))+" "+m.turn().TurnID, text, 1, false)
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

// said is what the model said in a turn: in full once the stream is
// re-parsed, else the start the summary keeps.
func (m *sessionView) said(t *summary.Turn) string {
	if m.conv != nil {
		if s := joinChunks(m.conv.Said.Between(t.Line, t.EndLine)); s != "" {
			return s
		}
	}
	return t.Text
}

// thought is what the model thought in a turn, "" when the stream shows
// none (or is not read yet).
func (m *sessionView) thought(t *summary.Turn) string {
	if m.conv == nil {
		return ""
	}
	return joinChunks(m.conv.Thought.Between(t.Line, t.EndLine))
}

// turnErrors are the harness's errors inside a turn.
func (m *sessionView) turnErrors(t *summary.Turn) []detail.Line {
	if m.conv == nil {
		return nil
	}
	return m.conv.Errors.Between(t.Line, t.EndLine)
}

// saidSection is what the model said in the selected turn, at most n
// lines.
func (m *sessionView) saidSection(n int) []string {
	said := m.said(m.turn())
	if strings.TrimSpace(said) == "" {
		return nil
	}
	out := m.section("assistant", said, n, false)
	if n < 1<<20 && len(m.wrap(said, 1<<20)) > n {
		out[len(out)-1] = strings.Repeat(" ", labelWidth) + m.c.Styles.App.Subtle.Render("… t shows all of it")
	}
	return out
}

// thoughtLine says, collapsed, how long the model's thinking in the
// selected turn is.
func (m *sessionView) thoughtLine() []string {
	th := m.thought(m.turn())
	if strings.TrimSpace(th) == "" {
		return nil
	}
	st := m.c.Styles
	n := len(InertLines(strings.TrimRight(th, "\n")))
	return []string{st.label("thinking") + st.App.Subtle.Render(plural(n, "line")+" · t shows it · "+firstLine(Inert(th)))}
}

// turnErrorsSection lists the harness's errors in the selected turn with
// their lines, at most n lines.
func (m *sessionView) turnErrorsSection(n int) []string {
	es := m.turnErrors(m.turn())
	if len(es) == 0 {
		return nil
	}
	return m.section("✗ error", withLines(es), n, true)
}

// textLines are the lines of a pane that scrolls: the prompt, the
// session's end, or the selected turn's text in full.
func (m *sessionView) textLines() []string {
	switch {
	case m.row() == promptRow:
		return m.promptLines()
	case m.turn() == nil:
		return m.finalLines()
	}
	const all = 1 << 20
	var lines []string
	for _, sec := range [][]string{m.flagsSection(), m.saidSection(all), m.thoughtSection(), m.turnErrorsSection(all)} {
		lines = append(lines, sec...)
	}
	if len(lines) == 0 {
		lines = []string{m.c.Styles.App.Subtle.Render(" the model said nothing in this turn")}
	}
	return lines
}

// thoughtSection is the model's thinking in the selected turn in full.
func (m *sessionView) thoughtSection() []string {
	th := m.thought(m.turn())
	if strings.TrimSpace(th) == "" {
		return nil
	}
	return m.section("thinking", th, 1<<20, false)
}

// promptLines are the session's prompts in full, each with its line; or
// why there are none.
func (m *sessionView) promptLines() []string {
	st := m.c.Styles
	switch {
	case m.convErr != nil:
		return []string{st.label("prompt") + st.Status.Error.Render(Inert(streamProblem(m.convErr)))}
	case m.conv == nil && m.s.Path == "":
		return []string{st.label("prompt") + st.App.Subtle.Render("the store does not know this session's stream file")}
	case m.conv == nil:
		return []string{st.label("prompt") + st.App.Subtle.Render("reading the stream…")}
	case len(m.conv.Prompts.Lines) == 0 && len(m.s.RunArgs) > 0:
		// What sift run passed the agent: the prompt is among it.
		return m.section("prompt", "not in this stream; sift run passed:\n"+review.ShellLine(m.s.RunArgs), 1<<20, false)
	case len(m.conv.Prompts.Lines) == 0:
		return []string{st.label("prompt") + st.App.Subtle.Render("this stream does not record the prompt")}
	}
	var out []string
	for i, p := range m.conv.Prompts.Lines {
		label := "prompt"
		if len(m.conv.Prompts.Lines) > 1 {
			label = fmt.Sprintf("prompt %d", i+1)
		}
		out = append(out, m.section(label, fmt.Sprintf("(line %d)\n%s", p.Line, p.Text), 1<<20, false)...)
	}
	return out
}

// paneLines draws the pane of the selected row.
func (m *sessionView) paneLines() []string {
	if m.scrolls() {
		lines := m.textLines()
		return lines[min(m.paneTop, len(lines)):min(m.paneTop+m.paneRows(), len(lines))]
	}
	return append(m.turnSections(), m.callLines()...)
}

// finalLines are the sections of the session's end: its own flags, the
// harness's errors, the captured stderr, then its final message.
func (m *sessionView) finalLines() []string {
	var lines []string
	for _, sec := range [][]string{m.sessionFlagsSection(), m.errorsSection(), m.stderrSection(), m.finalSection()} {
		lines = append(lines, sec...)
	}
	return lines
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

// errorsSection lists every error the harness reported, with its line.
func (m *sessionView) errorsSection() []string {
	if m.conv == nil || len(m.conv.Errors.Lines) == 0 {
		return nil
	}
	return m.section("✗ errors", withLines(m.conv.Errors.Lines), 1<<20, true)
}

// stderrSection lists the lines the agent printed on stderr (the capture's
// sift.stderr envelopes), with their lines.
func (m *sessionView) stderrSection() []string {
	if m.conv == nil || len(m.conv.Stderr.Lines) == 0 {
		return nil
	}
	return m.section("stderr", withLines(m.conv.Stderr.Lines), 1<<20, false)
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
