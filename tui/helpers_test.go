package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/capture"
	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// testNow is the fixed clock of the tests.
var testNow = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

// fixture places a real recorded stream as a session of a work item.
type fixture struct {
	workItem, name, src string
	// start and minutes give a timestamp-less stream its invocation
	// window.
	start   time.Time
	minutes int
}

// fixtures are the sessions of the test inbox: real streams from
// testdata/streams, with several agents, flagged turns, failures, stalls
// and approvals.
func fixtures() []fixture {
	night := time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC)
	return []fixture{
		{"ENG-412", "rework-2-a1b2c3.jsonl", "claude/claude-orchestrator-task-subagent-reserialized.jsonl", time.Time{}, 0},
		{"ENG-412", "work-1-0f3e2d.jsonl", "claude/evolve-2.1.5-skill-bash-read-image.jsonl", night.Add(10 * time.Minute), 3},
		{"ENG-398", "work-1-5c6d7e.jsonl", "droid/vibekanban-edits-and-execution.jsonl", time.Time{}, 0},
		{"ENG-398", "rework-1-9a8b7c.jsonl", "droid/vibekanban-insufficient-perms.jsonl", time.Time{}, 0},
		{"ENG-401", "audit-llm-security-1-1a2b3c.jsonl", "gemini/evolve-run2-resumed-four-tools.jsonl", time.Time{}, 0},
		{"ENG-401", "work-1-4d5e6f.jsonl", "gemini/evolve-background-truncated-no-result.jsonl", time.Time{}, 0},
		{"ENG-377", "merge-1-7e8f9a.jsonl", "opencode/ortus-1.18.27-three-runs-mcp.jsonl", time.Time{}, 0},
		{"ENG-377", "work-1-2b3c4d.jsonl", "codex/takopi-banteg-commands-reasoning.jsonl", night.Add(time.Hour), 22},
		{"ENG-420", "work-1-6a7b8c.jsonl", "codex/vincent-turn-failed-model-400.jsonl", night.Add(3 * time.Hour), 1},
		{"ENG-420", "work-2-c0ffee.jsonl", "claude/vincent-2.1.226-permission-denied-tool-error.jsonl", time.Time{}, 0},
		{"ENG-433", "work-1-b16b00.jsonl", "copilot/firaga-plaintext-stdout-stderr-stats.txt", time.Time{}, 0},
		{"ENG-433", "work-2-d00d1e.jsonl", "qwen/evolve-0.7.0-run2-resumed.jsonl", night.Add(4 * time.Hour), 2},
	}
}

// fixtureSessions summarizes the fixtures with the real summarizer.
func fixtureSessions(t testing.TB) []review.Session {
	t.Helper()
	var out []review.Session
	for _, f := range fixtures() {
		out = append(out, analyzeFixture(t, f))
	}
	return out
}

func analyzeFixture(t testing.TB, f fixture) review.Session {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "testdata", "streams", f.src))
	if err != nil {
		t.Fatal(err)
	}
	opt := summary.Options{}
	if !f.start.IsZero() {
		opt.Start, opt.End = f.start, f.start.Add(time.Duration(f.minutes)*time.Minute)
	}
	s, _, err := ingest.AnalyzeFile(path, opt)
	if err != nil {
		t.Fatalf("analyze %s: %v", f.src, err)
	}
	s.WorkItemID, s.FileName = f.workItem, f.name
	if phase, iter, ok := splitName(f.name); ok {
		s.Phase, s.Iteration = phase, &iter
	}
	return review.Session{Summary: *s, Path: path}
}

// splitName reads `<phase>-<iteration>-<hex6>.jsonl`.
func splitName(name string) (string, int, bool) {
	stem := strings.TrimSuffix(name, filepath.Ext(name))
	parts := strings.Split(stem, "-")
	if len(parts) < 3 {
		return "", 0, false
	}
	n := 0
	for _, r := range parts[len(parts)-2] {
		if r < '0' || r > '9' {
			return "", 0, false
		}
		n = n*10 + int(r-'0')
	}
	return strings.Join(parts[:len(parts)-2], "-"), n, true
}

// newTestApp builds an app of a fixed size over a store of sessions and
// loads its first page.
func newTestApp(t testing.TB, w, h int, st Store) *App {
	t.Helper()
	m, err := NewApp(Options{Store: st, Theme: "dark", Now: func() time.Time { return testNow }, NoAnimation: true, Reviewer: "tester",
		Resume: testResume})
	if err != nil {
		t.Fatal(err)
	}
	run(t, m, m.Init())
	send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// send delivers messages to the app and runs the commands they return,
// feeding their messages back, until none is left. It reports whether the
// app asked to quit.
func send(t testing.TB, m *App, msgs ...tea.Msg) bool {
	t.Helper()
	quit := false
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		quit = run(t, m, cmd) || quit
	}
	return quit
}

// run runs a command and delivers what it returns.
func run(t testing.TB, m *App, cmd tea.Cmd) bool {
	t.Helper()
	_, quit := runUntil(t, m, cmd, func(tea.Msg) bool { return false })
	return quit
}

// runUntil is run, except that the first message hold is true for is not
// delivered but returned (nil when none came), and the commands left then
// are dropped: a test delivers it when it chooses, after other messages.
func runUntil(t testing.TB, m *App, cmd tea.Cmd, hold func(tea.Msg) bool) (held tea.Msg, quit bool) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for n := 0; len(queue) > 0; n++ {
		if n > 500 {
			t.Fatal("commands do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			quit = true
		case execMsg:
			// The terminal is not handed to programs in tests.
		default:
			if hold(msg) {
				return msg, quit
			}
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
	return nil, quit
}

// keyMsg turns a binding's first key into a key press.
func keyMsg(t testing.TB, b key.Binding) tea.KeyPressMsg {
	t.Helper()
	k := b.Keys()[0]
	var msg tea.KeyPressMsg
	switch k {
	case "enter":
		msg = tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		msg = tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		msg = tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		msg = tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		msg = tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		msg = tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		msg = tea.KeyPressMsg{Code: tea.KeyRight}
	case "pgup":
		msg = tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		msg = tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		msg = tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		msg = tea.KeyPressMsg{Code: tea.KeyEnd}
	case "ctrl+c":
		msg = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	default:
		r, _ := utf8.DecodeRuneInString(k)
		msg = tea.KeyPressMsg{Code: r, Text: k}
	}
	if !key.Matches(msg, b) {
		t.Fatalf("key press %q does not match its binding %v", msg.String(), b.Keys())
	}
	return msg
}

// press presses bindings in order.
func press(t testing.TB, m *App, bs ...key.Binding) bool {
	t.Helper()
	quit := false
	for _, b := range bs {
		quit = send(t, m, keyMsg(t, b)) || quit
	}
	return quit
}

// typeText types text into whatever has the keys.
func typeText(t testing.TB, m *App, s string) {
	t.Helper()
	for _, r := range s {
		if r == ' ' {
			send(t, m, tea.KeyPressMsg{Code: ' ', Text: " "})
			continue
		}
		send(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screenText is the frame without styling.
func screenText(m *App) string { return ansi.Strip(m.View().Content) }

// checkFrame fails when the frame is not exactly the terminal's size.
func checkFrame(t testing.TB, m *App, w, h int) {
	t.Helper()
	lines := strings.Split(m.View().Content, "\n")
	if len(lines) != h {
		t.Errorf("%dx%d: frame has %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%dx%d: line %d is %d wide: %q", w, h, i, lw, ansi.Strip(l))
		}
	}
}

// testResume is the program's resume builder (cmd/sift resumeLine).
func testResume(f *review.Followup) review.Resume {
	return capture.ResumeCommand(agents.Kind(f.Session.AgentKind), f.Session.SessionID, f.Session.Cwd, f.Session.StreamCwd, f.Decision.Note)
}

// deniedSession is the fixture session the triage order used to list
// first: one flagged turn, a Bash call denied permission, 36 calls.
const deniedSession = "ENG-412 · rework-2"

// selectRow moves the inbox's cursor from the top to the row of the
// session labelled label (phaseLabel).
func selectRow(t testing.TB, m *App, label string) {
	t.Helper()
	k := m.c.Keys
	press(t, m, k.Top)
	for range m.inbox.total {
		if s := m.inbox.selected(); s != nil && phaseLabel(s) == label {
			return
		}
		press(t, m, k.Down)
	}
	t.Fatalf("no inbox row is %s:\n%s", label, screenText(m))
}
