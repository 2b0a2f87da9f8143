package tui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

func (m *sessionView) turnColumns() []column {
	cols := []column{
		{title: " ", width: 1},
		{title: "●", width: 1},
		{title: "turn", width: 6},
		{title: "flags", width: 12, flex: true, max: 36, drop: 1},
		{title: "dur", width: 6, right: true},
		{title: "tokens", width: 6, right: true, drop: 3},
		{title: "tools", width: 5, right: true, drop: 2},
		{title: "what happened", width: 16, flex: true},
	}
	if m.c.Mode == Operator {
		cols = slices.DeleteFunc(cols, func(c column) bool { return c.title == "tokens" })
	}
	return cols
}

func (m *sessionView) turnLines() []string {
	st := m.c.Styles
	cols := layoutColumns(m.turnColumns(), m.w, 1)
	hdr := make([]string, len(cols))
	for i, c := range cols {
		hdr[i] = st.Table.Header.Render(cell(c.title, c.width, c.right))
	}
	lines := []string{strings.Join(hdr, " ")}
	vis := m.turnRows()
	for r := m.top; r < min(m.top+vis, len(m.rows)); r++ {
		sel := r == m.cursor
		switch m.rows[r] {
		case finalRow:
			lines = append(lines, m.finalRowLine(cols, sel))
			continue
		case promptRow:
			lines = append(lines, m.textRowLine(cols, sel, "prompt", m.promptWords()))
			continue
		}
		t := &m.s.Turns[m.rows[r]]
		cells := make([]string, len(cols))
		for i, c := range cols {
			switch c.title {
			case " ":
				cells[i] = m.marker(sel, m.focus == focusTurns)
			case "●":
				cells[i] = m.turnBadge(t)
			default:
				cells[i] = m.style(cell(m.turnCell(c.title, t), c.width, c.right), sel, c.title == "flags" && len(t.Flags) > 0)
			}
		}
		lines = append(lines, strings.Join(cells, m.sep(sel)))
	}
	return lines
}

func (m *sessionView) marker(sel, focused bool) string {
	switch {
	case sel && focused:
		return m.c.Styles.Table.Cursor.Render("▶")
	case sel:
		return m.c.Styles.Table.Dim.Render("▷")
	}
	return " "
}

func (m *sessionView) sep(sel bool) string {
	if sel {
		return m.c.Styles.Table.Selected.Render(" ")
	}
	return " "
}

func (m *sessionView) style(text string, sel, alert bool) string {
	st := m.c.Styles
	switch {
	case sel:
		return st.Table.Selected.Render(text)
	case alert:
		return st.Badge.Error.Render(text)
	}
	return st.Table.Cell.Render(text)
}

// finalRowLine is the row after the turns that opens the final message:
// its first line, or why there is none.
func (m *sessionView) finalRowLine(cols []column, sel bool) string {
	what := lastWords(&m.s.Summary)
	switch {
	case len(m.s.Turns) == 0 && what == "":
		what = "no turns in this stream, and no final message"
	case len(m.s.Turns) == 0:
		what = "no turns in this stream · " + what
	case what == "":
		what = "no final message"
	}
	if m.conv != nil && len(m.conv.Errors.Lines) > 0 {
		what = plural(len(m.conv.Errors.Lines), "error") + " · " + what
	}
	return m.textRowLine(cols, sel, "final", what)
}

// textRowLine is a row that stands for no turn: its name in the turn
// column and one line about it.
func (m *sessionView) textRowLine(cols []column, sel bool, name, what string) string {
	cells := make([]string, len(cols))
	for i, c := range cols {
		switch c.title {
		case " ":
			cells[i] = m.marker(sel, m.focus == focusTurns)
		case "●":
			cells[i] = " "
		case "turn":
			cells[i] = m.style(cell(name, c.width, false), sel, false)
		case "what happened":
			cells[i] = m.style(cell(Inert(what), c.width, false), sel, false)
		default:
			cells[i] = m.style(cell("", c.width, false), sel, false)
		}
	}
	return strings.Join(cells, m.sep(sel))
}

// promptWords is the prompt row's line: the first prompt's first line,
// or why there is none.
func (m *sessionView) promptWords() string {
	switch {
	case m.conv == nil && m.convErr != nil:
		// Said once, where the stream's content would be.
		return streamProblem(m.convErr)
	case m.conv == nil:
		return "…"
	case len(m.conv.Prompts.Lines) == 0 && len(m.s.RunArgs) > 0:
		return "sift run passed: " + review.ShellLine(m.s.RunArgs)
	case len(m.conv.Prompts.Lines) == 0:
		return "not in this stream"
	case len(m.conv.Prompts.Lines) > 1:
		return firstLine(m.conv.Prompts.Lines[0].Text) + " (" + plural(len(m.conv.Prompts.Lines), "prompt") + ")"
	}
	return firstLine(m.conv.Prompts.Lines[0].Text)
}

// turnBadge is the badge of the decision that covers a turn (on it or on
// one of its calls), or a flag mark.
func (m *sessionView) turnBadge(t *summary.Turn) string {
	st := m.c.Styles
	if d := m.decided(t); d != nil {
		return decisionBadge(st, d.Kind)
	}
	if len(t.Flags) > 0 {
		return st.Badge.Flagged.Render("⚑")
	}
	return " "
}

func (m *sessionView) turnCell(col string, t *summary.Turn) string {
	switch col {
	case "turn":
		return t.TurnID
	case "flags":
		return m.flagText(t)
	case "dur":
		return fmtMs(t.DurationMs)
	case "tokens":
		var sum summary.Summary
		sum.InputTokens, sum.OutputTokens = t.InputTokens, t.OutputTokens
		return fmtTokens(tokensOf(&sum))
	case "tools":
		return fmtCount(len(t.ToolCallIDs))
	case "what happened":
		return m.whatHappened(t)
	}
	return ""
}

// flagText names a turn's flags; a stall says its kind and length.
func (m *sessionView) flagText(t *summary.Turn) string {
	var out []string
	for _, f := range t.Flags {
		name := flagName(m.c.Mode, f)
		if f == summary.FlagStall {
			for _, sl := range m.s.Stalls {
				if sl.TurnID == t.TurnID {
					name += " (" + string(sl.Kind) + ", " + fmtMs(&sl.GapMs) + ")"
					break
				}
			}
		}
		out = append(out, name)
	}
	return strings.Join(out, ", ")
}

// operatorFlag is the operator's word for a flag.
func operatorFlag(f summary.Flag) string {
	switch f {
	case summary.FlagToolFailed:
		return "failed"
	case summary.FlagApproval:
		return "needs approval"
	case summary.FlagHarnessError:
		return "agent error"
	case summary.FlagTokenSpike:
		return "token spike"
	case summary.FlagUnfinishedTool:
		return "unfinished"
	case summary.FlagRunFailed:
		return "run failed"
	}
	return string(f)
}

// whatHappened is one line about a turn: its first failed (or first)
// call, or what the model said.
func (m *sessionView) whatHappened(t *summary.Turn) string {
	var pick *summary.ToolCall
	for _, id := range t.ToolCallIDs {
		tc := toolCall(m.s, id)
		if tc == nil {
			continue
		}
		if pick == nil || (tc.Success != nil && !*tc.Success && (pick.Success == nil || *pick.Success)) {
			pick = tc
		}
	}
	if pick == nil {
		if t.Text != "" {
			return Inert(firstLine(t.Text))
		}
		return "Answered"
	}
	return Inert(m.callLine(pick))
}

// callLine is one line about a call: "Bash: npm test (exit 1)" for the
// developer, "Ran a command: Run: npm test (exit 1)" for the operator.
func (m *sessionView) callLine(tc *summary.ToolCall) string {
	what := tc.InputSummary
	name := tc.Name
	if m.c.Mode == Operator {
		name = displayName(tc)
	}
	s := name
	if what != "" {
		s += ": " + firstLine(what)
	}
	switch {
	case tc.ApprovalRequired:
		s += " (needs approval)"
	case tc.ExitCode != nil && *tc.ExitCode != 0:
		s += " (exit " + strconv.Itoa(*tc.ExitCode) + ")"
	case tc.Success != nil && !*tc.Success:
		s += " (failed)"
	}
	return s
}

// callBadge marks a call's outcome.
func callBadge(st *Styles, tc *summary.ToolCall) string {
	switch callStatus(tc) {
	case "ok":
		return st.Badge.OK.Render("✓")
	case "approval":
		return st.Badge.Approval.Render("⊘")
	case "unfinished":
		return st.Badge.Unknown.Render("…")
	}
	return st.Badge.Error.Render("✗")
}
