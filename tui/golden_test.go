package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentsift/sift/core/review"
)

// goldenSizes are the terminal sizes every screen is drawn at.
func goldenSizes() [][2]int { return [][2]int{{80, 24}, {120, 36}, {200, 50}} }

// openCall opens the session whose label is given, then steps through its
// calls with ] until one named name shows.
func openCall(t *testing.T, m *App, label, name string) {
	t.Helper()
	k := m.c.Keys
	press(t, m, k.Filter)
	typeText(t, m, label)
	press(t, m, k.Enter, k.Enter)
	if !m.session.showAll {
		press(t, m, k.AllTurns)
	}
	// The search opened the session at its match: from the first turn,
	// under the prompt's row.
	press(t, m, k.Top, k.Down)
	for m.session.turn() != nil && len(m.session.calls()) == 0 {
		press(t, m, k.Down)
	}
	press(t, m, k.Enter, k.Enter)
	for i := 0; i < 60 && m.screen == screenToolCall && m.tool.call.Name != name; i++ {
		press(t, m, k.NextCall)
	}
	if m.screen != screenToolCall || m.tool.call.Name != name {
		t.Fatalf("no %s call in %s", name, label)
	}
}

// TestGolden draws each screen at 80×24, 120×36 and 200×50 on the
// fixture inbox and compares the frames (without colour) to the goldens;
// the main screens in both views.
func TestGolden(t *testing.T) {
	sessions := fixtureSessions(t)
	screens := []struct {
		name      string
		operator  bool
		open      func(t *testing.T, m *App)
		wantInOut string
	}{
		{"inbox", true, func(*testing.T, *App) {}, "? help"},
		{"inbox-toggle-preview", false, func(t *testing.T, m *App) { press(t, m, m.c.Keys.Preview) }, "sort: triage"},
		{"inbox-tab", false, func(t *testing.T, m *App) { press(t, m, m.c.Keys.NextTab) }, "[to review 7]"},
		{"inbox-grouped", false, func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.Group, k.Mark, k.Mark)
		}, "grouped by work item"},
		{"session", true, func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.SortBy(review.SortCost), k.Top, k.Enter)
		}, "flagged"},
		{"session-calls", false, func(t *testing.T, m *App) {
			// The session of one flagged turn of 36 calls, its pane
			// filling the free height.
			k := m.c.Keys
			selectRow(t, m, deniedSession)
			press(t, m, k.Enter, k.Enter, k.Down, k.Down, k.Down)
		}, "call 6/36"},
		{"session-final", false, func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.SortBy(review.SortCost), k.Top, k.Enter, k.Bottom)
		}, "─ final · "},
		{"session-died", false, func(t *testing.T, m *App) {
			// A codex run that failed before its first turn.
			k := m.c.Keys
			press(t, m, k.Filter)
			typeText(t, m, "ENG-420 work-1")
			press(t, m, k.Enter, k.Enter)
		}, "final"},
		{"preview-died", false, func(t *testing.T, m *App) {
			// The codex run that died before its first turn: the
			// preview names its outcome and shows its error.
			k := m.c.Keys
			if !m.inbox.previewOn() {
				press(t, m, k.Preview)
			}
			selectRow(t, m, "ENG-420 · work-1")
		}, "outcome   died"},
		{"preview-denied", false, func(t *testing.T, m *App) {
			// A Bash call denied permission, its flag a sentence with
			// its line.
			if !m.inbox.previewOn() {
				press(t, m, m.c.Keys.Preview)
			}
			selectRow(t, m, deniedSession)
		}, "Bash denied: Command"},
		{"session-tool-time", false, func(t *testing.T, m *App) {
			// A codex run whose commands each ran 36 s: tool time,
			// shown on the turn, not flagged.
			k := m.c.Keys
			press(t, m, k.Filter)
			typeText(t, m, "ENG-377 work-1")
			press(t, m, k.Enter, k.Enter)
			if !m.session.showAll {
				press(t, m, k.AllTurns)
			}
			// The first turn, under the prompt's row.
			press(t, m, k.Top, k.Down)
		}, "tool time, not a stall"},
		{"toolcall", true, func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.SortBy(review.SortCost), k.Top, k.Enter, k.Enter, k.Enter)
		}, "call 1/8"},
		{"toolcall-denied", true, func(t *testing.T, m *App) {
			// A session with a call denied permission; enter on its
			// turn selects that call. Its error shows once.
			k := m.c.Keys
			selectRow(t, m, deniedSession)
			press(t, m, k.Enter, k.Enter, k.Enter)
		}, "error (1 line)"},
		{"toolcall-edit", false, func(t *testing.T, m *App) { openCall(t, m, "qwen", "edit") }, "─ diff +1 −0"},
		{"toolcall-patch", false, func(t *testing.T, m *App) { openCall(t, m, "ApplyPatch", "ApplyPatch") }, "─ diff"},
		{"toolcall-search", false, func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.SortBy(review.SortCost), k.Top, k.Enter, k.Enter, k.Enter, k.NextCall, k.Search)
			typeText(t, m, "skills")
			press(t, m, k.Enter, k.NextMatch)
		}, "/skills 2/"},
		{"copy", false, func(t *testing.T, m *App) {
			k := m.c.Keys
			selectRow(t, m, deniedSession)
			press(t, m, k.Enter, k.Enter, k.Enter, k.Copy)
		}, "i  ids"},
		{"help", true, func(t *testing.T, m *App) { press(t, m, m.c.Keys.Help) }, "keys · inbox"},
		{"decide", false, func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.Decide, k.Ignored, k.Tab)
			typeText(t, m, "looks fine")
		}, "◉ i ignored"},
		{"followup-refused", false, func(t *testing.T, m *App) {
			k := m.c.Keys
			press(t, m, k.Followup, k.Enter)
		}, "a follow-up needs a note"},
		{"followups", false, func(t *testing.T, m *App) {
			k := m.c.Keys
			selectRow(t, m, deniedSession)
			press(t, m, k.Enter, k.Enter, k.Enter, k.Followup)
			typeText(t, m, "don't stop; rerun it")
			press(t, m, k.Enter, k.Followups)
		}, "claude --resume"},
	}
	for _, sc := range screens {
		modes := []Mode{Developer}
		if sc.operator {
			modes = append(modes, Operator)
		}
		for _, mode := range modes {
			for _, size := range goldenSizes() {
				name := fmt.Sprintf("%s/%s/%dx%d", sc.name, mode, size[0], size[1])
				t.Run(name, func(t *testing.T) {
					m := newTestApp(t, size[0], size[1], NewMemStore(sessions))
					if mode == Operator {
						press(t, m, m.c.Keys.View)
						send(t, m, clearStatusMsg{seq: m.statusSeq})
					}
					sc.open(t, m)
					checkFrame(t, m, size[0], size[1])
					got := screenText(m)
					if mode == Developer && !strings.Contains(got, sc.wantInOut) {
						t.Errorf("the frame does not show %q:\n%s", sc.wantInOut, got)
					}
					golden.RequireEqual(t, got)
				})
			}
		}
	}
}
