package tui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/review"
)

// openSession switches to the session screen and loads it: at the first
// match of the search q when it has one; todo, when not 0, selects its
// first (1) or last (-1) flagged undecided turn.
func (m *App) openSession(k review.SessionKey, q review.Query, todo int) tea.Cmd {
	m.screen = screenSession
	if m.session.s == nil || m.session.s.Key() != k || m.session.search != q {
		m.session.s = nil
	}
	return m.loadSession(k, q, todo)
}

// loadSession loads a session, its decisions and, when a search is
// given, where it matched.
func (m *App) loadSession(k review.SessionKey, q review.Query, todo int) tea.Cmd {
	st := m.c.Store
	return func() tea.Msg {
		ctx := context.Background()
		s, err := st.GetSession(ctx, k)
		if err != nil {
			return sessionLoadedMsg{err: fmt.Errorf("open session %s: %w", k, err)}
		}
		ds, err := st.Decisions(ctx, k)
		if err != nil {
			return sessionLoadedMsg{err: err}
		}
		msg := sessionLoadedMsg{session: s, decisions: ds, search: q, todo: todo}
		if q.Search != "" {
			if msg.matches, err = st.Matches(ctx, k, q, 0); err != nil {
				return sessionLoadedMsg{err: fmt.Errorf("open session %s: %w", k, err)}
			}
		}
		return msg
	}
}

func (m *App) handleSessionLoaded(msg sessionLoadedMsg) tea.Cmd {
	if msg.err != nil {
		m.screen = screenInbox
		return reportErr(msg.err)
	}
	s := msg.session
	if m.session.s != nil && m.session.s.Key() == s.Key() && m.session.search == msg.search && msg.todo == 0 {
		m.session.reload(&s, msg.decisions, msg.matches)
		return m.loadConversation()
	}
	m.session.setSession(&s, msg.decisions, msg.search, msg.matches)
	if msg.todo != 0 {
		m.session.firstTodo(msg.todo)
	}
	return m.loadConversation()
}

// loadConversation gives the open session the conversation of its stream:
// kept from an earlier re-parse, else re-parsed off the UI goroutine. The
// re-parse keeps every call's detail too, for the tool-call screen.
func (m *App) loadConversation() tea.Cmd {
	s := m.session.s
	if s == nil || s.Path == "" {
		return nil
	}
	if fd, ok := m.details[s.Path]; ok {
		m.session.setConversation(&fd.Conv, nil)
		return nil
	}
	rd, path, agent := m.c.Detail, s.Path, s.AgentKind
	return func() tea.Msg {
		fd, err := rd.Read(path, agent)
		return detailLoadedMsg{path: path, fd: fd, err: err}
	}
}

// openToolCall shows a call and re-parses its stream off the UI
// goroutine, with a spinner, unless it is already parsed.
func (m *App) openToolCall(id string) tea.Cmd {
	s := m.session.s
	tc := toolCall(s, id)
	if tc == nil {
		return nil
	}
	m.screen = screenToolCall
	m.tool.setCall(s, tc)
	if fd, ok := m.details[s.Path]; ok {
		m.tool.setDetail(fd.Calls[id], nil, nil)
		if fd.Calls[id] != nil {
			return nil
		}
	}
	if s.Path == "" {
		m.tool.setDetail(nil, nil, errors.New("the store does not know this session's stream file"))
		return nil
	}
	rd, path, agent, call := m.c.Detail, s.Path, s.AgentKind, *tc
	load := func() tea.Msg {
		fd, err := rd.Read(path, agent)
		msg := detailLoadedMsg{path: path, callID: call.ID, fd: fd, err: err}
		if err == nil && fd.Calls[call.ID] == nil && call.Line > 0 {
			msg.raw, msg.err = rd.RawLines(path, nil, call.Line, max(call.EndLine, call.Line))
		}
		return msg
	}
	if m.c.Animate {
		return tea.Batch(load, m.spinner.Tick)
	}
	return load
}

func (m *App) handleDetail(msg detailLoadedMsg) tea.Cmd {
	if msg.fd != nil {
		// Keep the detail of a few streams: one holds every call's output.
		if len(m.details) >= 8 {
			clear(m.details)
		}
		m.details[msg.path] = msg.fd
	}
	if m.session.s != nil && m.session.s.Path == msg.path && (msg.fd != nil || msg.callID == "") {
		var conv *detail.Conversation
		if msg.fd != nil {
			conv = &msg.fd.Conv
		}
		m.session.setConversation(conv, msg.err)
	}
	if m.tool.call == nil || m.tool.call.ID != msg.callID || m.tool.s.Path != msg.path {
		return nil
	}
	var cd *detail.Call
	if msg.fd != nil {
		cd = msg.fd.Calls[msg.callID]
	}
	m.tool.setDetail(cd, msg.raw, msg.err)
	return nil
}

func (m *App) openHistory(k review.SessionKey) tea.Cmd {
	m.history = &historyView{c: m.c, key: k, loading: true}
	st := m.c.Store
	return func() tea.Msg {
		ds, err := st.Decisions(context.Background(), k)
		return historyLoadedMsg{key: k, decisions: ds, err: err}
	}
}

func (m *App) handleHistory(msg historyLoadedMsg) tea.Cmd {
	if m.history == nil || m.history.key != msg.key {
		return nil
	}
	if msg.err != nil {
		m.history = nil
		return reportErr(msg.err)
	}
	m.history.decisions, m.history.loading = msg.decisions, false
	return nil
}
