package tui

import (
	"slices"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
	"github.com/agentsift/sift/core/summary"
)

// focus is the part of the session screen that has the keys.
type focus uint8

const (
	// focusTurns is the table of turns.
	focusTurns focus = iota
	// focusPane is the pane under it: the selected turn's calls, or the
	// final message.
	focusPane
)

// The rows that stand for no turn: the session's end (its errors, stderr
// and final message) after its turns, and its prompt before them.
const (
	finalRow  = -1
	promptRow = -3
)

// sessionView is one session: its figures, timeline and sparkline, its
// turns (flagged ones by default) and, for the selected one, a pane of
// sections: its flags, what the model said and its tool calls, which take
// the free height. After the turns, a row opens the final message in
// full.
type sessionView struct {
	c    *Common
	w, h int

	s *review.Session
	// decisions is the session's history; current has each target's
	// current decision, by turn and tool call.
	decisions []review.Decision
	current   map[[2]string]review.Decision
	showAll   bool
	rows      []int // indexes into s.Turns of the listed turns, then finalRow
	cursor    int   // into rows
	top       int
	focus     focus
	call      int // index into the selected turn's calls
	callTop   int
	paneTop   int // the first line of the final message shown
	// paneNeed is the height the listed turns' panes need at most
	// (measurePane).
	paneNeed int

	// search is the search the session was opened from (zero: none),
	// matches where it matched, match the one selected (search.go).
	search  review.Query
	matches []search.Match
	match   int

	// conv is the conversation the stream's re-parse read (nil until it
	// is read); expand shows the selected turn's text in full in place
	// of its calls; tokens compares the turns' tokens with the
	// session's.
	conv    *detail.Conversation
	convErr error
	expand  bool
	tokens  tokenCheck
}

var _ component = (*sessionView)(nil)

func newSessionView(c *Common) *sessionView { return &sessionView{c: c} }

// setSession shows a loaded session: at the first match of the search it
// was opened from, else, when it grew since its decision, at its first new
// turn, else its first flagged turn selected.
func (m *sessionView) setSession(s *review.Session, ds []review.Decision, q review.Query, matches []search.Match) {
	m.s, m.conv, m.convErr, m.expand = s, nil, nil, false
	m.tokens = reconcileTokens(&s.Summary)
	m.setDecisions(ds)
	m.search, m.matches, m.match = q, matches, -1
	m.showAll = !hasFlaggedTurn(s)
	m.cursor, m.top, m.focus, m.call, m.callTop, m.paneTop = 0, 0, focusTurns, 0, 0, 0
	m.buildRows(-2)
	// The first turn listed, else the session's end: the prompt row is
	// one key up.
	m.cursor = min(1, len(m.rows)-1)
	m.clamp()
	for i, at := range matches {
		if at.TurnID != "" {
			m.gotoMatch(i)
			return
		}
	}
	if t := firstNewTurn(s); t >= 0 {
		m.cursor = m.rowOf(t)
		m.clamp()
	}
}

// firstNewTurn is the index of a session's first turn after the line its
// reviewer had seen (Session.NewSince); -1 when it has not grown since
// its decision, or no turn starts after that line.
func firstNewTurn(s *review.Session) int {
	if s.NewSince <= 0 {
		return -1
	}
	return slices.IndexFunc(s.Turns, func(t summary.Turn) bool { return t.Line > s.NewSince })
}

// reload shows a session loaded again, keeping the selected row and the
// search's matches.
func (m *sessionView) reload(s *review.Session, ds []review.Decision, matches []search.Match) {
	keep := -2
	if m.cursor < len(m.rows) {
		keep = m.rows[m.cursor]
	}
	m.s, m.matches = s, matches
	m.tokens = reconcileTokens(&s.Summary)
	m.setDecisions(ds)
	m.buildRows(keep)
}

// setConversation shows what the stream's re-parse read, or why it could
// not.
func (m *sessionView) setConversation(c *detail.Conversation, err error) {
	m.conv, m.convErr = c, err
	m.measurePane()
	m.clamp()
}

// setDecisions keeps a session's history and its current decisions.
func (m *sessionView) setDecisions(ds []review.Decision) {
	m.decisions = ds
	m.current = map[[2]string]review.Decision{}
	for _, d := range review.Current(ds) {
		m.current[[2]string{d.TurnID, d.ToolCallID}] = d
	}
}

// callDecision is the current decision on one of the session's calls, nil
// for none.
func (m *sessionView) callDecision(id string) *review.Decision {
	for _, d := range m.current {
		if d.ToolCallID == id {
			return &d
		}
	}
	return nil
}

func hasFlaggedTurn(s *review.Session) bool {
	return slices.ContainsFunc(s.Turns, func(t summary.Turn) bool { return len(t.Flags) > 0 })
}

// buildRows lists the rows shown, keeping row keep selected if listed.
func (m *sessionView) buildRows(keep int) {
	m.rows = append(m.rows[:0], promptRow)
	for i, t := range m.s.Turns {
		if m.showAll || len(t.Flags) > 0 {
			m.rows = append(m.rows, i)
		}
	}
	m.rows = append(m.rows, finalRow)
	if j := slices.Index(m.rows, keep); j >= 0 {
		m.cursor = j
	}
	m.cursor = min(m.cursor, len(m.rows)-1)
	m.measurePane()
	m.clamp()
}

// SetSize implements component.
func (m *sessionView) SetSize(w, h int) {
	m.w, m.h = w, h
	m.measurePane()
	m.clamp()
}

// row is the selected row: a turn's index, promptRow or finalRow.
func (m *sessionView) row() int {
	if m.s == nil || m.cursor >= len(m.rows) {
		return finalRow
	}
	return m.rows[m.cursor]
}

// turn returns the selected turn, nil when none (the prompt or the final
// row).
func (m *sessionView) turn() *summary.Turn {
	if r := m.row(); r >= 0 {
		return &m.s.Turns[r]
	}
	return nil
}

// scrolls reports whether the pane is text that scrolls: the prompt, the
// session's end, or a turn's text in full.
func (m *sessionView) scrolls() bool { return m.turn() == nil || m.expand }

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
	if i := callIndex(s, id); i >= 0 {
		return &s.ToolCalls[i]
	}
	return nil
}

// callIndex is a call's place among the session's calls, -1 when absent.
func callIndex(s *review.Session, id string) int {
	return slices.IndexFunc(s.ToolCalls, func(c summary.ToolCall) bool { return c.ID == id })
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
	if cmd, ok := sessionKeys(k, m.s, msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-max(m.paneRows()-1, 1))
	case key.Matches(msg, k.PageDown):
		m.move(max(m.paneRows()-1, 1))
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
		m.showAll = !m.showAll
		m.buildRows(m.rows[m.cursor])
	case key.Matches(msg, k.Expand):
		m.toggleExpand()
	case key.Matches(msg, k.Enter):
		return m.enter()
	case key.Matches(msg, k.Decide, k.Followup):
		return intent(openDecisionMsg{targets: []decisionTarget{m.target()}, followup: key.Matches(msg, k.Followup)})
	}
	return nil
}

// toggleExpand shows the selected turn's text and thinking in full in
// place of its calls, or its calls again.
func (m *sessionView) toggleExpand() {
	m.expand = !m.expand
	m.paneTop = 0
	if m.focus == focusPane && !m.scrolls() {
		m.focus = focusTurns
	}
	m.clamp()
}

// enter focuses the pane of the selected row (its first failed call), or
// opens the selected call.
func (m *sessionView) enter() tea.Cmd {
	if m.scrolls() {
		m.focus = focusPane
		return nil
	}
	calls := m.calls()
	if len(calls) == 0 {
		return nil
	}
	if m.focus == focusTurns {
		m.focus = focusPane
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
	if m.focus == focusPane {
		m.focus = focusTurns
	} else if m.scrolls() || len(m.calls()) > 0 {
		m.focus = focusPane
	}
}

// back leaves the pane; it reports whether it did.
func (m *sessionView) back() bool {
	if m.focus == focusPane {
		m.focus = focusTurns
		return true
	}
	return false
}

// target is what d and x decide here: the selected call, the selected
// turn, or the session on its final row.
func (m *sessionView) target() decisionTarget {
	t := sessionTarget(m.s)
	turn := m.turn()
	switch {
	case turn != nil && m.focus == focusPane && !m.expand && m.call < len(m.calls()):
		tc := m.calls()[m.call]
		t.turnID, t.toolCallID, t.callName = turn.TurnID, tc.ID, tc.Name
	case turn != nil:
		t.turnID = turn.TurnID
	}
	return t
}

func (m *sessionView) move(n int) {
	switch {
	case m.focus == focusPane && m.scrolls():
		m.paneTop = max(m.paneTop+n, 0)
	case m.focus == focusPane:
		m.call = min(max(m.call+n, 0), max(len(m.calls())-1, 0))
	default:
		m.cursor = min(max(m.cursor+n, 0), max(len(m.rows)-1, 0))
		m.call, m.callTop, m.paneTop = 0, 0, 0
	}
	m.clamp()
}

// selectRow selects a row of the turns table.
func (m *sessionView) selectRow(j int) {
	m.focus, m.cursor = focusTurns, j
	m.call, m.callTop, m.paneTop = 0, 0, 0
	m.clamp()
}

// jumpFlagged moves to the next (dir 1) or previous (-1) flagged turn.
func (m *sessionView) jumpFlagged(dir int) {
	for j := m.cursor + dir; j >= 0 && j < len(m.rows); j += dir {
		if r := m.rows[j]; r >= 0 && len(m.s.Turns[r].Flags) > 0 {
			m.selectRow(j)
			return
		}
	}
}

// decided returns the current decision that covers a turn: on the turn,
// else on one of its calls; nil when none does.
func (m *sessionView) decided(t *summary.Turn) *review.Decision {
	if d, ok := m.current[[2]string{t.TurnID, ""}]; ok {
		return &d
	}
	for _, d := range m.current {
		if d.ToolCallID == "" {
			continue
		}
		if d.TurnID == t.TurnID || slices.Contains(t.ToolCallIDs, d.ToolCallID) {
			return &d
		}
	}
	return nil
}

// isTodo reports whether a turn is a flagged undecided item.
func (m *sessionView) isTodo(i int) bool {
	t := &m.s.Turns[i]
	return len(t.Flags) > 0 && m.decided(t) == nil
}

// jumpTodo selects the next (dir 1) or previous (-1) flagged turn that no
// decision covers, from the selected row; it reports whether there is
// one. A session decided as a whole has none.
func (m *sessionView) jumpTodo(dir int) bool {
	if _, ok := m.current[[2]string{}]; ok {
		return false
	}
	from := len(m.s.Turns)
	switch r := m.row(); {
	case r >= 0:
		from = r
	case r == promptRow:
		from = -1
	case dir > 0:
		return false
	}
	for i := from + dir; i >= 0 && i < len(m.s.Turns); i += dir {
		if m.isTodo(i) {
			m.selectRow(m.rowOf(i))
			return true
		}
	}
	return false
}

// firstTodo selects the first (dir 1) or last (-1) flagged turn that no
// decision covers, if any.
func (m *sessionView) firstTodo(dir int) {
	m.cursor = 0
	if dir < 0 {
		m.cursor = len(m.rows) - 1
	}
	if m.turn() != nil && m.isTodo(m.rows[m.cursor]) {
		return
	}
	m.jumpTodo(dir)
}

// rowOf is the row of a turn, listing every turn if it is not listed.
func (m *sessionView) rowOf(turn int) int {
	if j := slices.Index(m.rows, turn); j >= 0 {
		return j
	}
	m.showAll = true
	m.buildRows(turn)
	return slices.Index(m.rows, turn)
}

// title is the session's part of the title bar.
func (m *sessionView) title() string {
	if m.s == nil {
		return "session"
	}
	if m.s.NewSince > 0 {
		return Inert(phaseLabel(m.s)) + " · new since your decision"
	}
	return Inert(phaseLabel(m.s))
}

// position says where the selection is: "t3 · 2/9 flagged", "t4 · 4/12",
// "prompt", "final".
func (m *sessionView) position() string {
	t := m.turn()
	switch {
	case t == nil && m.row() == promptRow:
		return "prompt"
	case t == nil:
		return "final"
	}
	idx := m.rows[m.cursor]
	if len(t.Flags) == 0 {
		return t.TurnID + " · " + strconv.Itoa(idx+1) + "/" + strconv.Itoa(len(m.s.Turns))
	}
	n, at := 0, 0
	for i := range m.s.Turns {
		if len(m.s.Turns[i].Flags) > 0 {
			n++
			if i == idx {
				at = n
			}
		}
	}
	return t.TurnID + " · " + strconv.Itoa(at) + "/" + strconv.Itoa(n) + " flagged"
}

// ShortHelp implements help.KeyMap.
func (m *sessionView) ShortHelp() []key.Binding {
	k := m.c.Keys
	next, _ := m.nextPrev()
	return []key.Binding{next, k.AllTurns, k.Expand, k.Enter, k.Decide, k.DecideSession, k.Followup, k.Undo, k.NextTodo, k.Back}
}

// FullHelp implements help.KeyMap.
func (m *sessionView) FullHelp() [][]key.Binding {
	k := m.c.Keys
	next, prev := m.nextPrev()
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Enter, k.Tab, k.Back},
		{next, prev, k.AllTurns, k.Expand, k.NextTodo, k.PrevTodo},
		{k.Decide, k.DecideSession, k.Followup, k.Undo, k.History, k.Followups, k.Claim},
		{k.View, k.Refresh, k.Help, k.QuitBack},
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
	if m.turn() != nil {
		shown += " · t text in full"
	}
	return plural(flagged, "flagged turn") + " of " + plural(len(m.s.Turns), "turn") + " · " + shown
}
