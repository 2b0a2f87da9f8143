package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// toolView is the detail of one tool call: its figures, input, output and
// error, highlighted and scrollable.
type toolView struct {
	c    *Common
	w, h int

	s       *review.Session
	call    *summary.ToolCall
	detail  *callDetail
	raw     []string // the call's raw lines, when the parser gave no detail
	loading bool
	err     error
	spin    string // the spinner frame, set by the app

	body    []string
	outLine int // index of the output rule in body
	outLen  int
	offset  int
}

var _ component = (*toolView)(nil)

// execMsg asks the app to hand the terminal to a program; tmp, when set,
// is a temporary file of sift's that is removed once the program exits.
type execMsg struct {
	cmd *exec.Cmd
	tmp string
}

func newToolView(c *Common) *toolView { return &toolView{c: c} }

// setCall shows a call; the detail arrives later with setDetail.
func (m *toolView) setCall(s *review.Session, tc *summary.ToolCall) {
	m.s, m.call, m.detail, m.raw, m.err, m.offset = s, tc, nil, nil, nil, 0
	m.loading = true
	m.build()
}

// setDetail fills in what re-parsing the stream found.
func (m *toolView) setDetail(cd *callDetail, raw []string, err error) {
	m.detail, m.raw, m.err, m.loading = cd, raw, err, false
	m.build()
}

// SetSize implements component.
func (m *toolView) SetSize(w, h int) {
	if w != m.w {
		m.w, m.h = w, h
		m.build()
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
		return m.handleKey(msg)
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
	case key.Matches(msg, k.Pager):
		return m.pager()
	case key.Matches(msg, k.Editor):
		return m.editor()
	case key.Matches(msg, k.Copy):
		ids := m.ids()
		return tea.Batch(tea.SetClipboard(ids), intent(statusMsg{text: "copied (OSC 52): " + ids}))
	case key.Matches(msg, k.Decide, k.Followup):
		t := decisionTarget{
			session: m.s.Key(), turnID: m.call.TurnID, toolCallID: m.call.ID,
			label: phaseLabel(&m.s.Summary) + " · " + m.call.TurnID + " · " + m.call.Name,
		}
		return intent(openDecisionMsg{target: t, followup: key.Matches(msg, k.Followup)})
	case key.Matches(msg, k.History):
		return intent(openHistoryMsg{key: m.s.Key()})
	}
	return nil
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
	path, call := m.s.Path, *m.call
	var want []int
	if m.detail != nil {
		want = m.detail.Lines
	}
	if path == "" {
		return reportErr(fmt.Errorf("no stream file for this session"))
	}
	return func() tea.Msg {
		lines, err := rawLines(path, want, call.Line, max(call.EndLine, call.Line))
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
	loc, cwd := m.detail.Locations[0], m.s.Cwd
	return func() tea.Msg {
		target, err := resolveEditPath(loc.Path, cwd)
		if err != nil {
			return errMsg{err}
		}
		run := execMsg{cmd: editorCmd(os.Getenv("EDITOR"), loc.Line, target.path)}
		if target.inside {
			return run
		}
		return askExecMsg{run: run, path: target.path, cwd: cwd}
	}
}

// header is the call's one-line summary.
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
	if m.c.Mode == Developer {
		parts = append(parts, Inert(tc.ID))
	}
	return " " + callBadge(st, tc) + " " + st.App.Title.Render(strings.Join(parts, " · "))
}

// build renders the body: input, output and error sections.
func (m *toolView) build() {
	if m.call == nil || m.w == 0 {
		return
	}
	st, tc := m.c.Styles, m.call
	var body []string
	body = append(body, st.rule("input", m.w))
	body = append(body, wrapLines(m.inputLines(), m.w)...)
	out, lang := m.outputText()
	outLines := []string{st.App.Subtle.Render(" (no output)")}
	switch {
	case m.loading:
		outLines = []string{" " + m.spin + st.App.Subtle.Render(" reading the stream…")}
	case m.err != nil:
		outLines = []string{st.Status.Error.Render(" " + Inert(m.err.Error()))}
	case out != "":
		outLines = m.c.highlight(out, lang)
	}
	outLines = wrapLines(outLines, m.w)
	m.outLine, m.outLen = len(body), len(outLines)
	body = append(body, st.rule("output", m.w))
	body = append(body, outLines...)
	errText := ""
	if tc.Error != nil {
		errText = *tc.Error
	} else if m.detail != nil {
		errText = m.detail.Error
	}
	if errText != "" {
		body = append(body, st.rule("error", m.w))
		if m.c.Mode == Operator {
			body = append(body, st.Status.Error.Render(" "+Inert(firstLine(errText))))
		} else {
			for _, l := range InertLines(errText) {
				body = append(body, st.Status.Error.Render(l))
			}
		}
	}
	m.body = wrapLines(body, m.w)
	m.clamp()
}

// inputLines is the call's input: the title for the operator; the
// command and the input JSON for the developer.
func (m *toolView) inputLines() []string {
	st, tc := m.c.Styles, m.call
	if m.c.Mode == Operator {
		return []string{" " + st.App.Text.Render(Inert(displayName(tc)+": "+firstLine(tc.InputSummary)))}
	}
	var lines []string
	var raw json.RawMessage
	if m.detail != nil {
		raw = m.detail.Input
	}
	var args map[string]any
	if json.Unmarshal(raw, &args) == nil {
		for _, k := range []string{"command", "cmd"} {
			if c, ok := args[k].(string); ok && c != "" {
				lines = append(lines, m.c.highlight("$ "+c, "bash")...)
				break
			}
		}
	}
	switch {
	case len(raw) > 0:
		lines = append(lines, m.c.highlight(prettyJSON(raw), "json")...)
	case tc.InputSummary != "":
		lines = append(lines, InertLines(tc.InputSummary)...)
	default:
		lines = append(lines, st.App.Subtle.Render(" (no input)"))
	}
	return lines
}

// outputText is the call's output and its language.
func (m *toolView) outputText() (string, string) {
	if m.detail == nil {
		if len(m.raw) > 0 {
			return strings.Join(m.raw, "\n"), "json"
		}
		return "", ""
	}
	out := m.detail.Output.String()
	if out == "" && len(m.detail.RawOutput) > 0 {
		out = prettyJSON(m.detail.RawOutput)
	}
	path := ""
	if len(m.detail.Locations) > 0 {
		path = m.detail.Locations[0].Path
	}
	lang := detectLang(out, path)
	if m.c.Mode == Operator && lang == "json" {
		return "structured output: the developer view (v) shows it", ""
	}
	return out, lang
}

// View implements component.
func (m *toolView) View() string {
	if m.call == nil {
		return ""
	}
	st := m.c.Styles
	lines := []string{m.header()}
	end := min(m.offset+m.bodyRows(), len(m.body))
	for i := m.offset; i < end; i++ {
		l := m.body[i]
		if i == m.outLine {
			l = st.rule(m.outputLabel(), m.w)
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// outputLabel says how long the output is and which lines show.
func (m *toolView) outputLabel() string {
	first := max(m.offset, m.outLine+1) - m.outLine
	last := min(m.offset+m.bodyRows(), m.outLine+1+m.outLen) - m.outLine - 1
	label := fmt.Sprintf("output (%s)", plural(m.outLen, "line"))
	if first <= last && (first > 1 || last < m.outLen) {
		label = fmt.Sprintf("output (%s, showing %d–%d)", plural(m.outLen, "line"), first, last)
	}
	return label
}

// ShortHelp implements help.KeyMap.
func (m *toolView) ShortHelp() []key.Binding {
	k := m.c.Keys
	return []key.Binding{k.PageDown, k.Pager, k.Editor, k.Copy, k.Followup, k.Decide, k.Back, k.Help}
}

// FullHelp implements help.KeyMap.
func (m *toolView) FullHelp() [][]key.Binding {
	k := m.c.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Back},
		{k.Pager, k.Editor, k.Copy, k.Decide, k.Followup, k.History},
		{k.View, k.Refresh, k.Help, k.Quit},
	}
}
