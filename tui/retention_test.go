package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestEmptyInboxWhileImporting: while the background import runs, an
// empty list says how far it is, never "no sessions yet"; once it ends,
// the sessions it wrote are drawn.
func TestEmptyInboxWhileImporting(t *testing.T) {
	t.Parallel()
	st := NewMemStore(nil)
	m := newTestApp(t, 120, 30, st)
	send(t, m, ImportProgressMsg{Files: 55, Total: 5400})
	v := m.View().Content
	if strings.Contains(v, "no sessions yet") || strings.Count(v, "importing 55 of 5,400 files…") != 2 {
		t.Fatalf("an empty inbox during an import (list and status line):\n%s", v)
	}
	sessions := fixtureSessions(t)
	st.Add(sessions...)
	send(t, m, ImportProgressMsg{Files: 5400, Total: 5400, Sessions: len(sessions), Done: true})
	v = m.View().Content
	if strings.Contains(v, "importing") || !strings.Contains(v, plural(len(sessions), "session")) {
		t.Fatalf("the inbox after the import:\n%s", v)
	}
}

// TestSweepReloadsTheInbox: a background sweep's line shows what it
// removed, and the list and the title's count follow at once.
func TestSweepReloadsTheInbox(t *testing.T) {
	t.Parallel()
	sessions := fixtureSessions(t)
	st := NewMemStore(sessions)
	m := newTestApp(t, 120, 30, st)
	if v := m.View().Content; !strings.Contains(v, plural(len(sessions), "session")) {
		t.Fatalf("title before the sweep:\n%s", v)
	}
	st.mu.Lock()
	st.sessions = st.sessions[1:]
	st.mu.Unlock()
	send(t, m, SweepMsg{Removed: "1 file (0.1 MB), 1 session, review events of 0 sessions"})
	v := m.View().Content
	if !strings.Contains(v, plural(len(sessions)-1, "session")) ||
		!strings.Contains(v, "retention: removed 1 file (0.1 MB), 1 session, review events of 0 sessions") {
		t.Fatalf("the inbox after a sweep:\n%s", v)
	}
}

func TestGroupDigits(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 5400: "5,400", 1234567: "1,234,567", -5400: "-5,400"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestHelpShowsCoverage: the inbox's help shows what sift has seen, read
// when it opens.
func TestHelpShowsCoverage(t *testing.T) {
	t.Parallel()
	m, err := NewApp(Options{Store: NewMemStore(fixtureSessions(t)), Theme: "dark", NoAnimation: true,
		Coverage: func(context.Context) ([]string, error) {
			return []string{"logs folder /l: 3 stream files; last import 1m ago: 3 found, 1 imported, 2 unchanged, 0 unparseable",
				"retention: last sweep 2m ago by inbox removed 0 files, 0 sessions, review events of 1 session"}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	run(t, m, m.Init())
	send(t, m, tea.WindowSizeMsg{Width: 160, Height: 50})
	press(t, m, m.c.Keys.Help)
	v := m.View().Content
	if !strings.Contains(v, "coverage (sift status)") || !strings.Contains(v, "3 found, 1 imported, 2 unchanged, 0 unparseable") ||
		!strings.Contains(v, "review events of 1 session") {
		t.Fatalf("help without the coverage:\n%s", v)
	}
}
