package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// toolView is the detail of one tool call: its figures, its input (an
// edit as a diff), its output and its error, highlighted, searchable and
// scrollable; [ and ] step through the session's calls.
type toolView struct {
	c    *Common
	w, h int

	s    *review.Session
	call *summary.ToolCall
	// decided returns the current decision on a call of the open
	// session, nil for none (the session screen keeps them).
	decided func(callID string) *review.Decision
	detail  *detail.Call
	raw     []string // the call's raw lines, when the parser gave no detail
	loading bool
	err     error
	spin    string // the spinner frame, set by the app

	sections []bodySection
	body     []bodyRow
	offset   int
	// nowrap cuts long lines at the screen's edge instead of wrapping
	// them (w).
	nowrap bool

	// The search inside the call (/): searching while its input has the
	// keys; matches are the rows that hold the query, match the current
	// one.
	search    textinput.Model
	searching bool
	query     string
	matches   []int
	match     int
	// queries keeps the search of each call left, by session and call:
	// a search belongs to the call it was typed in, and is back when
	// that call shows again.
	queries map[callRef]string

	// errRows are the body rows that start a line of the output that can
	// explain a failure ({ and } step through them); whyRow is the row
	// marked: first the line the failed call's sentence quotes, where the
	// view opens, then the error line { or } moved to; -1 for none.
	errRows []int
	whyRow  int
}

var _ component = (*toolView)(nil)

func newToolView(c *Common) *toolView {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "search this call"
	ti.SetStyles(c.Styles.Input)
	return &toolView{c: c, search: ti}
}

// callRef names one tool call of one session.
type callRef struct {
	session review.SessionKey
	call    string
}

// setCall shows a call; the detail arrives later with setDetail. The
// search is the call's own: the one typed in it before, else none.
func (m *toolView) setCall(s *review.Session, tc *summary.ToolCall) {
	if m.s != nil && m.call != nil {
		if m.queries == nil {
			m.queries = map[callRef]string{}
		}
		if left := (callRef{m.s.Key(), m.call.ID}); m.query != "" {
			m.queries[left] = m.query
		} else {
			delete(m.queries, left)
		}
	}
	m.query, m.match = m.queries[callRef{s.Key(), tc.ID}], 0
	m.s, m.call, m.detail, m.raw, m.err, m.offset = s, tc, nil, nil, nil, 0
	m.loading = true
	m.build()
}

// setDetail fills in what re-parsing the stream found.
func (m *toolView) setDetail(cd *detail.Call, raw []string, err error) {
	m.detail, m.raw, m.err, m.loading = cd, raw, err, false
	m.build()
	switch {
	case m.query != "" && len(m.matches) > 0:
		m.scrollTo(m.matches[m.match])
	case m.whyRow >= 0:
		// A failed call opens at the line that explains it.
		m.scrollTo(m.whyRow)
	}
}

// SetSize implements component.
func (m *toolView) SetSize(w, h int) {
	m.search.SetWidth(max(w-4, 10))
	if w != m.w {
		m.w, m.h = w, h
		m.layout()
	}
	m.w, m.h = w, h
	m.clamp()
}

// bodyRows is how many body lines fit under the header.
func (m *toolView) bodyRows() int { return max(m.h-1, 1) }

// Update implements component.
func (m *toolView) Update(msg tea.Msg) tea.Cmd {
	if m.call == nil {
		return nil
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if m.searching {
			return m.handleSearchKey(msg)
		}
		return m.handleKey(msg)
	case tea.PasteMsg:
		if m.searching {
			var cmd tea.Cmd
			m.search, cmd = m.search.Update(msg)
			m.setQuery(m.search.Value())
			return cmd
		}
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			m.scroll(-3)
		} else {
			m.scroll(3)
		}
	}
	return nil
}

func (m *toolView) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	if cmd, ok := sessionKeys(k, m.s, msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Up):
		m.scroll(-1)
	case key.Matches(msg, k.Down):
		m.scroll(1)
	case key.Matches(msg, k.PageUp):
		m.scroll(-m.bodyRows() + 1)
	case key.Matches(msg, k.PageDown):
		m.scroll(m.bodyRows() - 1)
	case key.Matches(msg, k.Top):
		m.offset = 0
	case key.Matches(msg, k.Bottom):
		m.scroll(len(m.body))
	case key.Matches(msg, k.Search):
		m.searching = true
		m.search.SetValue(m.query)
		m.search.CursorEnd()
		return m.search.Focus()
	case key.Matches(msg, k.NextMatch):
		m.nextMatch(1)
	case key.Matches(msg, k.PrevMatch):
		m.nextMatch(-1)
	case key.Matches(msg, k.Wrap):
		m.nowrap = !m.nowrap
		m.layout()
	case key.Matches(msg, k.NextError):
		m.nextError(1)
	case key.Matches(msg, k.PrevError):
		m.nextError(-1)
	case key.Matches(msg, k.PrevCall):
		return m.step(-1)
	case key.Matches(msg, k.NextCall):
		return m.step(1)
	case key.Matches(msg, k.Pager):
		return m.pager()
	case key.Matches(msg, k.Editor):
		return m.editor()
	case key.Matches(msg, k.Copy):
		return intent(openCopyMsg{items: m.copyItems()})
	case key.Matches(msg, k.Decide, k.Followup):
		t := decisionTarget{session: m.s.Key(), label: phaseLabel(m.s), turnID: m.call.TurnID,
			toolCallID: m.call.ID, callName: m.call.Name}
		return intent(openDecisionMsg{targets: []decisionTarget{t}, followup: key.Matches(msg, k.Followup)})
	}
	return nil
}

// step opens the previous (-1) or next (1) call of the session.
func (m *toolView) step(dir int) tea.Cmd {
	i := callIndex(m.s, m.call.ID) + dir
	if i < 0 || i >= len(m.s.ToolCalls) {
		return nil
	}
	return intent(openToolCallMsg{id: m.s.ToolCalls[i].ID})
}

// position is the call's place among the session's: "call 3/9".
func (m *toolView) position() string {
	return "call " + strconv.Itoa(callIndex(m.s, m.call.ID)+1) + "/" + strconv.Itoa(len(m.s.ToolCalls))
}

// ids are the identifiers a reviewer pastes elsewhere.
func (m *toolView) ids() string {
	parts := []string{"tool_call=" + m.call.ID, "turn=" + m.call.TurnID}
	if m.s.SessionID != "" {
		parts = append(parts, "session="+m.s.SessionID)
	}
	parts = append(parts, "file="+m.s.Key().String())
	return Inert(strings.Join(parts, " "))
}

// copyItems is what y offers to copy: the ids always; the command, the
// output and the file's path when the call has them. They are copied as
// recorded (redacted), not made inert: the clipboard is not a terminal.
func (m *toolView) copyItems() []copyItem {
	items := []copyItem{{key: "i", what: "ids", text: m.ids()}}
	if c := m.command(); c != "" {
		items = append(items, copyItem{key: "c", what: "command", text: c})
	}
	if out, _ := m.outputText(); out != "" {
		items = append(items, copyItem{key: "o", what: "output", text: out})
	}
	if p := m.path(); p != "" {
		items = append(items, copyItem{key: "p", what: "path", text: p})
	}
	return items
}

// command is the call's shell command, "" when it has none.
func (m *toolView) command() string {
	if m.detail == nil {
		return ""
	}
	var args map[string]any
	if json.Unmarshal(m.detail.Input, &args) != nil {
		return ""
	}
	for _, k := range []string{"command", "cmd"} {
		if c, ok := args[k].(string); ok && c != "" {
			return c
		}
	}
	return ""
}

// path is the file the call names, "" when none.
func (m *toolView) path() string {
	if m.detail != nil && len(m.detail.Locations) > 0 {
		return m.detail.Locations[0].Path
	}
	return ""
}

func (m *toolView) scroll(n int) {
	m.offset += n
	m.clamp()
}

func (m *toolView) clamp() {
	m.offset = max(min(m.offset, len(m.body)-m.bodyRows()), 0)
}

// pager opens the call's raw stream lines in $PAGER. They go to a
// temporary file of sift's own naming (0600), removed when the pager
// exits; the pager gets its name after `--`.
func (m *toolView) pager() tea.Cmd {
	rd, path, call := m.c.Detail, m.s.Path, *m.call
	var want []int
	if m.detail != nil {
		want = m.detail.Lines
	}
	if path == "" {
		return reportErr(fmt.Errorf("no stream file for this session"))
	}
	return func() tea.Msg {
		lines, err := rd.RawLines(path, want, call.Line, max(call.EndLine, call.Line))
		if err != nil {
			return errMsg{err}
		}
		tmp, err := writeTemp(strings.Join(lines, "\n") + "\n")
		if err != nil {
			return errMsg{fmt.Errorf("write raw lines: %w", err)}
		}
		return execMsg{cmd: pagerCmd(os.Getenv("PAGER"), tmp), tmp: tmp}
	}
}

// writeTemp writes text to a new temporary file, readable by the user
// only (os.CreateTemp makes it 0600), and returns its name; nothing is
// left behind on failure.
func writeTemp(text string) (string, error) {
	f, err := os.CreateTemp("", "sift-call-*.jsonl")
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// editor opens the file the call touched in $EDITOR at its line. The
// stream's path is resolved against the run's recorded working directory
// off the UI goroutine: a file that is not an existing regular file is
// refused in the status line; one outside that directory, or of a run
// whose directory is unknown, waits for the reviewer to confirm.
func (m *toolView) editor() tea.Cmd {
	if m.detail == nil || len(m.detail.Locations) == 0 {
		return reportErr(fmt.Errorf("this call names no file"))
	}
	loc, cwd, streamCwd := m.detail.Locations[0], m.s.Cwd, m.s.StreamCwd
	return func() tea.Msg {
		// Without sift run's record, the folder the stream records
		// resolves a relative path when it is an existing folder; the
		// stream is untrusted, so the reviewer is always asked.
		fromStream := false
		if cwd == "" {
			cwd, fromStream = review.StreamFolder(streamCwd)
		}
		target, err := resolveEditPath(loc.Path, cwd)
		if err != nil {
			return errMsg{err}
		}
		run := execMsg{cmd: editorCmd(os.Getenv("EDITOR"), loc.Line, target.path)}
		if target.inside && !fromStream {
			return run
		}
		return askExecMsg{run: run, path: target.path, cwd: cwd, fromStream: fromStream}
	}
}

// header is the call's one-line summary, its position among the
// session's calls and the search on the right.
func (m *toolView) header() string {
	st, tc := m.c.Styles, m.call
	name := tc.Name
	if m.c.Mode == Operator {
		name = displayName(tc)
	}
	parts := []string{tc.TurnID, Inert(name)}
	if m.c.Mode == Developer {
		parts = append(parts, tc.Kind)
	}
	parts = append(parts, callStatus(tc))
	exit := tc.ExitCode
	if exit == nil && m.detail != nil {
		exit = m.detail.ExitCode
	}
	if exit != nil {
		parts = append(parts, "exit "+strconv.Itoa(*exit))
	}
	parts = append(parts, fmtMs(tc.DurationMs))
	if tc.Why != "" && tc.Success != nil && !*tc.Success && !tc.ApprovalRequired {
		// The failure's own words, as its flag says them.
		parts = append(parts, Inert(tc.Why))
	}
	if d := m.decision(); d != nil {
		parts = append(parts, ansi.Strip(decisionBadge(st, d.Kind))+" "+decidedBy(d, m.c.Now()))
	}
	if m.c.Mode == Developer {
		parts = append(parts, Inert(tc.ID))
	}
	if p := m.path(); p != "" {
		parts = append(parts, Inert(p))
	}
	right := m.position()
	if s := m.searchStatus(); s != "" {
		right += " · " + s
	}
	left := " " + callBadge(st, tc) + " " + st.App.Title.Render(strings.Join(parts, " · "))
	room := m.w - ansi.StringWidth(right) - 2
	left = fitWidth(left, max(room, 0))
	gap := max(m.w-ansi.StringWidth(left)-ansi.StringWidth(right)-1, 1)
	return left + strings.Repeat(" ", gap) + st.App.Subtle.Render(right)
}

// decision is the current decision on the call, nil for none.
func (m *toolView) decision() *review.Decision {
	if m.decided == nil || m.call == nil {
		return nil
	}
	return m.decided(m.call.ID)
}

// View implements component.
func (m *toolView) View() string {
	if m.call == nil {
		return ""
	}
	lines := []string{m.header()}
	end := min(m.offset+m.bodyRows(), len(m.body))
	for i := m.offset; i < end; i++ {
		lines = append(lines, m.rowText(i))
	}
	return strings.Join(lines, "\n")
}

// ShortHelp implements help.KeyMap.
func (m *toolView) ShortHelp() []key.Binding {
	k := m.c.Keys
	return []key.Binding{k.Search, k.NextMatch, k.Wrap, k.PrevCall, k.NextCall, k.Copy, k.Pager, k.Editor, k.Decide, k.Back}
}

// FullHelp implements help.KeyMap.
func (m *toolView) FullHelp() [][]key.Binding {
	k := m.c.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.PrevCall, k.NextCall, k.Back},
		{k.Search, k.NextMatch, k.PrevMatch, k.NextError, k.PrevError, k.Wrap, k.Copy, k.Pager, k.Editor},
		{k.Decide, k.DecideSession, k.Followup, k.Undo, k.History, k.NextTodo, k.Followups, k.Claim},
		{k.View, k.Refresh, k.Help, k.QuitBack},
	}
}
