package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestTabsNarrowTheList: ] and [ cycle the tabs (the built-in ones, then
// the configuration's); a tab's query, the `/` search and the quick
// filters all hold at once; the tab bar names the tab with the counts of
// every tab, and the title counts what the tab calls left to do.
func TestTabsNarrowTheList(t *testing.T) {
	st := NewMemStore(fixtureSessions(t))
	m, err := NewApp(Options{Store: st, Theme: "dark", Now: func() time.Time { return testNow }, NoAnimation: true, Reviewer: "tester",
		Tabs: []Tab{{Name: "codex", Query: "agent:codex"}}})
	if err != nil {
		t.Fatal(err)
	}
	run(t, m, m.Init())
	send(t, m, tea.WindowSizeMsg{Width: 120, Height: 36})
	k := m.c.Keys
	bar := func() string { return strings.SplitN(screenText(m), "\n", 3)[1] }
	if got := bar(); !strings.Contains(got, "[all 12] ─ to review 7 ─ failed 3 ─ follow-ups 0 ─ mine 0 ─ codex 2 ─") {
		t.Fatalf("tab bar %q", got)
	}
	press(t, m, k.NextTab)
	if got := bar(); !strings.Contains(got, "[to review 7]") || m.inbox.total != 7 {
		t.Fatalf("] does not switch to the to review tab: %q, %d sessions", got, m.inbox.total)
	}
	for _, s := range m.inbox.win {
		if !todo(&s) {
			t.Errorf("the to review tab lists %s, not left to review", s.Key())
		}
	}
	if got := screenText(m); !strings.Contains(got, "7 sessions · 7 to review") {
		t.Errorf("title:\n%s", got)
	}
	// The search and the tab both hold.
	press(t, m, k.Filter)
	typeText(t, m, "agent:claude")
	send(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.inbox.total != 2 {
		t.Errorf("to review and agent:claude: %d sessions, want the 2 flagged claude ones", m.inbox.total)
	}
	press(t, m, k.Back, k.NextTab)
	if m.inbox.total != 3 {
		t.Errorf("the failed tab: %d sessions, want 3", m.inbox.total)
	}
	for _, s := range m.inbox.win {
		if o := sessionOutcome(&s); o != "failed" && o != "died_before_start" && o != "interrupted" {
			t.Errorf("the failed tab lists %s, %s", s.Key(), o)
		}
	}
	// A quick filter holds too: the failed codex runs.
	selectRow(t, m, "ENG-420 · work-1")
	press(t, m, k.Agent)
	if m.inbox.total != 1 {
		t.Errorf("failed and codex only: %d sessions, want 1", m.inbox.total)
	}
	press(t, m, k.Agent, k.NextTab)
	if got := screenText(m); !strings.Contains(got, "0 sessions · 0 open") || !strings.Contains(got, "no sessions in this tab") {
		t.Errorf("the follow-ups tab counts its sessions as open:\n%s", got)
	}
	press(t, m, k.NextTab, k.NextTab)
	if got := bar(); !strings.Contains(got, "[codex 2]") || m.inbox.total != 2 {
		t.Errorf("the configuration's tab: %q, %d sessions", got, m.inbox.total)
	}
	press(t, m, k.NextTab)
	if !strings.Contains(bar(), "[all 12]") {
		t.Errorf("] past the last tab does not come back to the first: %q", bar())
	}
	press(t, m, k.PrevTab)
	if !strings.Contains(bar(), "[codex 2]") {
		t.Errorf("[ does not go back: %q", bar())
	}
	// A decision recounts the tabs.
	press(t, m, k.PrevTab, k.PrevTab, k.PrevTab, k.PrevTab)
	press(t, m, k.Decide, k.Reviewed, k.Enter)
	if got := bar(); !strings.Contains(got, "to review 6") {
		t.Errorf("after a decision the tab bar reads %q", got)
	}
}
