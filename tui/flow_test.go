package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/charmbracelet/x/ansi"
)

// lastLine is the frame's last line: the footer.
func lastLine(m *App) string {
	lines := strings.Split(screenText(m), "\n")
	return lines[len(lines)-1]
}

// TestTurnDecisionRollsUpToTheInbox: deciding the one flagged turn of a
// session from inside it decides the session in the inbox (its badge,
// the count left to review), and the status line names what was decided.
func TestTurnDecisionRollsUpToTheInbox(t *testing.T) {
	st := NewMemStore(fixtureSessions(t))
	m := newTestApp(t, 120, 36, st)
	k := m.c.Keys
	selectRow(t, m, deniedSession)
	first := m.inbox.selected().Key()
	press(t, m, k.Enter, k.Decide, k.Reviewed, k.Enter)
	if got := screenText(m); !strings.Contains(got, "reviewed ENG-412 · rework-2 (t1)") {
		t.Fatalf("the status line does not name the decision:\n%s", got)
	}
	if !strings.Contains(screenText(m), "✓ t1") {
		t.Errorf("the turn has no reviewed badge:\n%s", screenText(m))
	}
	press(t, m, k.Back)
	sess, _ := st.GetSession(context.Background(), first)
	if sess.State != review.Reviewed || sess.Decision != nil {
		t.Fatalf("session state %q, decision %+v: want the turn's review rolled up, no session decision", sess.State, sess.Decision)
	}
	got := screenText(m)
	if !strings.Contains(got, "12 sessions · 6 to review") || !strings.Contains(got, "✓ claude   ENG-412 · rework-2") {
		t.Errorf("the inbox does not show the session decided:\n%s", got)
	}
}

// TestDecideSessionFromACallAndUndo: D decides the session from a tool
// call; z undoes it as a new event, and the history says so.
func TestDecideSessionFromACallAndUndo(t *testing.T) {
	st := NewMemStore(fixtureSessions(t))
	m := newTestApp(t, 120, 36, st)
	k := m.c.Keys
	selectRow(t, m, deniedSession)
	first := m.inbox.selected().Key()
	press(t, m, k.Enter, k.Enter, k.Enter, k.DecideSession)
	if m.dialog == nil || !strings.Contains(screenText(m), "decide · ENG-412 · rework-2 ") {
		t.Fatalf("D does not decide the session:\n%s", screenText(m))
	}
	press(t, m, k.Ignored, k.Enter)
	if !strings.Contains(screenText(m), "ignored ENG-412 · rework-2") {
		t.Fatalf("status:\n%s", screenText(m))
	}
	press(t, m, k.Undo)
	if got := screenText(m); !strings.Contains(got, "undid ignored on ENG-412 · rework-2") {
		t.Fatalf("z does not say what it undid:\n%s", got)
	}
	hist, _ := st.Decisions(context.Background(), first)
	if len(hist) != 2 || hist[1].Kind != review.Undone || hist[1].Supersedes != hist[0].ID {
		t.Fatalf("history %+v: want the decision and its undo", hist)
	}
	if sess, _ := st.GetSession(context.Background(), first); sess.State != "" {
		t.Errorf("state after the undo %q, want undecided", sess.State)
	}
	press(t, m, k.History)
	if got := screenText(m); !strings.Contains(got, "undid ignored") || !strings.Contains(got, "ignored (undone)") {
		t.Errorf("the history does not show the undo:\n%s", got)
	}
}

// TestMarkedSessionsAreDecidedTogether: m marks sessions, d decides them
// all with one choice, and the marks go.
func TestMarkedSessionsAreDecidedTogether(t *testing.T) {
	st := NewMemStore(fixtureSessions(t))
	m := newTestApp(t, 120, 36, st)
	k := m.c.Keys
	a := m.inbox.selected().Key()
	press(t, m, k.Mark)
	b := m.inbox.selected().Key()
	press(t, m, k.Mark)
	if !strings.Contains(screenText(m), "2 marked") {
		t.Fatalf("the title does not count the marks:\n%s", screenText(m))
	}
	press(t, m, k.Decide)
	if !strings.Contains(screenText(m), "decide · 2 marked sessions") {
		t.Fatalf("d does not decide the marked sessions:\n%s", screenText(m))
	}
	press(t, m, k.Ignored, k.Enter)
	for _, key := range []review.SessionKey{a, b} {
		if s, _ := st.GetSession(context.Background(), key); s.Decision == nil || s.Decision.Kind != review.Ignored {
			t.Errorf("%s: decision %+v, want ignored", key, s.Decision)
		}
	}
	if got := screenText(m); !strings.Contains(got, "ignored 2 sessions") || strings.Contains(got, "marked") {
		t.Errorf("after deciding the marked sessions:\n%s", got)
	}
}

// TestNextUndecidedAcrossSessions: J goes to the next flagged undecided
// item, in a session and past its last into the next session; K back.
func TestNextUndecidedAcrossSessions(t *testing.T) {
	m := newTestApp(t, 120, 36, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	press(t, m, k.Down, k.Down, k.Down, k.Down, k.Down, k.Down, k.Down)
	if todo(m.inbox.selected()) {
		t.Fatal("the eighth row is a todo: pick another start")
	}
	press(t, m, k.PrevTodo)
	if s := m.inbox.selected(); !todo(s) || m.inbox.cursor != 6 {
		t.Fatalf("K in the inbox went to row %d (%s)", m.inbox.cursor, s.Key())
	}
	press(t, m, k.Top, k.Enter)
	opened := m.session.s.Key()
	press(t, m, k.NextTodo)
	if m.screen != screenSession || m.session.s.Key() == opened {
		t.Fatalf("J past the session's last flagged turn stays in %s", m.session.s.Key())
	}
	if t1 := m.session.turn(); t1 == nil || len(t1.Flags) == 0 {
		t.Fatalf("J opened %s on an unflagged row", m.session.s.Key())
	}
	second := m.session.s.Key()
	press(t, m, k.PrevTodo)
	if m.session.s.Key() != opened {
		t.Errorf("K from %s went to %s, want back to %s", second, m.session.s.Key(), opened)
	}
}

// TestSelectionKeepsItsSessionThroughSorts: a new order keeps the
// selected session selected, wherever it goes.
func TestSelectionKeepsItsSessionThroughSorts(t *testing.T) {
	m := newTestApp(t, 120, 36, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	press(t, m, k.Down, k.Down, k.Down)
	want := m.inbox.selected().Key()
	for _, s := range review.SortKeys() {
		press(t, m, k.SortBy(s))
		if got := m.inbox.selected(); got == nil || got.Key() != want {
			t.Fatalf("sort %s: selected %v, want %s", s, got, want)
		}
	}
	press(t, m, k.Sort, k.Flagged, k.Group)
	if got := m.inbox.selected(); got == nil || got.Key() != want {
		t.Fatalf("s, f, w: selected %v, want %s", got, want)
	}
	if got := screenText(m); !strings.Contains(got, "stall▼") && !strings.Contains(got, "sort: ") {
		t.Errorf("frame:\n%s", got)
	}
}

// TestSortKeysAndCycleAgree: s cycles through the orders in the order of
// keys 0 to 7.
func TestSortKeysAndCycleAgree(t *testing.T) {
	m := newTestApp(t, 120, 36, NewMemStore(fixtureSessions(t)))
	for i, s := range review.SortKeys() {
		if m.inbox.q.Sort != s {
			t.Fatalf("after %d presses of s: sort %s, want %s (key %d)", i, m.inbox.q.Sort, s, i)
		}
		press(t, m, m.c.Keys.Sort)
	}
}

// TestEveryFrameEndsWithHelpAndTitleKeepsItsRight: on every screen and at
// every width the footer ends with "? help", and at 80 columns the title
// keeps its sort, filter and view, shortening its left.
func TestEveryFrameEndsWithHelpAndTitleKeepsItsRight(t *testing.T) {
	sessions := fixtureSessions(t)
	for _, w := range []int{80, 100, 120, 200} {
		m := newTestApp(t, w, 30, NewMemStore(sessions))
		k := m.c.Keys
		press(t, m, k.Flagged, k.Undecided, k.SortBy(review.SortCost), k.Group)
		for step := range 4 {
			if step > 0 {
				press(t, m, k.Enter)
			}
			if got := lastLine(m); !strings.HasSuffix(got, "? help") {
				t.Errorf("%d columns, screen %d: footer %q does not end with ? help", w, m.screen, got)
			}
		}
		m = newTestApp(t, w, 30, NewMemStore(sessions))
		press(t, m, k.Flagged, k.Undecided, k.SortBy(review.SortCost), k.Group)
		title := strings.Split(screenText(m), "\n")[0]
		for _, want := range []string{"sort: cost▼", "flagged,undecided", "grouped by work item", "developer"} {
			if !strings.Contains(title, want) {
				t.Errorf("%d columns: title %q lacks %q", w, title, want)
			}
		}
	}
}

// TestCallScreenSaysWhoDecidedIt: a decision made on a tool call shows in
// the call's own header, with who made it and when, and goes with its
// undo.
func TestCallScreenSaysWhoDecidedIt(t *testing.T) {
	st := NewMemStore(fixtureSessions(t))
	m := newTestApp(t, 160, 36, st)
	k := m.c.Keys
	selectRow(t, m, deniedSession)
	press(t, m, k.Enter, k.Enter, k.Enter)
	if m.screen != screenToolCall {
		t.Fatalf("screen %d, want the tool call", m.screen)
	}
	header := func() string { return ansi.Strip(m.tool.header()) }
	if strings.Contains(header(), "by tester") {
		t.Fatalf("an undecided call's header names a decision: %q", header())
	}
	press(t, m, k.Decide, k.Reviewed, k.Enter)
	want := "reviewed by tester, " + testNow.Local().Format("15:04")
	if m.screen != screenToolCall || !strings.Contains(header(), want) {
		t.Fatalf("the call's header after reviewing it: %q, want %q", header(), want)
	}
	press(t, m, k.Undo)
	if strings.Contains(header(), "by tester") {
		t.Errorf("the header still names the undone decision: %q", header())
	}
}
