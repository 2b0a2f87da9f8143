package tui

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/detail"
	"github.com/agentsift/sift/themes"
)

// statusTTL is how long a status message stays.
const statusTTL = 5 * time.Second

// screen is the screen the app shows.
type screen uint8

const (
	screenInbox screen = iota
	screenSession
	screenToolCall
)

// ImportProgressMsg reports a background import's progress; cmd/sift
// sends it to the program. New sessions appear without moving the cursor.
type ImportProgressMsg struct {
	// Files and Total count the stream files seen and to be seen.
	Files, Total int
	// Sessions counts the sessions added or updated so far.
	Sessions int
	Done     bool
	Err      error
}

// SweepMsg reports a retention sweep that cmd/sift ran in the background.
// Every pass shows in the status line, saying what it removed (a failure
// loudly), and reloads the inbox, counts included.
type SweepMsg struct {
	// Removed is what the pass removed, in one line: "2 files (1.2 MB),
	// 1 session, review events of 3 sessions".
	Removed string
	Err     error
	// Warning is one line about a logs folder the sweep refused to
	// touch (not sift's own, a link, the home folder); "" when none.
	Warning string
}

// App is the root model: it owns the screens and overlays, handles the
// global keys, sizes and app messages, and forwards the rest to the
// screen in front.
type App struct {
	c     *Common
	opts  Options
	w, h  int
	sized bool

	screen  screen
	inbox   *inboxView
	session *sessionView
	tool    *toolView

	dialog    *decisionDialog
	confirm   *confirmDialog
	history   *historyView
	followups *followupsView
	copying   *copyMenu
	showHelp  bool

	help    help.Model
	spinner spinner.Model

	status    string
	statusErr bool
	statusSeq int
	importing string
	lastPull  time.Time

	// version is the store's version at the last poll (versionKnown once
	// read); pendingReload says the store changed while the inbox was
	// not in front, or the reviewer busy with it (live.go).
	version       uint64
	versionKnown  bool
	pendingReload bool
	// spinning says a chain of spinner ticks is under way.
	spinning bool

	details map[string]*detail.File
	// coverage is what sift has seen (Options.Coverage), read when the
	// help opens.
	coverage []string
}

// coverageMsg is sent when the coverage lines are read.
type coverageMsg struct{ lines []string }

// loadCoverage reads the coverage lines the help shows, when the app has
// them.
func (m *App) loadCoverage() tea.Cmd {
	f := m.opts.Coverage
	if f == nil {
		return nil
	}
	return func() tea.Msg {
		lines, err := f(context.Background())
		if err != nil {
			lines = []string{"coverage: " + err.Error()}
		}
		return coverageMsg{lines: lines}
	}
}

var _ tea.Model = (*App)(nil)

// NewApp builds the app. It does no IO: the first page is loaded by the
// command Init returns, after the first frame.
func NewApp(o Options) (*App, error) {
	if o.Store == nil {
		return nil, errors.New("tui: no store")
	}
	p, err := themes.ByName(o.Theme, true)
	if err != nil {
		return nil, err
	}
	if o.Title == "" {
		o.Title = "sift"
	}
	c := newCommon(o, p)
	m := &App{c: c, opts: o, w: 80, h: 24, help: help.New(), details: map[string]*detail.File{}}
	m.help.Styles = c.Styles.Help
	m.spinner = spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(c.Styles.App.Accent))
	m.inbox = newInbox(c, append(BuiltinTabs(), o.Tabs...))
	m.inbox.spin = m.spinner.View()
	m.session = newSessionView(c)
	m.tool = newToolView(c)
	m.tool.decided = m.session.callDecision
	if o.Importing {
		m.importing = "importing new streams…"
		m.inbox.importing = m.importing
	}
	m.layout()
	return m, nil
}

// Init implements tea.Model: it asks for the terminal background and
// loads the first page.
func (m *App) Init() tea.Cmd {
	cmds := []tea.Cmd{m.inbox.load(), m.askVersion()}
	if m.opts.Theme == "" || m.opts.Theme == "auto" || m.opts.Theme == "high-contrast" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.c.Animate && m.importing != "" {
		cmds = append(cmds, m.spinner.Tick)
	}
	return tea.Batch(cmds...)
}

// intent returns a command that delivers a message: how children ask the
// app to act.
func intent(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// reportErr returns a command that reports an error in the status line.
func reportErr(err error) tea.Cmd { return intent(errMsg{err}) }

// current is the screen in front.
func (m *App) current() component {
	switch m.screen {
	case screenSession:
		return m.session
	case screenToolCall:
		return m.tool
	}
	return m.inbox
}

// layout gives the screens the body's size: the frame minus the title,
// its rule, the status line and the help line.
func (m *App) layout() {
	bw, bh := m.w, max(m.h-4, 1)
	m.inbox.SetSize(bw, bh)
	m.session.SetSize(bw, bh)
	m.tool.SetSize(bw, bh)
	m.help.SetWidth(m.w - 1)
}

// Update implements tea.Model.
func (m *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h, m.sized = max(msg.Width, 20), max(msg.Height, 8), true
		m.layout()
		return m, m.inbox.syncPreview()
	case tea.BackgroundColorMsg:
		m.setTheme(msg.IsDark())
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.MouseClickMsg:
		return m, m.handleClick(msg)
	case spinner.TickMsg:
		return m, m.handleSpin(msg)
	case pollMsg:
		return m, m.askVersion()
	case changedMsg:
		return m, m.handleChanged(msg)
	case StoreWrittenMsg:
		return m, m.reloadInbox()
	case ImportProgressMsg:
		return m, m.handleImport(msg)
	case SweepMsg:
		return m, m.handleSweep(msg)
	}
	if cmd, ok := m.handleAppMsg(msg); ok {
		return m, cmd
	}
	if m.dialog != nil {
		return m, m.dialog.Update(msg)
	}
	cmd := m.current().Update(msg)
	if _, ok := msg.(pageLoadedMsg); ok {
		return m, tea.Batch(cmd, m.spinLive())
	}
	return m, cmd
}

// spinLive starts the spinner when the inbox shows a running session and
// it is not turning yet.
func (m *App) spinLive() tea.Cmd {
	if !m.c.Animate || m.spinning || !m.inbox.running() {
		return nil
	}
	m.spinning = true
	return m.spinner.Tick
}

// handleAppMsg handles the app's own messages; ok is false for others.
func (m *App) handleAppMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case openSessionMsg:
		return m.openSession(msg.key, msg.search, msg.todo), true
	case sessionLoadedMsg:
		return m.handleSessionLoaded(msg), true
	case openToolCallMsg:
		return m.openToolCall(msg.id), true
	case detailLoadedMsg:
		return m.handleDetail(msg), true
	case openDecisionMsg, decisionMadeMsg, decisionSavedMsg, undoMsg, undoneMsg, todoMsg, todoFoundMsg:
		return m.handleDecisionMsg(msg), true
	case claimMsg:
		return m.claim(msg), true
	case claimDoneMsg:
		return m.handleClaimed(msg), true
	case openHistoryMsg:
		return m.openHistory(msg.key), true
	case historyLoadedMsg:
		return m.handleHistory(msg), true
	case openFollowupsMsg:
		return m.openFollowups(), true
	case followupsLoadedMsg:
		return m.handleFollowups(msg), true
	case openCopyMsg:
		m.copying = &copyMenu{c: m.c, items: msg.items}
		return nil, true
	case copyMsg:
		m.copying = nil
		return tea.Batch(tea.SetClipboard(msg.text), m.setStatus("copied "+msg.what+" (OSC 52): "+firstLine(msg.text), false)), true
	case coverageMsg:
		m.coverage = msg.lines
		return nil, true
	case closeOverlayMsg:
		m.dialog, m.history, m.followups, m.copying, m.showHelp = nil, nil, nil, nil, false
		if m.pendingReload {
			return m.reloadInbox(), true
		}
		return nil, true
	case statusMsg:
		return m.setStatus(msg.text, false), true
	case errMsg:
		slog.Error("Inbox command failed", "err", msg.err)
		return m.setStatus(msg.err.Error(), true), true
	case clearStatusMsg:
		if msg.seq == m.statusSeq {
			m.status = ""
		}
		return nil, true
	case execMsg:
		return m.handleExec(msg), true
	case execDoneMsg:
		return m.handleExecDone(msg), true
	case askExecMsg:
		m.confirm = &confirmDialog{c: m.c, ask: msg}
		return nil, true
	case confirmDoneMsg:
		return m.handleConfirmed(msg), true
	}
	return nil, false
}

// setTheme rebuilds the styles for the terminal's background when the
// theme follows it.
func (m *App) setTheme(dark bool) {
	p, err := themes.ByName(m.opts.Theme, dark)
	if err != nil || p.Name == m.c.Styles.Palette.Name {
		return
	}
	m.c.Styles = NewStyles(p)
	m.help.Styles = m.c.Styles.Help
	m.spinner.Style = m.c.Styles.App.Accent
	m.inbox.filter.SetStyles(m.c.Styles.Input)
	m.tool.build()
}

// setStatus shows a status line for statusTTL.
func (m *App) setStatus(text string, isErr bool) tea.Cmd {
	m.statusSeq++
	m.status, m.statusErr = Inert(firstLine(text)), isErr
	if !m.c.Animate {
		return nil
	}
	seq := m.statusSeq
	return tea.Tick(statusTTL, func(time.Time) tea.Msg { return clearStatusMsg{seq} })
}

// handleKey handles the global keys, then the overlay or screen in front.
func (m *App) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.ForceQuit):
		return tea.Quit
	case m.confirm != nil:
		return m.confirm.Update(msg)
	case m.dialog != nil:
		return m.dialog.Update(msg)
	case m.showHelp:
		if key.Matches(msg, k.Help, k.Back, k.Quit) {
			m.showHelp = false
		}
		return nil
	case m.history != nil:
		return m.history.Update(msg)
	case m.copying != nil:
		return m.copying.Update(msg)
	case m.followups != nil:
		return m.followups.Update(msg)
	case m.screen == screenInbox && m.inbox.filtering, m.screen == screenToolCall && m.tool.searching:
		// An input mode: no global key fires while typing.
		return m.current().Update(msg)
	}
	switch {
	case key.Matches(msg, k.Quit) && m.screen == screenInbox:
		return tea.Quit
	case key.Matches(msg, k.Quit):
		return m.backScreen()
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return m.loadCoverage()
	case key.Matches(msg, k.View):
		return m.toggleMode()
	case key.Matches(msg, k.Refresh):
		return m.refresh()
	case key.Matches(msg, k.Back):
		return m.back()
	case key.Matches(msg, k.NextTodo):
		return m.jumpTodo(1)
	case key.Matches(msg, k.PrevTodo):
		return m.jumpTodo(-1)
	case key.Matches(msg, k.Followups):
		return m.openFollowups()
	default:
		return m.current().Update(msg)
	}
}

// back goes up one level.
func (m *App) back() tea.Cmd {
	switch m.screen {
	case screenToolCall:
		m.screen = screenSession
	case screenSession:
		if !m.session.back() {
			m.screen = screenInbox
			return m.inbox.reload()
		}
	case screenInbox:
		if m.inbox.q.Search != "" {
			m.inbox.filter.SetValue("")
			return m.inbox.setSearch("")
		}
	}
	return nil
}

// backScreen is q past the inbox: one screen up, a tool call to its
// session, a session to the inbox, where esc goes up one focus first.
func (m *App) backScreen() tea.Cmd {
	if m.screen == screenSession {
		m.session.back()
	}
	return m.back()
}

// toggleMode switches between the developer and the operator view.
func (m *App) toggleMode() tea.Cmd {
	if m.c.Mode == Developer {
		m.c.Mode = Operator
	} else {
		m.c.Mode = Developer
	}
	m.tool.build()
	m.session.clamp()
	return tea.Batch(m.inbox.reload(), m.setStatus("view: "+m.c.Mode.String(), false))
}

// refresh re-reads everything: the inbox's rows and counts, its preview
// and the open session; and asks the program to look for new files
// (Options.Rescan).
func (m *App) refresh() tea.Cmd {
	m.pendingReload = false
	m.inbox.invalidatePreview()
	cmds := []tea.Cmd{m.inbox.reload()}
	if rescan := m.opts.Rescan; rescan != nil {
		cmds = append(cmds, func() tea.Msg { rescan(); return nil })
	}
	if m.screen != screenInbox && m.session.s != nil {
		delete(m.details, m.session.s.Path)
		cmds = append(cmds, m.loadSession(m.session.s.Key(), m.session.search, 0))
	}
	return tea.Batch(cmds...)
}

// overlay reports whether a dialog, a box or the help is in front.
func (m *App) overlay() bool {
	return m.dialog != nil || m.confirm != nil || m.history != nil || m.followups != nil || m.copying != nil || m.showHelp
}

// handleClick selects (or, clicked again, opens) the row under the mouse.
func (m *App) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	if msg.Button != tea.MouseLeft || m.overlay() {
		return nil
	}
	y := msg.Y - 2
	switch m.screen {
	case screenInbox:
		return m.inbox.clickRow(msg.X, y)
	case screenSession:
		return m.session.clickRow(y)
	}
	return nil
}

func (m *App) handleSpin(msg spinner.TickMsg) tea.Cmd {
	busy := m.tool.loading || m.importing != "" || m.inbox.running()
	if !busy {
		m.spinning = false
		return nil
	}
	var cmd tea.Cmd
	m.spinning = true
	m.spinner, cmd = m.spinner.Update(msg)
	m.inbox.spin = m.spinner.View()
	if m.tool.loading {
		m.tool.spin = m.spinner.View()
		m.tool.build()
	}
	return cmd
}

// handleImport shows the progress of the background import and pulls
// new sessions in, at most twice a second, keeping the cursor.
func (m *App) handleImport(msg ImportProgressMsg) tea.Cmd {
	var cmds []tea.Cmd
	switch {
	case msg.Err != nil:
		m.importing = ""
		cmds = append(cmds, m.setStatus("import: "+msg.Err.Error(), true))
	case msg.Done:
		m.importing = ""
		cmds = append(cmds, m.setStatus(fmt.Sprintf("import done: %s, %s new or changed", plural(msg.Files, "file"), plural(msg.Sessions, "session")), false))
	default:
		m.importing = fmt.Sprintf("importing %s of %s files…", groupDigits(msg.Files), groupDigits(msg.Total))
	}
	// The list says so too, rather than "no sessions yet", until the
	// import ends.
	m.inbox.importing = m.importing
	if now := time.Now(); msg.Done || msg.Err != nil || now.Sub(m.lastPull) > 500*time.Millisecond {
		m.lastPull = now
		cmds = append(cmds, m.inbox.reload())
	}
	return tea.Batch(cmds...)
}

// handleSweep reports a background retention sweep and reloads the
// inbox: what it removed leaves the list and the counts.
func (m *App) handleSweep(msg SweepMsg) tea.Cmd {
	m.inbox.invalidatePreview()
	reload := m.inbox.reload()
	switch {
	case msg.Err != nil:
		slog.Error("Retention sweep failed", "err", msg.Err)
		return tea.Batch(reload, m.setStatus("retention sweep failed: "+msg.Err.Error(), true))
	case msg.Warning != "":
		slog.Warn("Retention sweep skipped the logs folder", "why", msg.Warning)
		return tea.Batch(reload, m.setStatus("retention: removed "+msg.Removed+"; "+msg.Warning, false))
	}
	return tea.Batch(reload, m.setStatus("retention: removed "+msg.Removed, false))
}

// groupDigits writes a count with a comma every three digits: "5,400".
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + groupDigits(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// plural is "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
