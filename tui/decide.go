package tui

import (
	"context"
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/review"
)

// decisionTarget is what a decision is about, with the names the status
// line and the dialog show it by.
type decisionTarget struct {
	session review.SessionKey
	// label is the session's "work item · phase-iteration".
	label      string
	turnID     string
	toolCallID string
	// callName is the tool's name, when the target is a call.
	callName string
}

// sessionTarget is the target of a decision on a whole session.
func sessionTarget(s *review.Session) decisionTarget {
	return decisionTarget{session: s.Key(), label: phaseLabel(s)}
}

// String names the target as the status line does: "ENG-412 · work-1
// (t3 · Bash)".
func (t decisionTarget) String() string {
	what := t.turnID
	if t.toolCallID != "" {
		name := t.callName
		if name == "" {
			name = t.toolCallID
		}
		what += " · " + name
	}
	if what == "" {
		return Inert(t.label)
	}
	return Inert(t.label + " (" + what + ")")
}

// sessionKeys handles the keys that act on an open session as a whole,
// on its screen and on its calls': D decides it, z undoes its latest
// decision, h shows its history, c claims it or releases the claim. ok is false for other keys.
func sessionKeys(k KeyMap, s *review.Session, msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	switch {
	case key.Matches(msg, k.DecideSession):
		return intent(openDecisionMsg{targets: []decisionTarget{sessionTarget(s)}}), true
	case key.Matches(msg, k.Undo):
		return intent(undoMsg{target: sessionTarget(s)}), true
	case key.Matches(msg, k.History):
		return intent(openHistoryMsg{key: s.Key()}), true
	case key.Matches(msg, k.Claim):
		return claimKey(s), true
	}
	return nil, false
}

// handleDecisionMsg handles the messages of deciding, undoing and going
// to the next undecided item.
func (m *App) handleDecisionMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case openDecisionMsg:
		d, cmd := newDecisionDialog(m.c, msg.targets, msg.followup)
		m.dialog = d
		return cmd
	case decisionMadeMsg:
		m.dialog = nil
		if m.screen == screenInbox && len(msg.ds) == 1 && msg.ds[0].OnSession() {
			// The cursor moves on from this row once it is saved.
			m.inbox.deciding, m.inbox.decidedRow = true, m.inbox.cursor
		}
		return m.saveDecisions(msg.targets, msg.ds)
	case decisionSavedMsg:
		return m.handleSaved(msg)
	case undoMsg:
		return m.undo(msg.target)
	case undoneMsg:
		return m.handleUndone(msg)
	case todoMsg:
		return m.jumpTodo(msg.dir)
	case todoFoundMsg:
		return m.handleTodo(msg)
	}
	return nil
}

// saveDecisions records decisions in the store, in order, up to the first
// that fails.
func (m *App) saveDecisions(ts []decisionTarget, ds []review.Decision) tea.Cmd {
	st, now := m.c.Store, m.c.Now()
	for i := range ds {
		ds[i].CreatedAt = now
	}
	return func() tea.Msg {
		for i, d := range ds {
			if err := st.Decide(context.Background(), d); err != nil {
				return decisionSavedMsg{targets: ts, ds: ds[:i], attempted: ds, err: err}
			}
		}
		return decisionSavedMsg{targets: ts, ds: ds, attempted: ds}
	}
}

// handleSaved names what was decided in the status line, reloads the
// inbox (a session decided from the inbox moves the cursor on to the next
// one left to review: act-and-advance) and the open session's decisions.
func (m *App) handleSaved(msg decisionSavedMsg) tea.Cmd {
	var cmds []tea.Cmd
	switch {
	case msg.err != nil:
		// Those before the failed one are recorded; it and the rest are
		// not, and nothing shows them as recorded: the inbox reloads
		// what the store holds.
		cmds = append(cmds, notRecorded(notSavedWhat(msg), msg.err))
	case len(msg.ds) == 1:
		cmds = append(cmds, m.setStatus(string(msg.ds[0].Kind)+" "+msg.targets[0].String(), false))
	case len(msg.ds) > 1:
		cmds = append(cmds, m.setStatus(string(msg.ds[0].Kind)+" "+plural(len(msg.ds), "session"), false))
	}
	if len(msg.ds) == 0 {
		m.inbox.deciding = false
		return tea.Batch(cmds...)
	}
	if m.inbox.deciding {
		m.inbox.advance = true
	}
	if len(msg.ds) > 1 {
		m.inbox.clearMarks()
	}
	m.inbox.invalidatePreview()
	cmds = append(cmds, m.inbox.reload(), m.reloadDecisions(msg.ds[0].Session))
	return tea.Batch(cmds...)
}

// notSavedWhat names the decisions of a save that failed: the one that
// failed, and how many after it were not tried.
func notSavedWhat(msg decisionSavedMsg) string {
	d, t := msg.attempted[len(msg.ds)], msg.targets[len(msg.ds)]
	what := string(d.Kind) + " on " + t.String()
	if rest := len(msg.attempted) - len(msg.ds) - 1; rest > 0 {
		what += " (and " + plural(rest, "more decision") + ")"
	}
	return what
}

// reloadDecisions reads the open session again, when k is it: its
// decisions, and what they changed on the session (its decision and
// review state, the claim a decision ended).
func (m *App) reloadDecisions(k review.SessionKey) tea.Cmd {
	if m.session.s == nil || m.session.s.Key() != k {
		return nil
	}
	return m.loadSession(k, m.session.search, 0)
}

// undo withdraws the latest decision on a session.
func (m *App) undo(t decisionTarget) tea.Cmd {
	st, rev := m.c.Store, m.c.Reviewer
	return func() tea.Msg {
		d, err := st.Undo(context.Background(), t.session, rev)
		return undoneMsg{target: t, d: d, err: err}
	}
}

// handleUndone says what was undone and reloads what shows it.
func (m *App) handleUndone(msg undoneMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, review.ErrNothingToUndo):
		return m.setStatus("nothing to undo on "+msg.target.String(), false)
	case msg.err != nil:
		return notRecorded("undo on "+msg.target.String(), msg.err)
	}
	t := msg.target
	t.turnID, t.toolCallID, t.callName = msg.d.TurnID, msg.d.ToolCallID, ""
	if m.session.s != nil && m.session.s.Key() == t.session && t.toolCallID != "" {
		if tc := toolCall(m.session.s, t.toolCallID); tc != nil {
			t.callName = tc.Name
		}
	}
	m.inbox.invalidatePreview()
	return tea.Batch(m.setStatus("undid "+string(msg.d.Kind)+" on "+t.String(), false),
		m.inbox.reload(), m.reloadDecisions(t.session))
}

// jumpTodo goes to the next (dir 1) or previous (-1) flagged undecided
// item: in a session, its next flagged turn no decision covers; past the
// last, or from the inbox, the next flagged undecided session in the
// inbox's order, opened when a session was.
func (m *App) jumpTodo(dir int) tea.Cmd {
	if m.screen == screenInbox || m.session.s == nil {
		return m.inbox.seekTodo(dir, nil)
	}
	if m.session.jumpTodo(dir) {
		m.screen = screenSession
		return nil
	}
	k := m.session.s.Key()
	return m.inbox.seekTodo(dir, &k)
}

// handleTodo moves the inbox to the session found and opens it when the
// reviewer was in a session.
func (m *App) handleTodo(msg todoFoundMsg) tea.Cmd {
	if msg.seq != m.inbox.todoSeq {
		return nil
	}
	if msg.err != nil {
		if errors.Is(msg.err, errNoTodo) {
			return m.setStatus(msg.err.Error(), false)
		}
		return reportErr(msg.err)
	}
	cmd := m.inbox.moveTo(msg.index)
	if !msg.open {
		return cmd
	}
	return tea.Batch(cmd, m.openSession(msg.key, review.Query{}, msg.dir))
}
