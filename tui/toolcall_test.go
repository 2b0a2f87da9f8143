package tui

import (
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// TestSearchInACallIsAnInputMode: while the query is typed, no global key
// fires (q, ?, v, r are letters of it); the matches are counted and
// followed with n/N; esc drops the query.
func TestSearchInACallIsAnInputMode(t *testing.T) {
	m := newTestApp(t, 120, 36, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	press(t, m, k.SortBy(review.SortCost), k.Top, k.Enter, k.Enter, k.Enter, k.NextCall, k.Search)
	if quit := press(t, m, k.Quit, k.Help, k.View, k.Refresh); quit || m.showHelp || m.c.Mode != Developer {
		t.Fatalf("a global key fired while typing: quit %v, help %v, mode %s", quit, m.showHelp, m.c.Mode)
	}
	if m.tool.query != "q?vr" {
		t.Fatalf("query %q, want the keys typed", m.tool.query)
	}
	send(t, m, keyMsg(t, k.Back))
	if m.tool.searching || m.tool.query != "" || m.screen != screenToolCall {
		t.Fatalf("esc: searching %v, query %q, screen %d", m.tool.searching, m.tool.query, m.screen)
	}
	press(t, m, k.Search)
	typeText(t, m, "DEV-BROWSER")
	press(t, m, k.Enter)
	if len(m.tool.matches) < 2 || !strings.Contains(screenText(m), "/DEV-BROWSER 1/") {
		t.Fatalf("matches %v:\n%s", m.tool.matches, screenText(m))
	}
	press(t, m, k.NextMatch)
	if m.tool.match != 1 {
		t.Errorf("n: match %d", m.tool.match)
	}
	press(t, m, k.PrevMatch, k.PrevMatch)
	if m.tool.match != len(m.tool.matches)-1 {
		t.Errorf("N twice from the second match: %d, want the last", m.tool.match)
	}
	// The search belongs to its call: the next call has none, and it is
	// back with its call (issue 29, item 9: it stuck to every later call
	// of every session).
	press(t, m, k.NextCall)
	if got := screenText(m); m.tool.query != "" || len(m.tool.matches) != 0 || strings.Contains(got, "/DEV-BROWSER") ||
		!strings.Contains(got, "call 3/8") {
		t.Errorf("] kept the search of call 2, or lost the position:\n%s", got)
	}
	press(t, m, k.PrevCall)
	if got := screenText(m); m.tool.query != "DEV-BROWSER" || !strings.Contains(got, "/DEV-BROWSER ") {
		t.Errorf("[ back to call 2 lost its search:\n%s", got)
	}
	press(t, m, k.PrevCall)
	if !strings.Contains(screenText(m), "call 1/8") || m.tool.query != "" {
		t.Errorf("[ [:\n%s", screenText(m))
	}
	// Nor does it follow into another session's calls.
	press(t, m, k.NextCall)
	for i := 0; i < 4 && m.screen != screenInbox; i++ {
		press(t, m, k.Back)
	}
	press(t, m, k.Down, k.Enter)
	run(t, m, m.openToolCall(m.session.s.ToolCalls[0].ID))
	if m.screen != screenToolCall || m.tool.query != "" || strings.Contains(screenText(m), "/DEV-BROWSER") {
		t.Errorf("another session's call shows the search:\n%s", screenText(m))
	}
}

// TestWrapAndTrueLineCounts: a long output line wraps onto rows, and the
// label counts lines of text, not rows; w unwraps.
func TestWrapAndTrueLineCounts(t *testing.T) {
	m := newTestApp(t, 80, 30, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	selectRow(t, m, deniedSession)
	press(t, m, k.Enter, k.Enter, k.Enter)
	wrapped := len(m.tool.body)
	got := screenText(m)
	if !strings.Contains(got, "─ input (5 lines)") {
		t.Fatalf("the input's label counts rows:\n%s", got)
	}
	press(t, m, k.Wrap)
	if len(m.tool.body) >= wrapped || !strings.Contains(screenText(m), "─ input (5 lines)") {
		t.Errorf("w: %d rows, wrapped %d", len(m.tool.body), wrapped)
	}
}

// TestFailedCallShowsItsErrorOnce: a call whose output is its error shows
// it once, under error.
func TestFailedCallShowsItsErrorOnce(t *testing.T) {
	m := newTestApp(t, 120, 36, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	selectRow(t, m, deniedSession)
	press(t, m, k.Enter, k.Enter, k.Enter)
	got := screenText(m)
	if n := strings.Count(got, "Command contains output redirection"); n != 1 || strings.Contains(got, "─ output") {
		t.Errorf("the error shows %d times:\n%s", n, got)
	}
}

// TestFollowupsTitleCounts: F's title counts the open follow-ups in
// words that read ("3 open", not "3 opens"; issue 29, item 9).
func TestFollowupsTitleCounts(t *testing.T) {
	m := newTestApp(t, 120, 36, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	for range 3 {
		press(t, m, k.Followup)
		typeText(t, m, "rerun it")
		press(t, m, k.Enter, k.Down)
	}
	press(t, m, k.Followups)
	if got := screenText(m); len(m.followups.fs) != 3 || !strings.Contains(got, "follow-ups · 3 open ") || strings.Contains(got, "opens") {
		t.Errorf("F with %d follow-ups:\n%s", len(m.followups.fs), got)
	}
}

// TestFollowupsListCopiesTheResumeCommand: F lists the follow-up x
// recorded, with its resume command, which y copies.
func TestFollowupsListCopiesTheResumeCommand(t *testing.T) {
	m := newTestApp(t, 120, 36, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	selectRow(t, m, deniedSession)
	press(t, m, k.Enter, k.Enter, k.Enter, k.Followup)
	typeText(t, m, "rerun it")
	press(t, m, k.Enter, k.Followups)
	if m.followups == nil || len(m.followups.fs) != 1 {
		t.Fatalf("F: %+v", m.followups)
	}
	press(t, m, k.Copy)
	got := screenText(m)
	if !strings.Contains(got, "copied the resume command (OSC 52): claude --resume") {
		t.Errorf("y:\n%s", got)
	}
}
