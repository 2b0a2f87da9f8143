package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/review"
)

// Reviewing together: c claims the selected or open session for the
// reviewer, so that the others of a team leave it to them, and c on their
// own claim releases it. The rows and the session screen show who holds a
// claim and who decided what; a claim or decision the store could not
// record says so in the status line and shows nowhere as recorded.

type (
	// claimMsg asks the app to claim a session, or to release the
	// reviewer's own claim on it.
	claimMsg struct {
		target decisionTarget
		// held is the session's claim as shown, nil for none: the key
		// releases it when it is the reviewer's own and live.
		held *review.Claim
	}
	// claimDoneMsg is sent when the store has answered a claim or a
	// release.
	claimDoneMsg struct {
		target  decisionTarget
		release bool
		claim   review.Claim
		err     error
	}
)

// claimKey is the claim key's intent on a session.
func claimKey(s *review.Session) tea.Cmd {
	return intent(claimMsg{target: sessionTarget(s), held: s.Claim})
}

// claim records a claim in the store, or releases the reviewer's own
// live claim.
func (m *App) claim(msg claimMsg) tea.Cmd {
	st, rev, ttl, k := m.c.Store, m.c.Reviewer, m.c.ClaimTTL, msg.target.session
	release := msg.held.LiveAt(m.c.Now()) && msg.held.Reviewer == rev
	return func() tea.Msg {
		if release {
			return claimDoneMsg{target: msg.target, release: true, err: st.Release(context.Background(), k, rev)}
		}
		c, err := st.Claim(context.Background(), k, rev, ttl)
		return claimDoneMsg{target: msg.target, claim: c, err: err}
	}
}

// handleClaimed says what the store did with a claim and reloads what
// shows it. A session another reviewer holds is refused in one line
// naming them; a store that failed says the claim was not recorded.
func (m *App) handleClaimed(msg claimDoneMsg) tea.Cmd {
	var ce *review.ClaimedError
	switch {
	case errors.As(msg.err, &ce):
		return m.setStatus(Inert(msg.target.String()+" is claimed by "+ce.Claim.Reviewer+claimHost(&ce.Claim)+
			" since "+localClock(ce.Claim.ClaimedAt, m.c.Now())), true)
	case errors.Is(msg.err, review.ErrNotClaimed):
		return tea.Batch(m.setStatus(msg.target.String()+" is not claimed", false), m.reloadClaims(msg.target.session))
	case msg.err != nil && msg.release:
		return notRecorded("release of your claim on "+msg.target.String(), msg.err)
	case msg.err != nil:
		return notRecorded("claim on "+msg.target.String(), msg.err)
	}
	text := "released " + msg.target.String()
	if !msg.release {
		text = "claimed " + msg.target.String() + " until " + localClock(msg.claim.ExpiresAt, m.c.Now())
	}
	return tea.Batch(m.setStatus(text, false), m.reloadClaims(msg.target.session))
}

// reloadClaims reloads the inbox and, when k is open, its session: what
// shows a claim.
func (m *App) reloadClaims(k review.SessionKey) tea.Cmd {
	m.inbox.invalidatePreview()
	cmds := []tea.Cmd{m.inbox.reload()}
	if m.session.s != nil && m.session.s.Key() == k {
		cmds = append(cmds, m.loadSession(k, m.session.search, 0))
	}
	return tea.Batch(cmds...)
}

// notRecorded is the status of a write the store refused: what was not
// recorded and the error's short reason. The reason is the innermost
// error's text, redacted: a connection string's password, or a secret
// in it, is never shown.
func notRecorded(what string, err error) tea.Cmd {
	return reportErr(errors.New(what + " NOT recorded: " + shortReason(err)))
}

// shortReason is the innermost error of a chain (the driver's "database
// is closed", "connection refused"), on one line. Errors name sessions by
// their keys as shown (review.SessionKey.String: redacted).
func shortReason(err error) string {
	inner := err
	for {
		next := errors.Unwrap(inner)
		if next == nil {
			break
		}
		inner = next
	}
	return firstLine(strings.TrimSpace(inner.Error()))
}

// clock is the time now by the app's clock, or the system's when it has
// none (a Common built by a test).
func (c *Common) clock() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

// claimHost is " (host)" for a claim made on a named machine.
func claimHost(c *review.Claim) string {
	if c.Host == "" {
		return ""
	}
	return " (" + c.Host + ")"
}

// claimText is how a row and the session screen show a live claim:
// "claimed by ana"; "" when the session has none at now.
func claimText(c *review.Claim, now time.Time) string {
	if !c.LiveAt(now) {
		return ""
	}
	return "claimed by " + Inert(c.Reviewer)
}

// kindWords names a decision's kind in words: "needs follow-up".
func kindWords(k review.DecisionKind) string {
	if k == review.NeedsFollowup {
		return "needs follow-up"
	}
	return string(k)
}

// decidedBy says who decided what and when, in the reviewer's local time:
// "reviewed by ana, 09:14"; a decision of another day names it:
// "needs follow-up by bo, Nov 29 17:02".
func decidedBy(d *review.Decision, now time.Time) string {
	s := kindWords(d.Kind)
	if d.Reviewer != "" {
		s += " by " + Inert(d.Reviewer)
	}
	if !d.CreatedAt.IsZero() {
		s += ", " + localClock(d.CreatedAt, now)
	}
	return s
}

// localClock is a time in now's zone: its clock on now's day, else its
// date too.
func localClock(t, now time.Time) string {
	t = t.In(now.Location())
	if y, mo, d := t.Date(); y == now.Year() && mo == now.Month() && d == now.Day() {
		return t.Format("15:04")
	}
	return t.Format("Jan 02 15:04")
}

// reviewLine is the session screen's line of who reviews it: its
// decision ("reviewed by ana, 09:14") and its live claim.
func reviewLine(s *review.Session, now time.Time) string {
	var parts []string
	if s.Decision != nil {
		parts = append(parts, decidedBy(s.Decision, now))
	}
	if c := claimText(s.Claim, now); c != "" {
		parts = append(parts, c+" until "+localClock(s.Claim.ExpiresAt, now))
	}
	return strings.Join(parts, " · ")
}
