package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/summary"
)

func (m *sessionView) turnColumns() []column {
	cols := []column{
		{title: " ", width: 1},
		{title: "●", width: 1},
		{title: "turn", width: 5},
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
	if len(m.rows) == 0 {
		return append(lines, st.App.Subtle.Render(" no turns in this stream"))
	}
	for r := m.top; r < min(m.top+vis, len(m.rows)); r++ {
		t := &m.s.Turns[m.rows[r]]
		sel := r == m.cursor
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

// turnBadge is a turn's decision badge, or a flag mark.
func (m *sessionView) turnBadge(t *summary.Turn) string {
	st := m.c.Styles
	if d := m.latest(t.TurnID, ""); d != nil {
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
		name := string(f)
		if m.c.Mode == Operator {
			name = operatorFlag(f)
		}
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

func (m *sessionView) callLines() []string {
	st := m.c.Styles
	calls := m.calls()
	if len(calls) == 0 {
		return []string{st.App.Subtle.Render(" no tool calls in this turn")}
	}
	var lines []string
	for i := m.callTop; i < min(m.callTop+m.callRows(), len(calls)); i++ {
		tc := calls[i]
		sel := i == m.call && m.focus == focusCalls
		status := callBadge(st, tc)
		if d := m.latest(tc.TurnID, tc.ID); d != nil {
			status = decisionBadge(st, d.Kind)
		}
		text := fmt.Sprintf("%-10s %6s  %s", callStatus(tc), fmtMs(tc.DurationMs), m.callLine(tc))
		line := m.marker(sel, true) + status + " " + m.style(cell(Inert(text), m.w-3, false), sel, false)
		lines = append(lines, line)
	}
	return lines
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
