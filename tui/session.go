package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// focus is the pane of the session screen that has the keys.
type focus uint8

const (
	focusTurns focus = iota
	focusCalls
)

// sessionView is one session: its figures, timeline and sparkline, its
// turns (flagged ones by default) and the tool calls of the selected turn.
type sessionView struct {
	c    *Common
	w, h int

	s         *review.Session
	decisions []review.Decision
	showAll   bool
	rows      []int // indexes into s.Turns of the listed turns
	cursor    int   // into rows
	top       int
	focus     focus
	call      int // index into the selected turn's calls
	callTop   int

	// search is the search the session was opened from (zero: none),
	// matches where it matched, match the one selected (search.go).
	search  review.Query
	matches []search.Match
	match   int
}

var _ component = (*sessionView)(nil)

func newSessionView(c *Common) *sessionView { return &sessionView{c: c} }

// setSession shows a loaded session: at the first match of the search it
// was opened from, else its first flagged turn selected.
func (m *sessionView) setSession(s *review.Session, ds []review.Decision, q review.Query, matches []search.Match) {
	m.s, m.decisions = s, ds
	m.search, m.matches, m.match = q, matches, -1
	m.showAll = !hasFlaggedTurn(s)
	m.cursor, m.top, m.focus, m.call, m.callTop = 0, 0, focusTurns, 0, 0
	m.buildRows(-1)
	for i, at := range matches {
		if at.TurnID != "" {
			m.gotoMatch(i)
			break
		}
	}
}

func hasFlaggedTurn(s *review.Session) bool {
	for _, t := range s.Turns {
		if len(t.Flags) > 0 {
			return true
		}
	}
	return false
}

// buildRows lists the turns shown, keeping turn keep selected if listed.
func (m *sessionView) buildRows(keep int) {
	m.rows = m.rows[:0]
	for i, t := range m.s.Turns {
		if m.showAll || len(t.Flags) > 0 {
			m.rows = append(m.rows, i)
		}
	}
	if j := slices.Index(m.rows, keep); j >= 0 {
		m.cursor = j
	}
	m.cursor = min(m.cursor, max(len(m.rows)-1, 0))
	m.clamp()
}

// SetSize implements component.
func (m *sessionView) SetSize(w, h int) { m.w, m.h = w, h; m.clamp() }

// turn returns the selected turn, nil when none.
func (m *sessionView) turn() *summary.Turn {
	if m.s == nil || m.cursor >= len(m.rows) {
		return nil
	}
	return &m.s.Turns[m.rows[m.cursor]]
}

// calls returns the tool calls of the selected turn.
func (m *sessionView) calls() []*summary.ToolCall {
	t := m.turn()
	if t == nil {
		return nil
	}
	var out []*summary.ToolCall
	for _, id := range t.ToolCallIDs {
		if tc := toolCall(m.s, id); tc != nil {
			out = append(out, tc)
		}
	}
	return out
}

// toolCall finds a call of a session by id.
func toolCall(s *review.Session, id string) *summary.ToolCall {
	for i := range s.ToolCalls {
		if s.ToolCalls[i].ID == id {
			return &s.ToolCalls[i]
		}
	}
	return nil
}

// Update implements component.
func (m *sessionView) Update(msg tea.Msg) tea.Cmd {
	if m.s == nil {
		return nil
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			m.move(-3)
		} else {
			m.move(3)
		}
	}
	return nil
}

func (m *sessionView) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-m.turnRows())
	case key.Matches(msg, k.PageDown):
		m.move(m.turnRows())
	case key.Matches(msg, k.Top):
		m.move(-1 << 30)
	case key.Matches(msg, k.Bottom):
		m.move(1 << 30)
	case key.Matches(msg, k.Tab):
		m.switchPane()
	case m.hasMatches() && key.Matches(msg, k.NextMatch):
		m.jumpMatch(1)
	case m.hasMatches() && key.Matches(msg, k.PrevMatch):
		m.jumpMatch(-1)
	case key.Matches(msg, k.NextFlagged):
		m.jumpFlagged(1)
	case key.Matches(msg, k.PrevFlagged):
		m.jumpFlagged(-1)
	case key.Matches(msg, k.AllTurns):
		keep := -1
		if len(m.rows) > 0 {
			keep = m.rows[m.cursor]
		}
		m.showAll = !m.showAll
		m.buildRows(keep)
	case key.Matches(msg, k.Enter):
		return m.enter()
	case key.Matches(msg, k.Decide, k.Followup):
		if t, ok := m.target(); ok {
			return intent(openDecisionMsg{target: t, followup: key.Matches(msg, k.Followup)})
		}
	case key.Matches(msg, k.History):
		return intent(openHistoryMsg{key: m.s.Key()})
	}
	return nil
}

// enter focuses the calls of a turn, or opens the selected call.
func (m *sessionView) enter() tea.Cmd {
	calls := m.calls()
	if len(calls) == 0 {
		return nil
	}
	if m.focus == focusTurns {
		m.focus = focusCalls
		m.call = 0
		for i, tc := range calls {
			if tc.Success == nil || !*tc.Success {
				m.call = i
				break
			}
		}
		m.clamp()
		return nil
	}
	return intent(openToolCallMsg{id: calls[m.call].ID})
}

func (m *sessionView) switchPane() {
	if m.focus == focusCalls {
		m.focus = focusTurns
	} else if len(m.calls()) > 0 {
		m.focus = focusCalls
	}
}

// back leaves the calls pane; it reports whether it did.
func (m *sessionView) back() bool {
	if m.focus == focusCalls {
		m.focus = focusTurns
		return true
	}
	return false
}

// target is what a decision made here is about: the selected call, the
// selected turn, or the session when it has no turns.
func (m *sessionView) target() (decisionTarget, bool) {
	t := decisionTarget{session: m.s.Key(), label: phaseLabel(&m.s.Summary)}
	turn := m.turn()
	switch {
	case m.focus == focusCalls && m.call < len(m.calls()):
		tc := m.calls()[m.call]
		t.turnID, t.toolCallID = tc.TurnID, tc.ID
		t.label += " · " + turn.TurnID + " · " + tc.Name
	case turn != nil:
		t.turnID = turn.TurnID
		t.label += " · " + turn.TurnID
	}
	return t, true
}

func (m *sessionView) move(n int) {
	if m.focus == focusCalls {
		m.call = min(max(m.call+n, 0), max(len(m.calls())-1, 0))
	} else {
		m.cursor = min(max(m.cursor+n, 0), max(len(m.rows)-1, 0))
		m.call, m.callTop = 0, 0
	}
	m.clamp()
}

// jumpFlagged moves to the next (dir 1) or previous (-1) flagged turn.
func (m *sessionView) jumpFlagged(dir int) {
	m.focus = focusTurns
	for j := m.cursor + dir; j >= 0 && j < len(m.rows); j += dir {
		if len(m.s.Turns[m.rows[j]].Flags) > 0 {
			m.cursor = j
			m.call, m.callTop = 0, 0
			m.clamp()
			return
		}
	}
}

// callRows is how many lines the calls pane gets.
func (m *sessionView) callRows() int {
	rest := m.h - 6
	return min(max(len(m.calls()), 1), max(rest/3, 2))
}

// turnRows is how many turns fit.
func (m *sessionView) turnRows() int { return max(m.h-6-m.callRows(), 1) }

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
}

// View implements component.
func (m *sessionView) View() string {
	st := m.c.Styles
	if m.s == nil {
		return st.App.Subtle.Render(" loading session…")
	}
	lines := m.header()
	lines = append(lines, st.rule("", m.w))
	lines = append(lines, m.turnLines()...)
	label := "tool calls"
	if t := m.turn(); t != nil {
		label += " of " + t.TurnID
	}
	lines = append(lines, st.rule(label, m.w))
	lines = append(lines, m.callLines()...)
	return strings.Join(lines, "\n")
}

// header is the figures line, the timeline and the sparkline.
func (m *sessionView) header() []string {
	st, s := m.c.Styles, &m.s.Summary
	parts := []string{Inert(phaseLabel(s)), Inert(s.AgentKind)}
	if s.Model != "" {
		// Where the model was read, unless the stream named it.
		from := ""
		if o := s.ModelOrigin(); o != "" && s.ModelSource != summary.ModelFromStream {
			from = " from " + o
		}
		parts[1] += " (" + Inert(s.Model+from) + ")"
	}
	parts = append(parts, fmtMs(s.TotalDurationMs), fmtCost(s.EstimatedUSD, s.CostSource))
	in := "in " + fmtTokens(s.InputTokens)
	if s.CachedInputTokens != nil {
		in += " (cached " + fmtTokens(s.CachedInputTokens) + ")"
	}
	parts = append(parts, in, "out "+fmtTokens(s.OutputTokens), string(s.Status))
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

// latest is the latest decision on a turn or call, nil when none.
func (m *sessionView) latest(turnID, callID string) *review.Decision {
	for i := len(m.decisions) - 1; i >= 0; i-- {
		d := &m.decisions[i]
		if d.TurnID == turnID && d.ToolCallID == callID {
			return d
		}
	}
	return nil
}

// title is the session's part of the title bar.
func (m *sessionView) title() string {
	if m.s == nil {
		return "session"
	}
	return Inert(phaseLabel(&m.s.Summary))
}

// ShortHelp implements help.KeyMap.
func (m *sessionView) ShortHelp() []key.Binding {
	k := m.c.Keys
	next, prev := m.nextPrev()
	return []key.Binding{next, prev, k.AllTurns, k.Enter, k.Tab, k.Followup, k.Decide, k.Back, k.Help}
}

// FullHelp implements help.KeyMap.
func (m *sessionView) FullHelp() [][]key.Binding {
	k := m.c.Keys
	next, prev := m.nextPrev()
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Enter, k.Tab, k.Back},
		{next, prev, k.AllTurns, k.Decide, k.Followup, k.History},
		{k.View, k.Refresh, k.Help, k.Quit},
	}
}

// nextPrev are what n and N do: follow a search's matches, or the
// flagged turns.
func (m *sessionView) nextPrev() (next, prev key.Binding) {
	k := m.c.Keys
	if m.hasMatches() {
		return k.NextMatch, k.PrevMatch
	}
	return k.NextFlagged, k.PrevFlagged
}

// clickRow selects the turn at a line of the body; clicking the selected
// turn focuses its calls, clicking a call selects or opens it.
func (m *sessionView) clickRow(y int) tea.Cmd {
	if m.s == nil {
		return nil
	}
	turnsAt := 5 // three header lines, a rule and the column header
	callsAt := turnsAt + m.turnRows() + 1
	switch {
	case y >= turnsAt && y < turnsAt+m.turnRows():
		r := m.top + y - turnsAt
		if r >= len(m.rows) {
			return nil
		}
		if r == m.cursor && m.focus == focusTurns {
			return m.enter()
		}
		m.focus = focusTurns
		m.move(r - m.cursor)
	case y >= callsAt:
		i := m.callTop + y - callsAt
		if i >= len(m.calls()) {
			return nil
		}
		if i == m.call && m.focus == focusCalls {
			return m.enter()
		}
		m.focus, m.call = focusCalls, i
		m.clamp()
	}
	return nil
}

// hint is the session screen's status line: how many turns are flagged
// and whether all are shown.
func (m *sessionView) hint() string {
	flagged := 0
	for _, t := range m.s.Turns {
		if len(t.Flags) > 0 {
			flagged++
		}
	}
	if m.hasMatches() {
		return m.matchHint()
	}
	shown := "flagged turns shown · a shows all"
	if m.showAll {
		shown = "all turns shown · a shows flagged only"
	}
	return fmt.Sprintf("%s of %s · %s", plural(flagged, "flagged turn"), plural(len(m.s.Turns), "turn"), shown)
}
