package tui

import (
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// TestSessionShowsErrorsStderrAndPrompt: a gemini run that failed shows,
// from its stream's re-parse, its prompt on the prompt row, and on the
// final row the harness's error and the captured stderr lines, each with
// its line number.
func TestSessionShowsErrorsStderrAndPrompt(t *testing.T) {
	s := analyzeFixture(t, fixture{workItem: "ENG-9", name: "work-1-abc123.jsonl", src: "gemini/e2e-gemini-cli-0.61.0-model-error.jsonl"})
	m := newTestApp(t, 120, 60, NewMemStore([]review.Session{s}))
	k := m.c.Keys
	press(t, m, k.Enter)
	if m.session.conv == nil {
		t.Fatal("the stream was not re-parsed when the session opened")
	}
	press(t, m, k.Top)
	got := screenText(m)
	for _, want := range []string{"─ prompt · ", "prompt    (line 8)", "Check the environment and report."} {
		if !strings.Contains(got, want) {
			t.Errorf("the prompt row lacks %q:\n%s", want, got)
		}
	}
	press(t, m, k.Bottom)
	got = screenText(m)
	for _, want := range []string{"✗ errors  line 12: [API Error:", "stderr    line 1: Warning: 256-color support not detected.",
		"line 13: Error when talking to Gemini API"} {
		if !strings.Contains(got, want) {
			t.Errorf("the final row lacks %q:\n%s", want, got)
		}
	}
}

// TestExpandShowsTheTurnsTextInFull: t replaces a turn's calls with its
// text and thinking in full, which the pane scrolls, and t again brings
// the calls back.
func TestExpandShowsTheTurnsTextInFull(t *testing.T) {
	s := analyzeFixture(t, fixture{workItem: "ENG-9", name: "work-1-abc123.jsonl", src: "claude/vincent-2.1.226-permission-denied-tool-error.jsonl"})
	m := newTestApp(t, 80, 24, NewMemStore([]review.Session{s}))
	k := m.c.Keys
	press(t, m, k.Enter)
	got := screenText(m)
	if !strings.Contains(got, "thinking  13 lines · t shows it · The user wants me") || !strings.Contains(got, "t shows it") {
		t.Fatalf("the turn's pane does not name its thinking, collapsed:\n%s", got)
	}
	press(t, m, k.Expand)
	if !m.session.scrolls() || !strings.Contains(screenText(m), "text in full") {
		t.Fatalf("t does not show the text in full:\n%s", screenText(m))
	}
	last := "Let me create the file with the Write tool."
	if strings.Contains(screenText(m), last) {
		t.Fatal("the thinking fits the pane: the test needs a longer one")
	}
	press(t, m, k.Enter, k.Bottom)
	if !strings.Contains(screenText(m), last) {
		t.Errorf("the pane does not scroll to the thinking's end:\n%s", screenText(m))
	}
	press(t, m, k.Back, k.Expand)
	if m.session.scrolls() || !strings.Contains(screenText(m), "Write: C:\\work\\repo\\hello.txt") {
		t.Errorf("t again does not bring the calls back:\n%s", screenText(m))
	}
}

// TestHeaderShowsTheCommitsOfTheRun: the session header names the commits
// sift run recorded before and after the run.
func TestHeaderShowsTheCommitsOfTheRun(t *testing.T) {
	s := analyzeFixture(t, fixture{workItem: "ENG-9", name: "work-1-abc123.jsonl", src: "claude/evolve-2.1.7-run1-write-file.jsonl"})
	s.GitBefore, s.GitAfter = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", "e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d"
	s.Cwd = "/home/user/workspace"
	m := newTestApp(t, 120, 36, NewMemStore([]review.Session{s}))
	press(t, m, m.c.Keys.Enter)
	got := screenText(m)
	if !strings.Contains(got, "changed 1 file +1 −0 in output: helloworld.txt +1 −0 · git a1b2c3d → e4f5a6b") {
		t.Errorf("the header does not say what the run changed:\n%s", got)
	}
}
