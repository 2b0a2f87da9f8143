package tui

import (
	"context"
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/ingest"
	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// rowOrder returns the work item · phase of the inbox rows, top first.
func rowOrder(m *App) []string {
	var out []string
	for i := range m.inbox.win {
		out = append(out, phaseLabel(&m.inbox.win[i]))
	}
	return out
}

func TestSortSameKeyFlipsDirection(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	press(t, m, k.SortBy(review.SortCost))
	if got := screenText(m); !strings.Contains(got, "cost▼") || !strings.Contains(got, "sort: cost▼") {
		t.Fatalf("sort by cost is not marked descending:\n%s", got)
	}
	desc := rowOrder(m)
	if desc[0] != "ENG-412 · work-1" {
		t.Errorf("most expensive first = %q, want ENG-412 · work-1", desc[0])
	}
	press(t, m, k.SortBy(review.SortCost))
	if got := screenText(m); !strings.Contains(got, "cost▲") {
		t.Fatalf("the same key again does not flip to ascending:\n%s", got)
	}
	asc := rowOrder(m)
	// Unknown costs are the smallest, as in the store.
	if m.inbox.win[0].EstimatedUSD != nil || asc[len(asc)-1] != "ENG-412 · work-1" {
		t.Errorf("ascending order = %v", asc)
	}
	press(t, m, k.SortBy(review.SortStalls))
	if got := rowOrder(m)[0]; got != "ENG-377 · work-1" {
		t.Errorf("most stalls first = %q, want ENG-377 · work-1", got)
	}
	// The arrow never cuts a column's title.
	if got := screenText(m); !strings.Contains(got, "stall▼") {
		t.Errorf("the stall column does not show its whole title and its sort arrow:\n%s", got)
	}
}

// TestDefaultOrderIsTriageByHarm: the inbox opens in the triage order,
// worst first: the failed, died and interrupted runs, then the flagged
// ones, then the rest; inside each, unknown costs first, then by cost.
func TestDefaultOrderIsTriageByHarm(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	if s := m.inbox.win[0]; !s.Outcome.IsFailure() && s.Outcome != summary.OutcomeInterrupted {
		t.Fatalf("the first row is %s, %s: want a failed run", s.Key(), s.Outcome)
	}
	var prev *review.Session
	for i := range m.inbox.win {
		s := &m.inbox.win[i]
		facts := review.TriageFacts{Undecided: s.State == "", Flagged: s.Flagged, Outcome: s.Outcome, AgentKind: s.AgentKind, CostKnown: s.EstimatedUSD != nil}
		if prev != nil {
			pf := review.TriageFacts{Undecided: prev.State == "", Flagged: prev.Flagged, Outcome: prev.Outcome, AgentKind: prev.AgentKind, CostKnown: prev.EstimatedUSD != nil}
			switch {
			case facts.TriageRank() > pf.TriageRank():
				t.Errorf("%s (rank %d) listed after %s (rank %d)", s.Key(), facts.TriageRank(), prev.Key(), pf.TriageRank())
			case facts.TriageRank() == pf.TriageRank() && s.EstimatedUSD != nil && *s.EstimatedUSD > *prev.EstimatedUSD:
				t.Errorf("%s listed after the cheaper %s", s.Key(), prev.Key())
			}
		}
		prev = s
	}
}

func TestSearchAndQuickFilters(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	press(t, m, k.Filter)
	typeText(t, m, "gem")
	for _, s := range m.inbox.win {
		if s.AgentKind != "gemini" {
			t.Errorf("search gem kept %s (%s)", s.Key(), s.AgentKind)
		}
	}
	if m.inbox.total != 2 {
		t.Errorf("search gem: %d sessions, want the 2 gemini ones", m.inbox.total)
	}
	send(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if !strings.Contains(screenText(m), "filter: /gem") {
		t.Errorf("title does not show the filter:\n%s", screenText(m))
	}
	press(t, m, k.Back)
	if m.inbox.total != 12 {
		t.Fatalf("esc does not clear the filter: %d sessions", m.inbox.total)
	}
	// A tool name matches too, pasted.
	press(t, m, k.Filter)
	send(t, m, tea.PasteMsg{Content: "Skill"})
	send(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if m.inbox.total == 0 || m.inbox.total == 12 {
		t.Errorf("filter by tool name kept %d sessions", m.inbox.total)
	}
	press(t, m, k.Back, k.Flagged)
	for _, s := range m.inbox.win {
		if !s.Flagged {
			t.Errorf("flagged only kept %s", s.Key())
		}
	}
	press(t, m, k.Flagged, k.Agent)
	agent := m.inbox.q.Agent
	if agent == "" || m.inbox.total == 12 {
		t.Fatalf("one agent filter: agent %q, %d sessions", agent, m.inbox.total)
	}
	for _, s := range m.inbox.win {
		if s.AgentKind != agent {
			t.Errorf("agent filter %s kept %s", agent, s.AgentKind)
		}
	}
	press(t, m, k.Agent, k.Group)
	done := map[string]bool{}
	for i, s := range m.inbox.win {
		if i > 0 && m.inbox.win[i-1].WorkItemID != s.WorkItemID {
			done[m.inbox.win[i-1].WorkItemID] = true
		}
		if done[s.WorkItemID] {
			t.Errorf("grouping: %s apart from its work item's other sessions", s.Key())
		}
	}
	if !strings.Contains(screenText(m), "grouped by work item") {
		t.Errorf("the title does not say the list is grouped:\n%s", screenText(m))
	}
}

func TestFollowupRecordsAndAdvances(t *testing.T) {
	st := NewMemStore(fixtureSessions(t))
	m := newTestApp(t, 120, 40, st)
	k := m.c.Keys
	first := m.inbox.selected().Key()
	press(t, m, k.Followup)
	if m.dialog == nil || !m.dialog.followup {
		t.Fatal("x does not open the follow-up dialog")
	}
	typeText(t, m, "retry with a longer timeout")
	send(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	ds, _ := st.Decisions(context.Background(), first)
	if len(ds) != 1 || ds[0].Kind != review.NeedsFollowup || ds[0].Note != "retry with a longer timeout" || ds[0].Reviewer != "tester" {
		t.Fatalf("decisions = %+v", ds)
	}
	// The decided session went down the triage order; the cursor stays
	// at the top, on the next session left to review.
	sel := m.inbox.selected()
	if sel == nil || sel.Key() == first || !todo(sel) || m.inbox.cursor != 0 {
		t.Fatalf("cursor did not advance to the next session left to review: row %d, %+v", m.inbox.cursor, sel)
	}
	if !strings.Contains(screenText(m), "↻") {
		t.Error("no needs_followup badge in the inbox")
	}
	press(t, m, k.Top)
	for i := 0; i < 12 && m.inbox.selected().Key() != first; i++ {
		press(t, m, k.Down)
	}
	press(t, m, k.History)
	if got := screenText(m); !strings.Contains(got, "retry with a longer timeout") || !strings.Contains(got, "needs_followup") {
		t.Errorf("history does not show the decision:\n%s", got)
	}
}

// TestDecisionAdvancesPastAReload: the store's change poll may reload the
// inbox after a decision is written and before the inbox hears it was
// saved; that reload follows the decided session down the triage order,
// and the cursor must still move on from the row it was decided on (it
// followed the session into the decided part).
func TestDecisionAdvancesPastAReload(t *testing.T) {
	st := NewMemStore(fixtureSessions(t))
	m := newTestApp(t, 120, 40, st)
	k := m.c.Keys
	press(t, m, k.Down)
	row, decided := m.inbox.cursor, m.inbox.selected().Key()
	press(t, m, k.Decide, k.Reviewed)
	_, enter := m.Update(keyMsg(t, k.Enter))
	saved, _ := runUntil(t, m, enter, func(msg tea.Msg) bool { _, ok := msg.(decisionSavedMsg); return ok })
	if saved == nil {
		t.Fatal("the decision was not saved")
	}
	run(t, m, m.reloadInbox())
	send(t, m, saved)
	sel := m.inbox.selected()
	if sel == nil || sel.Key() == decided || !todo(sel) || m.inbox.cursor != row {
		t.Fatalf("after the decision the cursor is on row %d (%+v), want row %d, the next left to review", m.inbox.cursor, sel, row)
	}
}

func TestDecideDialogChoosesAndCancels(t *testing.T) {
	st := NewMemStore(fixtureSessions(t))
	m := newTestApp(t, 80, 24, st)
	k := m.c.Keys
	first := m.inbox.selected().Key()
	press(t, m, k.Decide)
	send(t, m, tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.dialog != nil {
		t.Fatal("esc does not close the dialog")
	}
	press(t, m, k.Decide, k.Right, k.Right)
	if got := m.dialog.kind(); got != review.Ignored {
		t.Fatalf("→ → chose %s, want ignored", got)
	}
	press(t, m, k.Left, k.Reviewed)
	if got := m.dialog.kind(); got != review.Reviewed {
		t.Fatalf("r chose %s, want reviewed", got)
	}
	// Letters pick a choice only while the choices have the focus: in the
	// note they are typed.
	press(t, m, k.Tab)
	typeText(t, m, "i saw it")
	if got := m.dialog.kind(); got != review.Reviewed || m.dialog.note.Value() != "i saw it" {
		t.Fatalf("typing in the note: choice %s, note %q", got, m.dialog.note.Value())
	}
	press(t, m, k.Tab, k.Ignored, k.Enter)
	ds, _ := st.Decisions(context.Background(), first)
	if len(ds) != 1 || ds[0].Kind != review.Ignored || ds[0].Note != "i saw it" {
		t.Fatalf("decisions = %+v, want one ignored with the note", ds)
	}
}

func TestSessionFlaggedTurnsAndJumps(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	// The codex session with a window has stalls on many turns.
	press(t, m, k.SortBy(review.SortStalls), k.Top, k.Enter)
	s := m.session
	if s.s == nil || s.showAll {
		t.Fatal("session did not open on its flagged turns")
	}
	for _, r := range s.rows {
		if r >= 0 && len(s.s.Turns[r].Flags) == 0 {
			t.Fatalf("unflagged turn %s listed by default", s.s.Turns[r].TurnID)
		}
	}
	press(t, m, k.AllTurns)
	if !s.showAll || len(s.rows) != len(s.s.Turns)+2 {
		t.Fatalf("a does not show all turns, the prompt and the final row: %d of %d", len(s.rows), len(s.s.Turns))
	}
	press(t, m, k.Top, k.NextFlagged)
	first := s.turn()
	if len(first.Flags) == 0 {
		t.Fatalf("n landed on unflagged turn %s", first.TurnID)
	}
	press(t, m, k.NextFlagged)
	second := s.turn()
	press(t, m, k.PrevFlagged)
	if s.turn() != first || second == first {
		t.Errorf("n/N: %s → %s → %s", first.TurnID, second.TurnID, s.turn().TurnID)
	}
	press(t, m, k.Back)
	if m.screen != screenInbox {
		t.Error("esc does not go back to the inbox")
	}
}

func TestToolCallDetailAndBack(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	press(t, m, k.SortBy(review.SortCost), k.Top, k.Enter, k.Enter, k.Enter)
	if m.screen != screenToolCall || m.tool.loading {
		t.Fatalf("screen %d, loading %v", m.screen, m.tool.loading)
	}
	if m.tool.detail == nil {
		t.Fatal("the re-parsed stream has no detail for the call")
	}
	got := screenText(m)
	if !strings.Contains(got, "─ input") || !strings.Contains(got, "─ output") {
		t.Errorf("detail lacks input or output:\n%s", got)
	}
	press(t, m, k.Copy)
	if m.copying == nil || !strings.Contains(screenText(m), "ids") || !strings.Contains(screenText(m), "output  Launching skill") {
		t.Errorf("y does not offer what to copy:\n%s", screenText(m))
	}
	press(t, m, k.Enter)
	if !strings.Contains(screenText(m), "copied ids (OSC 52): tool_call=toolu_") {
		t.Errorf("y does not report the copied ids:\n%s", screenText(m))
	}
	press(t, m, k.Back)
	if m.screen != screenSession {
		t.Error("esc does not go back to the session")
	}
	press(t, m, k.Back, k.Back)
	if m.screen != screenInbox {
		t.Error("esc does not go back to the inbox")
	}
	if !press(t, m, k.Quit) {
		t.Error("q does not quit")
	}
}

// TestQBacksOut: q closes an overlay first, then backs out one screen
// (a tool call to its session, a session to the inbox, whatever has the
// focus there), and quits from the inbox; ctrl+c quits from anywhere; in
// a note q is a letter (issue 29, item 9; clarification 7). It quit from
// any depth.
func TestQBacksOut(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	press(t, m, k.SortBy(review.SortCost), k.Top, k.Enter, k.Enter, k.Enter)
	if m.screen != screenToolCall || m.session.focus != focusPane {
		t.Fatalf("screen %d, focus %d", m.screen, m.session.focus)
	}
	for _, open := range []key.Binding{k.Help, k.Followups, k.Copy, k.History, k.Decide} {
		if quit := press(t, m, open, k.Quit); quit || m.overlay() || m.screen != screenToolCall {
			t.Fatalf("%s then q: quit %v, overlay %v, screen %d", open.Help().Key, quit, m.overlay(), m.screen)
		}
	}
	press(t, m, k.Followup)
	typeText(t, m, "q")
	if m.dialog == nil || !strings.Contains(screenText(m), "q") {
		t.Fatalf("q in a note closed the dialog:\n%s", screenText(m))
	}
	press(t, m, k.Back)
	if quit := press(t, m, k.Help); quit || !strings.Contains(screenText(m), "q back (ctrl+c quits)") {
		t.Errorf("the tool call's help does not say what q does:\n%s", screenText(m))
	}
	press(t, m, k.Help)
	if quit := press(t, m, k.Quit); quit || m.screen != screenSession {
		t.Fatalf("q on a tool call: quit %v, screen %d", quit, m.screen)
	}
	if quit := press(t, m, k.Quit); quit || m.screen != screenInbox {
		t.Fatalf("q on a session (its calls focused): quit %v, screen %d", quit, m.screen)
	}
	if !press(t, m, k.Quit) {
		t.Error("q in the inbox does not quit")
	}
	m = newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	press(t, m, k.Enter, k.Enter, k.Enter, k.Help)
	if !press(t, m, k.ForceQuit) {
		t.Error("ctrl+c over a tool call's help does not quit")
	}
}

func TestHelpOverlayListsBindings(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := newTestApp(t, size[0], size[1], NewMemStore(fixtureSessions(t)))
		k := m.c.Keys
		press(t, m, k.Help)
		got := screenText(m)
		for _, b := range m.inbox.FullHelp() {
			for _, kb := range b {
				if !strings.Contains(got, kb.Help().Key+" ") || !strings.Contains(got, kb.Help().Desc) {
					t.Errorf("%dx%d: help overlay lacks %s %q", size[0], size[1], kb.Help().Key, kb.Help().Desc)
				}
			}
		}
		press(t, m, k.Help)
		if m.showHelp {
			t.Error("? again does not close the help")
		}
	}
}

func TestMouseWheelAndClick(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.inbox.cursor != 3 {
		t.Errorf("wheel down: cursor %d, want 3", m.inbox.cursor)
	}
	// Row 0 of the table is on screen line 3 (title, rule, header).
	send(t, m, tea.MouseClickMsg{Button: tea.MouseLeft, X: 10, Y: 3})
	if m.inbox.cursor != 0 {
		t.Errorf("click: cursor %d, want 0", m.inbox.cursor)
	}
	send(t, m, tea.MouseClickMsg{Button: tea.MouseLeft, X: 10, Y: 3})
	if m.screen != screenSession {
		t.Error("clicking the selected row does not open it")
	}
}

// TestEveryScreenFits sweeps terminal sizes: every frame is exactly the
// terminal's size and no line overflows.
func TestEveryScreenFits(t *testing.T) {
	sessions := fixtureSessions(t)
	sizes := [][2]int{{80, 24}, {81, 25}, {90, 30}, {100, 24}, {120, 40}, {160, 50}, {200, 60}, {250, 70}}
	for _, size := range sizes {
		w, h := size[0], size[1]
		m := newTestApp(t, w, h, NewMemStore(sessions))
		k := m.c.Keys
		checkFrame(t, m, w, h)
		press(t, m, k.Help)
		checkFrame(t, m, w, h)
		press(t, m, k.Help, k.SortBy(review.SortStalls), k.Top, k.Enter)
		checkFrame(t, m, w, h)
		press(t, m, k.AllTurns, k.Enter, k.Enter)
		checkFrame(t, m, w, h)
		press(t, m, k.Followup)
		checkFrame(t, m, w, h)
		send(t, m, tea.KeyPressMsg{Code: tea.KeyEscape})
		press(t, m, k.View)
		checkFrame(t, m, w, h)
	}
}

// TestEscapesInToolOutputAreInert feeds a stream whose tool output is full
// of escape sequences (OSC 52 clipboard, OSC 8 link, title change, colours,
// C1 CSI, BEL, backspace) and checks the screen shows them as text.
func TestEscapesInToolOutputAreInert(t *testing.T) {
	dir := t.TempDir()
	evil := `\u001b]52;c;cHduZWQ=\u0007\u001b]0;pwned\u0007\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\ ` +
		`\u001b[31mred\u001b[0m \u001b[2J\u001b[H\u009b31m c1 \u0008\u0008bs \u202eevil token=ghp_0123456789abcdefghijABCDEFGHIJ012345`
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"esc-1","cwd":"/w","model":"claude-sonnet-4-5","tools":["Bash"]}`,
		`{"type":"assistant","message":{"model":"claude-sonnet-4-5","id":"msg_1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_esc","name":"Bash","input":{"command":"cat \u001b]0;title\u0007 evil.txt"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}},"session_id":"esc-1"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_esc","content":"` + evil + `","is_error":true}]},"session_id":"esc-1"}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"done \u001b]52;c;eA==\u0007","num_turns":1,"duration_ms":1000,"total_cost_usd":0.01,"session_id":"esc-1"}`,
	}
	path := filepath.Join(dir, "work-1-e5c0de.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, err := ingest.AnalyzeFile(path, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.WorkItemID, s.Phase = "ENG-\x1b]0;x\x07", "work"
	m := newTestApp(t, 250, 40, NewMemStore([]review.Session{{Summary: *s, Path: path}}))
	k := m.c.Keys
	check := func(where string) {
		t.Helper()
		raw := m.View().Content
		for _, bad := range []string{"\x1b]", "\x07", "\x08", "\u009b", "\x1b[2J", "\x1b[H", "\u202e"} {
			if strings.Contains(raw, bad) {
				t.Errorf("%s: the frame carries a live %q", where, bad)
			}
		}
	}
	check("inbox")
	press(t, m, k.Enter, k.Enter, k.Enter)
	if m.screen != screenToolCall || m.tool.detail == nil {
		t.Fatalf("tool call not open with detail (screen %d)", m.screen)
	}
	check("tool call")
	got := screenText(m)
	for _, want := range []string{`\x1b]52;c;cHduZWQ=\x07`, `\x1b]0;pwned\x07`, `\x1b[31mred`, `\u009b31m`, `\x08\x08bs`, `\u202eevil`} {
		if !strings.Contains(got, want) {
			t.Errorf("tool call screen does not show %s as text:\n%s", want, got)
		}
	}
	if strings.Contains(got, "ghp_0123456789abcdefghijABCDEFGHIJ012345") || !strings.Contains(got, redact.Prefix) {
		t.Errorf("the token in the output is not redacted:\n%s", got)
	}
	press(t, m, k.View)
	check("operator tool call")
}

func TestInert(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\tb", "a    b"},
		{"\x1b[31mred", `\x1b[31mred`},
		{"bell\x07", `bell\x07`},
		{"c1\u009b", `c1\u009b`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"two\nlines", `two\nlines`},
		{"日本", "日本"},
	}
	for _, tc := range tests {
		if got := Inert(tc.in); got != tc.want {
			t.Errorf("Inert(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestImportKeepsTheCursorOnItsSession(t *testing.T) {
	all := fixtureSessions(t)
	st := NewMemStore(all[:6])
	m := newTestApp(t, 120, 10, st)
	k := m.c.Keys
	press(t, m, k.Down, k.Down, k.Down, k.Down, k.Down)
	before := m.inbox.selected().Key()
	line := m.inbox.cursor - m.inbox.top
	send(t, m, ImportProgressMsg{Files: 1, Total: 6})
	st.Add(all[6:]...)
	send(t, m, ImportProgressMsg{Files: 6, Total: 6, Sessions: 6, Done: true})
	if m.inbox.total != len(all) {
		t.Fatalf("new sessions did not appear: %d of %d", m.inbox.total, len(all))
	}
	if got := m.inbox.selected().Key(); got != before || m.inbox.cursor-m.inbox.top != line {
		t.Errorf("cursor moved from %s (line %d) to %s (line %d)", before, line, got, m.inbox.cursor-m.inbox.top)
	}
	if !strings.Contains(screenText(m), "import done") {
		t.Errorf("status line does not report the import:\n%s", screenText(m))
	}
}

func TestPagerGetsTheCallsRawLines(t *testing.T) {
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	k := m.c.Keys
	press(t, m, k.SortBy(review.SortCost), k.Top, k.Enter, k.Enter, k.Enter)
	t.Setenv("PAGER", "cat -v")
	msg, ok := m.tool.pager()().(execMsg)
	if !ok {
		t.Fatal("o does not hand the terminal to $PAGER")
	}
	args := msg.cmd.Args
	if len(args) != 4 || args[0] != "cat" || args[1] != "-v" || args[2] != "--" || args[3] != msg.tmp {
		t.Fatalf("pager command %v", args)
	}
	data, err := os.ReadFile(args[3])
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(args[3])
	if !strings.Contains(string(data), m.tool.call.ID) {
		t.Errorf("raw lines do not hold the call %s:\n%s", m.tool.call.ID, data)
	}
	t.Setenv("EDITOR", "myed")
	if m.tool.detail == nil || len(m.tool.detail.Locations) == 0 {
		if cmd := m.tool.editor(); cmd == nil {
			t.Error("e on a call without a file reports nothing")
		}
	}
}

func TestThemeFollowsTheBackground(t *testing.T) {
	m, err := NewApp(Options{Store: NewMemStore(nil), NoAnimation: true})
	if err != nil {
		t.Fatal(err)
	}
	send(t, m, tea.BackgroundColorMsg{Color: color.White})
	if m.c.Styles.Palette.Name != "light" {
		t.Errorf("light background: theme %s", m.c.Styles.Palette.Name)
	}
	send(t, m, tea.BackgroundColorMsg{Color: color.Black})
	if m.c.Styles.Palette.Name != "dark" {
		t.Errorf("dark background: theme %s", m.c.Styles.Palette.Name)
	}
	hc, _ := NewApp(Options{Store: NewMemStore(nil), Theme: "high-contrast", NoAnimation: true})
	send(t, hc, tea.BackgroundColorMsg{Color: color.White})
	if hc.c.Styles.Palette.Name != "high-contrast-light" {
		t.Errorf("high contrast on light: theme %s", hc.c.Styles.Palette.Name)
	}
	if _, err := NewApp(Options{Store: NewMemStore(nil), Theme: "neon"}); err == nil {
		t.Error("an unknown theme is accepted")
	}
}

func TestRefreshTabAndClicksInTheSession(t *testing.T) {
	all := fixtureSessions(t)
	st := NewMemStore(all[:4])
	m := newTestApp(t, 120, 40, st)
	k := m.c.Keys
	selectRow(t, m, deniedSession)
	st.Add(all[4:]...)
	press(t, m, k.Refresh)
	if m.inbox.total != len(all) {
		t.Fatalf("r: %d sessions, want %d", m.inbox.total, len(all))
	}
	// The triage order's first session has one flagged turn with calls.
	press(t, m, k.Enter)
	if m.session.focus != focusTurns {
		t.Fatal("the session does not open on its turns")
	}
	press(t, m, k.Tab)
	if m.session.focus != focusPane {
		t.Fatal("tab does not move to the calls pane")
	}
	press(t, m, k.Tab)
	if m.session.focus != focusTurns {
		t.Fatal("tab does not move back to the turns")
	}
	// The turns start under the header, its rule and the column header
	// (the prompt row first), and the calls pane starts after
	// the turns and a rule: click the second call, then click it again.
	callsAt := 2 + m.session.headerLines() + 1 + m.session.turnRows() + 1 + len(m.session.turnSections())
	send(t, m, tea.MouseClickMsg{Button: tea.MouseLeft, Y: callsAt + 1})
	if m.session.focus != focusPane || m.session.call != 1 {
		t.Fatalf("click on a call: focus %d, call %d", m.session.focus, m.session.call)
	}
	send(t, m, tea.MouseClickMsg{Button: tea.MouseLeft, Y: callsAt + 1})
	if m.screen != screenToolCall {
		t.Error("clicking the selected call does not open it")
	}
}

func TestSweepFailureShowsInTheStatusLine(t *testing.T) {
	t.Parallel()
	m := newTestApp(t, 120, 40, NewMemStore(fixtureSessions(t)))
	send(t, m, SweepMsg{Err: errors.New("remove old.jsonl: permission denied")})
	if v := m.View().Content; !strings.Contains(v, "retention sweep failed: remove old.jsonl: permission denied") {
		t.Fatalf("status line lacks the sweep failure:\n%s", v)
	}
	send(t, m, SweepMsg{Removed: "3 files (0.1 MB), 2 sessions, review events of 4 sessions"})
	if v := m.View().Content; !strings.Contains(v, "retention: removed 3 files (0.1 MB), 2 sessions, review events of 4 sessions") {
		t.Fatalf("status line lacks the sweep report:\n%s", v)
	}
	send(t, m, SweepMsg{Warning: "logs folder /x not swept: sift did not create it"})
	if v := m.View().Content; !strings.Contains(v, "logs folder /x not swept: sift did not create it") {
		t.Fatalf("status line lacks the sweep's warning:\n%s", v)
	}
}

// TestTwinRowsAreTold: two runs of one step (the same work item, phase
// and iteration) have the same label; at 120 columns, where the started
// column is dropped, each row says when it started, else (the same
// minute) the end of its file name.
func TestTwinRowsAreTold(t *testing.T) {
	base := fixtureSessions(t)
	var twin review.Session
	for _, s := range base {
		if phaseLabel(&s) == deniedSession {
			twin = s
		}
	}
	at := func(h, min int) *time.Time { v := time.Date(2026, 11, 29, h, min, 0, 0, time.UTC); return &v }
	a, b, c := twin, twin, twin
	a.FileName, a.StartedAt = "rework-2-aaaaaa111111.jsonl", at(2, 10)
	b.FileName, b.StartedAt = "rework-2-bbbbbb222222.jsonl", at(2, 40)
	c.FileName, c.StartedAt = "rework-2-cccccc333333.jsonl", at(2, 40)
	m := newTestApp(t, 120, 36, NewMemStore([]review.Session{a, b, c}))
	// The label gives way to the mark: the column is at its least.
	got := screenText(m)
	for _, want := range []string{"ENG-412 · rewor… 02:10", "ENG-412 · rew… #222222", "ENG-412 · rew… #333333"} {
		if !strings.Contains(got, want) {
			t.Errorf("no row reads %q:\n%s", want, got)
		}
	}
	// A label of its own has no mark.
	m = newTestApp(t, 120, 36, NewMemStore(base))
	if got := screenText(m); strings.Contains(got, "rework-2 #") || strings.Contains(got, "rework-2 0") {
		t.Errorf("a row without a twin is marked:\n%s", got)
	}
}
