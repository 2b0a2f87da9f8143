package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/review"
)

// toggleMark marks the selected session (or unmarks it) and moves down,
// so that m pressed again marks the next one.
func (m *inboxView) toggleMark() tea.Cmd {
	s := m.selected()
	if s == nil {
		return nil
	}
	if k := s.Key(); m.marked[k] {
		delete(m.marked, k)
	} else {
		m.marked[k] = true
	}
	return m.move(1)
}

// clearMarks forgets the marks once their sessions are decided.
func (m *inboxView) clearMarks() { clear(m.marked) }

// targets are what d and x decide in the inbox: the marked sessions, else
// the selected one. A marked session is named by its key: the list may
// no longer show it.
func (m *inboxView) targets() []decisionTarget {
	if len(m.marked) == 0 {
		if s := m.selected(); s != nil {
			return []decisionTarget{sessionTarget(s)}
		}
		return nil
	}
	out := make([]decisionTarget, 0, len(m.marked))
	for i := range m.win {
		if s := &m.win[i]; m.marked[s.Key()] {
			out = append(out, sessionTarget(s))
		}
	}
	for k := range m.marked {
		seen := false
		for _, t := range out {
			seen = seen || t.session == k
		}
		if !seen {
			out = append(out, decisionTarget{session: k, label: k.String()})
		}
	}
	return out
}

// errNoTodo is the status when no flagged undecided session is left.
var errNoTodo = errors.New("no flagged undecided session left in this view")

// todo reports whether a session is a flagged undecided item: flagged,
// and neither decided nor with every flagged turn decided.
func todo(s *review.Session) bool { return s.Flagged && s.State == "" }

// todoPage is how many rows a search for the next undecided session reads
// at a time.
const todoPage = 200

// seekTodo finds the next (dir 1) or previous (-1) flagged undecided
// session in the inbox's order, from the selected row, or from the
// session from (the one open) wherever the order has put it now; past the
// end it wraps around. It reads the store a page at a time off the UI
// goroutine; the session from is skipped. The answer is a todoFoundMsg,
// with open set when from was given.
func (m *inboxView) seekTodo(dir int, from *review.SessionKey) tea.Cmd {
	m.todoSeq++
	seq, q, st, cur, total := m.todoSeq, m.query(), m.c.Store, m.cursor, m.total
	return func() tea.Msg {
		ctx := context.Background()
		pos := cur
		var skip review.SessionKey
		if from != nil {
			skip = *from
			i, err := st.Locate(ctx, q, *from)
			if err != nil {
				return todoFoundMsg{seq: seq, err: err}
			}
			pos = i
		}
		if pos < 0 && dir < 0 {
			pos = total
		}
		q.Count, q.Limit = true, todoPage
		for n := 0; n < total; {
			i := ((pos+dir)%total + total) % total
			q.Offset = i
			if dir < 0 {
				q.Offset = max(i-todoPage+1, 0)
			}
			p, err := st.ListSessions(ctx, q)
			if err != nil {
				return todoFoundMsg{seq: seq, err: err}
			}
			if len(p.Sessions) == 0 {
				break
			}
			for ; i >= q.Offset && i < q.Offset+len(p.Sessions) && n < total; i += dir {
				if s := &p.Sessions[i-q.Offset]; todo(s) && s.Key() != skip {
					return todoFoundMsg{seq: seq, index: i, key: s.Key(), dir: dir, open: from != nil}
				}
				pos, n = i, n+1
			}
		}
		return todoFoundMsg{seq: seq, err: errNoTodo}
	}
}

// moveTo selects a row.
func (m *inboxView) moveTo(i int) tea.Cmd {
	return m.move(i - m.cursor)
}
