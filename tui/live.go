package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/review"
)

// pollEvery is how often the app asks the store whether anything wrote
// to it: a write by another process (an import, a decision, a running
// `sift run`) shows within about a second, without r.
const pollEvery = time.Second

// StoreWrittenMsg tells the app that its own program wrote to the store
// in the background (the watch of the agent histories imported): the
// inbox reloads now rather than at its next poll.
type StoreWrittenMsg struct{}

type (
	// pollMsg is the poll's tick: time to ask the store for its version.
	pollMsg struct{}
	// changedMsg is sent when the store's version returns.
	changedMsg struct {
		v   uint64
		err error
	}
)

// poll schedules the next poll; none without animation (tests send
// pollMsg themselves).
func (m *App) poll() tea.Cmd {
	if !m.c.Animate {
		return nil
	}
	return tea.Tick(pollEvery, func(time.Time) tea.Msg { return pollMsg{} })
}

// changeWaiter is a store that can wait for its version to change:
// PostgreSQL's store is told of other machines' writes as they commit
// (LISTEN/NOTIFY), so the inbox shows them at once rather than at the
// next poll.
type changeWaiter interface {
	WaitChanged(ctx context.Context, since uint64) (uint64, error)
}

// waitFor bounds one wait for a change; the app then waits again.
const waitFor = time.Minute

// next waits for the store's next change where it can (changeWaiter),
// and otherwise schedules the next poll.
func (m *App) next() tea.Cmd {
	w, ok := m.c.Store.(changeWaiter)
	if !m.c.Animate || !ok || !m.versionKnown {
		return m.poll()
	}
	since := m.version
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		v, err := w.WaitChanged(ctx, since)
		return changedMsg{v: v, err: err}
	}
}

// askVersion asks the store for its version.
func (m *App) askVersion() tea.Cmd {
	st := m.c.Store
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		v, err := st.Changed(ctx)
		return changedMsg{v: v, err: err}
	}
}

// handleChanged reloads what the app shows when the store changed since
// the last poll, and waits for the next change or schedules the next
// poll (next). The inbox reloads in place,
// keeping its selection, when it is in front and the reviewer is not
// typing or in a dialog; otherwise the reload waits (pendingReload) until
// they are back. An open session that is still running is read again.
func (m *App) handleChanged(msg changedMsg) tea.Cmd {
	if msg.err != nil {
		// A failing store is asked again after a poll's pause.
		return tea.Batch(m.poll(), reportErr(msg.err))
	}
	if !m.versionKnown {
		m.version, m.versionKnown = msg.v, true
		return m.next()
	}
	if msg.v == m.version {
		return m.next()
	}
	m.version = msg.v
	cmds := []tea.Cmd{m.next()}
	if m.screen != screenInbox && m.session.s != nil && m.session.s.Live == review.LiveRunning {
		cmds = append(cmds, m.loadSession(m.session.s.Key(), m.session.search, 0))
	}
	return tea.Batch(append(cmds, m.reloadInbox())...)
}

// reloadInbox reloads the inbox in place when the reviewer is looking at
// it and not busy with it; otherwise it marks the reload pending, for
// when the dialog closes (going back to the inbox reloads it anyway). The
// status line is left alone: it says what the reviewer just did, and the
// change may be that.
func (m *App) reloadInbox() tea.Cmd {
	if m.screen == screenInbox && !m.overlay() && !m.inbox.filtering {
		m.pendingReload = false
		m.inbox.invalidatePreview()
		return m.inbox.reload()
	}
	m.pendingReload = true
	return nil
}

// livePrefix is what the last words column says of a running, an
// interrupted or a reopened session before its last words: "running ·
// Bash", "waiting for approval · Bash", "stalled · Bash", "interrupted",
// "new since your decision"; "" for any other session.
func livePrefix(s *review.Session) string {
	tool := ""
	if s.LiveTool != "" {
		tool = " · " + Inert(s.LiveTool)
	}
	switch {
	case s.Live == review.LiveRunning && s.LiveWait == review.WaitApproval:
		return "waiting for approval" + tool
	case s.Live == review.LiveRunning && s.LiveWait == review.WaitStall:
		return "stalled" + tool
	case s.Live == review.LiveRunning:
		return "running" + tool
	case s.Live == review.LiveInterrupted:
		return "interrupted"
	case s.NewSince > 0:
		return "new since your decision"
	}
	return ""
}

// elapsed is a running session's time so far: from its start to now.
func elapsed(s *review.Session, now time.Time) string {
	if s.StartedAt == nil || s.StartedAt.IsZero() {
		return dash
	}
	return fmtDur(max(now.Sub(*s.StartedAt), 0))
}

// liveBadge is the badge of a running session (the spinner's frame), an
// interrupted one, or one with lines new since its decision; "" for any
// other session.
func (m *inboxView) liveBadge(s *review.Session) string {
	st := m.c.Styles
	switch {
	case s.Live == review.LiveRunning && s.LiveWait != "":
		return st.Badge.Approval.Render(m.spin)
	case s.Live == review.LiveRunning:
		return st.Badge.OK.Render(m.spin)
	case s.Live == review.LiveInterrupted:
		return st.Badge.Error.Render("✗")
	case s.NewSince > 0:
		return st.Badge.Flagged.Render("+")
	}
	return ""
}

// running reports whether a loaded row is a running session: the spinner
// turns while one is.
func (m *inboxView) running() bool {
	for i := range m.win {
		if m.win[i].Live == review.LiveRunning {
			return true
		}
	}
	return false
}
