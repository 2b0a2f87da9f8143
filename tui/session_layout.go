package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// The session screen, top to bottom: the header (figures, timeline,
// sparkline) and a rule; the turns table, as high as its rows up to a
// third of the body; a rule naming the selection ("t3 · 2/9 flagged ·
// call 4/36"); and the pane of the selected row, which takes the rest:
// for a turn, its sections (sessionPane) and its calls; for the final
// row, the final message in full.

// headerLines is the height of the header and its rule: the figures,
// the timeline, the sparkline, the lines about what the run changed and
// its tokens when there is something to say, and the rule.
func (m *sessionView) headerLines() int { return 4 + len(m.headerNotes()) }

// turnRows is how many rows of the turns table show: up to a third of
// the body, and more when no listed turn's pane needs the room, so that
// neither leaves blank rows the other could use. It stays as the
// selection moves.
func (m *sessionView) turnRows() int {
	avail := m.h - m.headerLines() - 2
	return max(min(len(m.rows), max(avail/3, avail-m.paneNeed, 2)), 1)
}

// measurePane finds the height the pane of the listed turns needs at
// most: a turn's sections and calls. The final row's pane scrolls.
func (m *sessionView) measurePane() {
	m.paneNeed = 3
	if m.s == nil {
		return
	}
	for _, r := range m.rows {
		if r < 0 {
			continue
		}
		t := &m.s.Turns[r]
		n := max(len(t.ToolCallIDs), 1)
		if len(t.Flags) > 0 {
			n += len(m.wrap(m.turnFlagsText(t), maxFlagLines))
		}
		if m.decided(t) != nil {
			n++
		}
		if said := m.said(t); strings.TrimSpace(said) != "" {
			n += len(m.wrap(said, saidLines))
		}
		for _, sl := range m.s.Stalls {
			if sl.TurnID == t.TurnID && sl.Kind == summary.StallTool && !sl.Flagged {
				n++
			}
		}
		if m.thought(t) != "" {
			n++
		}
		n += min(len(m.turnErrors(t)), 2)
		m.paneNeed = max(m.paneNeed, n)
	}
}

// paneRows is the height of the pane under the rule that names the
// selection.
func (m *sessionView) paneRows() int { return max(m.h-m.headerLines()-1-m.turnRows()-1, 1) }

// callRows is how many calls the pane lists: its height less the selected
// turn's sections.
func (m *sessionView) callRows() int { return max(m.paneRows()-len(m.turnSections()), 1) }

func (m *sessionView) clamp() {
	if m.s == nil {
		return
	}
	vis := m.turnRows()
	m.top = min(max(m.top, m.cursor-vis+1), m.cursor)
	m.top = max(min(m.top, len(m.rows)-vis), 0)
	cv := m.callRows()
	m.callTop = min(max(m.callTop, m.call-cv+1), m.call)
	m.callTop = max(min(m.callTop, len(m.calls())-cv), 0)
	if m.scrolls() {
		m.paneTop = max(min(m.paneTop, len(m.textLines())-m.paneRows()), 0)
	}
}

// View implements component.
func (m *sessionView) View() string {
	st := m.c.Styles
	if m.s == nil {
		return st.App.Subtle.Render(" loading session…")
	}
	lines := append(m.header(), m.headerNotes()...)
	lines = append(lines, st.rule("", m.w))
	lines = append(lines, m.turnLines()...)
	lines = append(lines, st.rule(m.paneLabel(), m.w))
	lines = append(lines, m.paneLines()...)
	return strings.Join(lines, "\n")
}

// paneLabel names the selection and, for a turn, its calls: "t3 · 2/9
// flagged · call 4/36", or "t3 · 2/9 flagged · 5 calls" before one is
// selected.
func (m *sessionView) paneLabel() string {
	label := m.position()
	switch {
	case m.turn() == nil:
		return label + " · " + plural(len(m.textLines()), "line")
	case m.expand:
		return label + " · text in full · " + plural(len(m.textLines()), "line") + " · t shows the calls"
	}
	calls := m.calls()
	switch {
	case len(calls) == 0:
		return label + " · no tool calls"
	case m.focus == focusPane:
		return label + " · call " + strconv.Itoa(callIndex(m.s, calls[m.call].ID)+1) + "/" + strconv.Itoa(len(m.s.ToolCalls))
	}
	return label + " · " + plural(len(calls), "call")
}

// header is the figures line, the timeline and the sparkline.
func (m *sessionView) header() []string {
	st, s := m.c.Styles, &m.s.Summary
	// The figures line fits the width where it can: the cached tokens and
	// where the model was read go first, then the model, before the
	// outcome would be cut.
	var parts []string
	for detail := 2; detail >= 0; detail-- {
		parts = headerParts(m.s, detail)
		if ansi.StringWidth(" "+strings.Join(parts, " · ")) <= m.w {
			break
		}
	}
	first := " " + st.App.Title.Render(parts[0]) + st.App.Muted.Render(" · "+strings.Join(parts[1:], " · "))

	legend := st.timelineLegend()
	tw := m.w - 2
	if m.w >= 100 {
		tw = m.w - 2 - 36
	}
	tl, ok := st.timeline(s, max(tw, 1))
	second := " " + st.App.Subtle.Render("no timestamps in this stream: no timeline")
	if ok {
		second = " " + tl
		if m.w >= 100 {
			second += "  " + legend
		}
	}
	third := " " + st.App.Subtle.Render("tokens/turn ")
	if sp := sparkline(s.Turns, max(m.w-30, 1)); sp != "" {
		third += st.Timeline.Spark.Render(sp)
	} else {
		third += st.App.Subtle.Render(dash)
	}
	if s.TimeToFirstTokenMs != nil {
		third += st.App.Subtle.Render("  ttft " + fmtMs(s.TimeToFirstTokenMs))
	}
	return []string{first, second, third}
}

// headerParts are the parts of the session header's figures line: its
// label, agent, duration, cost, tokens and outcome; with detail 2 the
// model and where it was read and the cached tokens, with 1 the model
// alone, with 0 neither.
func headerParts(sess *review.Session, detail int) []string {
	s := &sess.Summary
	parts := []string{Inert(phaseLabel(sess)), Inert(s.AgentKind)}
	if s.Model != "" && detail > 0 {
		// Where the model was read, unless the stream named it.
		from := ""
		if o := s.ModelOrigin(); o != "" && s.ModelSource != summary.ModelFromStream && detail > 1 {
			from = " from " + o
		}
		parts[1] += " (" + Inert(s.Model+from) + ")"
	}
	parts = append(parts, fmtMs(s.TotalDurationMs), fmtCost(s.EstimatedUSD, s.CostSource))
	in := "in " + fmtTokens(s.InputTokens)
	if s.CachedInputTokens != nil && detail > 1 {
		in += " (cached " + fmtTokens(s.CachedInputTokens) + ")"
	}
	return append(parts, in, "out "+fmtTokens(s.OutputTokens), s.Outcome.Word())
}

// clickRow selects the row at a line of the body; clicking the selected
// row focuses its pane, clicking a call selects or opens it.
func (m *sessionView) clickRow(y int) tea.Cmd {
	if m.s == nil {
		return nil
	}
	turnsAt := m.headerLines() + 1 // the header, its rule and the column header
	callsAt := turnsAt + m.turnRows() + 1 + len(m.turnSections())
	switch {
	case y >= turnsAt && y < turnsAt+m.turnRows():
		r := m.top + y - turnsAt
		if r >= len(m.rows) {
			return nil
		}
		if r == m.cursor && m.focus == focusTurns {
			return m.enter()
		}
		m.selectRow(r)
	case y >= callsAt && !m.scrolls():
		i := m.callTop + y - callsAt
		if i >= len(m.calls()) {
			return nil
		}
		if i == m.call && m.focus == focusPane {
			return m.enter()
		}
		m.focus, m.call = focusPane, i
		m.clamp()
	}
	return nil
}
