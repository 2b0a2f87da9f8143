package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// historySession is a Gemini CLI chat as the inbox gets it from an agent
// history whose project only the CLI's 64-hex project hash names: its
// work item is the hash, its project (review.Session.Project) the label
// the program gave it.
func historySession(t *testing.T) (review.Session, string) {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "testdata", "history", "gemini", "e2e-gemini-cli-0.61.0-scripted.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sum, _, err := ingest.AnalyzeFile(path, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hash := strings.Repeat("9c4e17a2", 8)
	sum.WorkItemID, sum.FileName, sum.Phase = hash, "session-1.jsonl", ingest.PhaseInteractive
	return review.Session{Summary: *sum, Path: path, Project: review.ShortHash(hash)}, hash
}

// TestHistorySessionNamedByProject: the inbox's row, its group header and
// the session screen's header name a history session by its project, not
// by its work item (a 64-hex hash here); at 120 columns the session
// header then holds every figure up to the outcome.
func TestHistorySessionNamedByProject(t *testing.T) {
	s, hash := historySession(t)
	label := s.Project + " · interactive"
	m := newTestApp(t, 120, 36, NewMemStore([]review.Session{s}))
	inbox := screenText(m)
	if !strings.Contains(inbox, label) || strings.Contains(inbox, hash[:16]) {
		t.Fatalf("the inbox row does not name the project %q:\n%s", label, inbox)
	}
	press(t, m, m.c.Keys.Group)
	if grouped := screenText(m); !strings.Contains(grouped, "▾ "+s.Project+" · 1 session") {
		t.Fatalf("the group header does not name the project %q:\n%s", s.Project, grouped)
	}
	press(t, m, m.c.Keys.Group, m.c.Keys.Enter)
	screen := screenText(m)
	checkFrame(t, m, 120, 36)
	var header string
	for l := range strings.SplitSeq(screen, "\n") {
		if strings.Contains(l, label) && !strings.Contains(l, "sift ›") {
			header = l
			break
		}
	}
	if header == "" || strings.Contains(screen, hash[:16]) {
		t.Fatalf("the session header does not name the project %q:\n%s", label, screen)
	}
	if want := " · " + s.Outcome.Word(); !strings.HasSuffix(strings.TrimRight(header, " "), want) {
		t.Errorf("the session header is cut at 120 columns, want it to end in %q:\n%s", want, header)
	}
}

// TestStoreWrittenReloadsAtOnce: a session the program's own background
// work wrote (the history watch's import) shows when the program says so,
// without waiting for the poll; a rescan asked by r reaches the program.
func TestStoreWrittenReloadsAtOnce(t *testing.T) {
	st := NewMemStore(fixtureSessions(t)[:1])
	rescans := 0
	m, err := NewApp(Options{Store: st, Theme: "dark", Now: func() time.Time { return testNow }, NoAnimation: true,
		Reviewer: "tester", Rescan: func() { rescans++ }})
	if err != nil {
		t.Fatal(err)
	}
	run(t, m, m.Init())
	send(t, m, tea.WindowSizeMsg{Width: 120, Height: 36})
	s, _ := historySession(t)
	st.Add(s)
	if strings.Contains(screenText(m), s.Project) {
		t.Fatal("the new session showed before anything told the inbox")
	}
	send(t, m, StoreWrittenMsg{})
	if !strings.Contains(screenText(m), s.Project+" · ") {
		t.Fatalf("the session written in the background does not show:\n%s", screenText(m))
	}
	press(t, m, m.c.Keys.Refresh)
	if rescans != 1 {
		t.Fatalf("r asked for %d rescans, want 1", rescans)
	}
}
