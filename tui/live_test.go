package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
)

// TestPollReloadsInPlaceKeepingTheSelection: a session another process
// stored shows at the next poll, without r, with the title's figures; the
// selected session stays selected.
func TestPollReloadsInPlaceKeepingTheSelection(t *testing.T) {
	all := fixtureSessions(t)
	st := NewMemStore(all[:6])
	m := newTestApp(t, 120, 30, st)
	if s := screenText(m); !strings.Contains(s, "6 sessions") {
		t.Fatalf("first screen:\n%s", s)
	}
	press(t, m, m.c.Keys.Down, m.c.Keys.Down)
	want := m.inbox.selected().Key()

	send(t, m, pollMsg{}) // nothing changed: nothing reloads
	st.Add(all[6:]...)
	send(t, m, pollMsg{})
	s := screenText(m)
	if !strings.Contains(s, "12 sessions") {
		t.Fatalf("after a poll the title does not count the new sessions:\n%s", s)
	}
	if got := m.inbox.selected(); got == nil || got.Key() != want {
		t.Fatalf("selection %v after the reload, want %v", got, want)
	}
}

// TestPollWhileInASessionWaits: a change seen while a session is open
// waits for the inbox, which reloads on the way back; the status line
// keeps what it said.
func TestPollWhileInASessionWaits(t *testing.T) {
	all := fixtureSessions(t)
	st := NewMemStore(all[:6])
	m := newTestApp(t, 120, 30, st)
	press(t, m, m.c.Keys.Enter)
	if m.screen != screenSession {
		t.Fatal("enter did not open the session")
	}
	st.Add(all[6:]...)
	send(t, m, statusMsg{text: "reviewed ENG-412"}, pollMsg{})
	if s := screenText(m); !strings.Contains(s, "reviewed ENG-412") || !m.pendingReload {
		t.Fatalf("the poll replaced the status line, or no reload waits (%v):\n%s", m.pendingReload, s)
	}
	press(t, m, m.c.Keys.Back)
	if s := screenText(m); !strings.Contains(s, "12 sessions") {
		t.Fatalf("back in the inbox, no reload:\n%s", s)
	}
}

// TestLiveAndReopenedRows: a running session shows the spinner, its
// elapsed time and its current tool; one waiting for approval says so;
// an interrupted one and one with lines new since its decision are
// marked; the reopened one opens at its first new turn.
func TestLiveAndReopenedRows(t *testing.T) {
	all := fixtureSessions(t)
	start := testNow.Add(-95 * time.Second)
	run, wait, gone, grown := all[1], all[9], all[4], all[0]
	run.Live, run.LiveTool, run.StartedAt = review.LiveRunning, "Bash", &start
	wait.Live, wait.LiveTool, wait.LiveWait = review.LiveRunning, "Write", review.WaitApproval
	gone.Live = review.LiveInterrupted
	if len(grown.Turns) < 2 {
		t.Fatalf("fixture %s has %d turns", grown.FileName, len(grown.Turns))
	}
	grown.NewSince = grown.Turns[1].Line - 1
	m := newTestApp(t, 160, 30, NewMemStore([]review.Session{run, wait, gone, grown}))
	press(t, m, m.c.Keys.Preview) // the list alone: room for the last words
	s := screenText(m)
	for _, want := range []string{"running · Bash", "1m35s", "waiting for approval · Write", "interrupted", "new since your decision"} {
		if !strings.Contains(s, want) {
			t.Errorf("the inbox does not show %q:\n%s", want, s)
		}
	}
	for m.inbox.selected() != nil && m.inbox.selected().Key() != grown.Key() {
		press(t, m, m.c.Keys.Down)
	}
	press(t, m, m.c.Keys.Enter)
	if m.screen != screenSession || m.session.turn() == nil || m.session.turn().TurnID != grown.Turns[1].TurnID {
		t.Fatalf("the reopened session did not open at its first new turn %s:\n%s", grown.Turns[1].TurnID, screenText(m))
	}
	if s := screenText(m); !strings.Contains(s, "new since your decision") {
		t.Errorf("the session's title does not say it grew:\n%s", s)
	}
}
