package tui

import (
	"context"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// inboxView is the session list. It keeps only a window of rows around the
// visible ones and asks the store for more as the cursor moves, so that
// scrolling costs the visible rows, not the store's size.
type inboxView struct {
	c    *Common
	w, h int

	q      review.Query
	total  int
	loaded bool
	// importing is the background import's progress while it runs
	// ("importing 55 of 5,400 files…"): an empty list says it rather
	// than "no sessions yet".
	importing string
	// counts are the title's figures, all of one moment (the list's
	// rows may be of a later one); counted is the query they are for,
	// and recount asks for them again after the next page.
	counts   review.Counts
	counted  *review.Query
	countSeq int
	recount  bool

	cursor int // absolute index of the selected row
	top    int // absolute index of the first visible row
	winOff int // absolute index of win[0]
	win    []review.Session
	groups map[string]review.GroupTotals
	seq    int // sequence number of the latest page request

	// twins are the twin marks of the loaded rows (inbox_twins.go).
	twins map[review.SessionKey]string

	// keep is the session to keep under the cursor when the next page
	// arrives; advance moves on to the next one left to review from the
	// row decidedRow, where the session decided here was (deciding
	// while its decision is being saved). locate asks the store where
	// keep went (a new order or filter).
	keep       *review.SessionKey
	advance    bool
	deciding   bool
	decidedRow int
	locate     bool

	filter    textinput.Model
	filtering bool
	// sq is the search as its matches are marked in the rows, nil when
	// none is active; searchErr why the store could not read it.
	sq        *search.Query
	searchErr string
	// cancel cancels the page query under way, cancelCounts the counts:
	// a keystroke's query replaces the last one's. restart is set while a
	// changed query's first page is awaited: the old rows stay until it
	// arrives.
	cancel, cancelCounts context.CancelFunc
	restart              bool

	// marked are the sessions m marked, which d and x decide together.
	marked map[review.SessionKey]bool
	// preview is the pane beside the list (p); showPreview is the
	// reviewer's choice, previewSet whether they made one (else the pane
	// shows from 120 columns).
	preview     previewPane
	showPreview bool
	previewSet  bool
	// tabs are the inbox's tabs (tabs.go), tab the current one;
	// tabCounts how many sessions each holds, in the mode tabMode,
	// tabSeq numbering their requests; tabCounting is set while they
	// are counted, tabStale when they changed meanwhile.
	tabs                  []Tab
	tab                   int
	tabCounts             []int
	tabSeq                int
	tabMode               Mode
	tabCounting, tabStale bool
	// todoSeq numbers the searches for the next undecided session.
	todoSeq int
	// spin is the spinner's frame, drawn as a running session's badge.
	spin string
}

var _ component = (*inboxView)(nil)

type (
	// pageLoadedMsg is sent when an inbox page query returns; at is the
	// row of the session the load located (-1: none), to show on the
	// screen's line.
	pageLoadedMsg struct {
		seq    int
		offset int
		page   review.Page
		at     int
		line   int
		err    error
	}
	// countsLoadedMsg is sent when the title's counts return.
	countsLoadedMsg struct {
		seq    int
		q      review.Query
		counts review.Counts
		err    error
	}
)

func newInbox(c *Common, tabs []Tab) *inboxView {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "search: words, \"a phrase\", -word, agent:codex, tool:Bash, since:24h (? for all)"
	ti.SetStyles(c.Styles.Input)
	// The last word of a search typed in the inbox is the start of a word:
	// the list follows the typing, and stays as it was when enter ends it.
	return &inboxView{c: c, q: review.Query{Sort: review.SortTriage, Typing: true, Reviewer: c.Reviewer}, filter: ti, marked: map[review.SessionKey]bool{},
		tabs: tabs}
}

// SetSize implements component.
func (m *inboxView) SetSize(w, h int) {
	m.w, m.h = w, h
	m.filter.SetWidth(max(w-4, 10))
	m.clampTop()
}

// visible is how many rows fit under the column header.
func (m *inboxView) visible() int { return max(m.h-1, 1) }

// query is the store query for the current state: the tab's, narrowed
// by the search typed and the quick filters.
func (m *inboxView) query() review.Query {
	q := m.withTab(m.q)
	if m.c.Mode == Operator {
		q.Flagged = true
	}
	return q
}

// load asks the store for the window around the visible rows (from the
// top for a changed query), cancelling the query under way: its answer
// would be dropped anyway. After a change of order or filter that keeps
// the selection (locate), it first asks where the selected session went,
// and loads the window around it with the session on the same line of
// the screen.
func (m *inboxView) load() tea.Cmd {
	m.seq++
	seq, vis := m.seq, m.visible()
	q := m.query()
	q.Offset = max(m.top-vis, 0)
	if m.restart {
		q.Offset = 0
	}
	q.Limit = vis * 3
	q.Count = true
	st := m.c.Store
	var keep *review.SessionKey
	line := m.cursor - m.top
	if m.locate && m.keep != nil {
		keep = m.keep
	}
	m.locate = false
	if m.cancel != nil {
		m.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	return func() tea.Msg {
		defer cancel()
		at := -1
		if keep != nil {
			i, err := st.Locate(ctx, q, *keep)
			if err != nil {
				return pageLoadedMsg{seq: seq, err: err}
			}
			if at = i; at >= 0 {
				q.Offset = max(at-line-vis, 0)
			}
		}
		p, err := st.ListSessions(ctx, q)
		return pageLoadedMsg{seq: seq, offset: q.Offset, page: p, at: at, line: line, err: err}
	}
}

// countQuery is the part of the query the counts depend on.
func (m *inboxView) countQuery() review.Query {
	q := m.query()
	q.Sort, q.Asc, q.Limit, q.Offset = "", false, 0, 0
	return q
}

// loadCounts asks the store for the title's counts, unless they are
// known for this query.
func (m *inboxView) loadCounts() tea.Cmd {
	q := m.countQuery()
	tabs := m.loadTabCounts(m.recount)
	if m.counted != nil && *m.counted == q && !m.recount {
		return tabs
	}
	m.recount = false
	m.countSeq++
	seq, st := m.countSeq, m.c.Store
	if m.cancelCounts != nil {
		m.cancelCounts()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancelCounts = cancel
	return tea.Batch(tabs, func() tea.Msg {
		defer cancel()
		c, err := st.Counts(ctx, q)
		return countsLoadedMsg{seq: seq, q: q, counts: c, err: err}
	})
}

// reload reloads the window keeping the selected session under the
// cursor, on its line of the screen, wherever new rows put it (the store
// locates it); after a decision made here, the cursor moves on instead.
func (m *inboxView) reload() tea.Cmd {
	m.recount = true
	if s := m.selected(); s != nil {
		k := s.Key()
		// While a decision made here is saved, a reload (another
		// process's write, the store's change poll) does not follow the
		// decided session down: the cursor moves on from its row.
		m.keep, m.locate = &k, !m.advance && !m.deciding
	}
	return m.load()
}

// needLoad reports whether the visible rows are outside the loaded window.
func (m *inboxView) needLoad() bool {
	end := min(m.top+m.visible(), m.total)
	return m.top < m.winOff || end > m.winOff+len(m.win)
}

// selected returns the session under the cursor, nil when not loaded.
func (m *inboxView) selected() *review.Session {
	i := m.cursor - m.winOff
	if i < 0 || i >= len(m.win) {
		return nil
	}
	return &m.win[i]
}

// Update implements component. A change of selection loads the preview.
func (m *inboxView) Update(msg tea.Msg) tea.Cmd {
	cmd := m.update(msg)
	return tea.Batch(cmd, m.syncPreview())
}

func (m *inboxView) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case previewLoadedMsg:
		m.preview.loaded(msg)
		return nil
	case pageLoadedMsg:
		return m.handlePage(msg)
	case tabCountsLoadedMsg:
		return m.tabCountsLoaded(msg)
	case countsLoadedMsg:
		if msg.seq != m.countSeq {
			return nil // a later count replaced it (and cancelled it)
		}
		if msg.err == nil {
			m.counts, m.counted = msg.counts, &msg.q
		} else if searchProblem(msg.err) == "" {
			return reportErr(msg.err)
		}
	case tea.KeyPressMsg:
		if m.filtering {
			return m.handleFilterKey(msg)
		}
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelUp {
			return m.move(-3)
		}
		return m.move(3)
	case tea.PasteMsg:
		if m.filtering {
			var cmd tea.Cmd
			m.filter, cmd = m.filter.Update(msg)
			return tea.Batch(cmd, m.setSearch(m.filter.Value()))
		}
	}
	return nil
}

func (m *inboxView) handlePage(msg pageLoadedMsg) tea.Cmd {
	if msg.seq != m.seq {
		return nil
	}
	if msg.err != nil {
		if why := searchProblem(msg.err); why != "" {
			m.searchErr, m.restart = why, false
			return nil
		}
		return reportErr(msg.err)
	}
	m.loaded = true
	if m.restart {
		m.restart = false
		m.cursor, m.top = 0, 0
	}
	m.searchErr = ""
	m.total = msg.page.Total
	m.winOff, m.win, m.groups = msg.offset, msg.page.Sessions, msg.page.Groups
	m.markTwins()
	switch {
	case msg.at >= 0:
		m.cursor, m.top = msg.at, max(msg.at-msg.line, 0)
		m.keep, m.advance = nil, false
	case m.keep != nil:
		m.keepCursor(*m.keep)
		m.keep = nil
	}
	m.cursor = min(m.cursor, max(m.total-1, 0))
	m.clampTop()
	if m.needLoad() && len(m.win) > 0 {
		return tea.Batch(m.load(), m.loadCounts())
	}
	return m.loadCounts()
}

// keepCursor moves the cursor to a session after a reload, keeping its
// row on the same line of the screen; after a decision made here it
// moves on to the next session left to review (nextToReview).
func (m *inboxView) keepCursor(k review.SessionKey) {
	line := m.cursor - m.top
	found := -1
	for i, s := range m.win {
		if s.Key() == k {
			found = m.winOff + i
			break
		}
	}
	switch {
	case m.advance:
		m.advance, m.deciding = false, false
		m.cursor = m.nextToReview(m.decidedRow, found)
	case found >= 0:
		m.cursor = found
	}
	m.top = max(m.cursor-line, 0)
}

// nextToReview is the row the cursor moves to after the session on row
// from was decided (found is where the decided session is now, -1 when
// the view no longer holds it): the first loaded row left to review (todo)
// from that row on, else before it; from itself when none is.
func (m *inboxView) nextToReview(from, found int) int {
	start := from
	if found == from {
		start = from + 1
	}
	n := len(m.win)
	for j := range n {
		i := (start - m.winOff + j) % n
		if i < 0 {
			i += n
		}
		if m.winOff+i != found && todo(&m.win[i]) {
			return m.winOff + i
		}
	}
	return start
}

func (m *inboxView) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.Up):
		return m.move(-1)
	case key.Matches(msg, k.Down):
		return m.move(1)
	case key.Matches(msg, k.PageUp):
		return m.move(-m.visible())
	case key.Matches(msg, k.PageDown):
		return m.move(m.visible())
	case key.Matches(msg, k.Top):
		return m.move(-m.total)
	case key.Matches(msg, k.Bottom):
		return m.move(m.total)
	case key.Matches(msg, k.Enter):
		if s := m.selected(); s != nil {
			return intent(openSessionMsg{key: s.Key(), search: m.searchOf()})
		}
	case key.Matches(msg, k.Decide, k.Followup):
		if ts := m.targets(); len(ts) > 0 {
			return intent(openDecisionMsg{targets: ts, followup: key.Matches(msg, k.Followup)})
		}
	case key.Matches(msg, k.Mark):
		return m.toggleMark()
	case key.Matches(msg, k.Claim):
		if s := m.selected(); s != nil {
			return claimKey(s)
		}
	case key.Matches(msg, k.Undo):
		if s := m.selected(); s != nil {
			return intent(undoMsg{target: sessionTarget(s)})
		}
	case key.Matches(msg, k.Preview):
		m.showPreview, m.previewSet = !m.previewOn(), true
		m.SetSize(m.w, m.h)
		return m.syncPreview()
	case key.Matches(msg, k.History):
		if s := m.selected(); s != nil {
			return intent(openHistoryMsg{key: s.Key()})
		}
	case key.Matches(msg, k.Filter):
		m.filtering = true
		return m.filter.Focus()
	case key.Matches(msg, k.NextTab):
		return m.switchTab(1)
	case key.Matches(msg, k.PrevTab):
		return m.switchTab(-1)
	}
	return m.handleQueryKey(msg)
}

// handleQueryKey handles the keys that change the query: sorts, quick
// filters and grouping.
func (m *inboxView) handleQueryKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	for i, b := range k.Sorts {
		if key.Matches(msg, b) {
			m.setSort(review.SortKeys()[i])
			return m.requeryKeep()
		}
	}
	switch {
	case key.Matches(msg, k.Sort):
		ks := review.SortKeys()
		for i, s := range ks {
			if s == m.q.Sort {
				m.setSort(ks[(i+1)%len(ks)])
				break
			}
		}
	case key.Matches(msg, k.Flagged):
		m.q.Flagged = !m.q.Flagged
	case key.Matches(msg, k.Undecided):
		m.q.Undecided = !m.q.Undecided
	case key.Matches(msg, k.Agent):
		switch s := m.selected(); {
		case m.q.Agent != "":
			m.q.Agent = ""
		case s != nil:
			m.q.Agent = s.AgentKind
		}
	case key.Matches(msg, k.Group):
		m.q.GroupByWorkItem = !m.q.GroupByWorkItem
	default:
		return nil
	}
	return m.requeryKeep()
}

// setSort sorts by a key; the same key again flips the direction. A new
// key starts largest (or newest) first.
func (m *inboxView) setSort(s review.SortKey) {
	if m.q.Sort == s {
		m.q.Asc = !m.q.Asc
		return
	}
	m.q.Sort, m.q.Asc = s, false
}

// requery runs a changed query from the top. The rows shown stay until
// its first page arrives (handlePage), so that typing a search never
// blanks the list.
func (m *inboxView) requery() tea.Cmd {
	m.restart, m.keep, m.locate = true, nil, false
	return m.load()
}

// requeryKeep runs a changed order or quick filter keeping the selected
// session selected, on the same line of the screen, wherever the new
// order puts it; from the top when the query no longer selects it.
func (m *inboxView) requeryKeep() tea.Cmd {
	s := m.selected()
	if s == nil {
		return m.requery()
	}
	k := s.Key()
	m.keep, m.locate, m.advance = &k, true, false
	return m.load()
}

func (m *inboxView) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.filtering = false
		m.filter.Blur()
		m.filter.SetValue("")
		return m.setSearch("")
	case "enter":
		if m.searchErr != "" {
			// The rows are not the search's: its problem stays in view.
			return nil
		}
		m.filtering = false
		m.filter.Blur()
		return nil
	}
	var cmd tea.Cmd
	m.filter, cmd = m.filter.Update(msg)
	if v := m.filter.Value(); v != m.q.Search {
		return tea.Batch(cmd, m.setSearch(v))
	}
	return cmd
}

// move moves the cursor by n rows and loads rows that come into view.
func (m *inboxView) move(n int) tea.Cmd {
	if m.total == 0 {
		return nil
	}
	m.cursor = min(max(m.cursor+n, 0), m.total-1)
	m.clampTop()
	if m.needLoad() {
		return m.load()
	}
	return nil
}

// clickRow selects the row at a line of the body; clicking the selected
// row opens it. A group's header line, and the preview pane, select
// nothing.
func (m *inboxView) clickRow(x, y int) tea.Cmd {
	lines := m.lineRows()
	if x >= m.listWidth() || y < 1 || y > len(lines) || lines[y-1].header {
		return nil
	}
	i := lines[y-1].row
	if i == m.cursor {
		return m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	return m.move(i - m.cursor)
}

// clampTop scrolls so that the cursor is visible.
func (m *inboxView) clampTop() {
	vis := m.visible()
	if m.cursor < m.top {
		m.top = m.cursor
	}
	if m.cursor >= m.top+vis {
		m.top = m.cursor - vis + 1
	}
	m.top = max(min(m.top, m.total-vis), 0)
	// Grouped, the groups' header lines take rows too.
	for m.q.GroupByWorkItem && m.top < m.cursor && !m.shows(m.cursor) {
		m.top++
	}
}

// ShortHelp implements help.KeyMap.
func (m *inboxView) ShortHelp() []key.Binding {
	k := m.c.Keys
	return []key.Binding{k.Enter, k.Sort, k.Filter, k.NextTab, k.Flagged, k.Mark, k.Decide, k.Followup, k.NextTodo, k.Preview, k.Quit}
}

// FullHelp implements help.KeyMap.
func (m *inboxView) FullHelp() [][]key.Binding {
	k := m.c.Keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Enter, k.NextTodo, k.PrevTodo},
		// s heads the filters' column: the nine orders fill the
		// column of a short terminal's help.
		k.Sorts,
		{k.Sort, k.Filter, k.NextTab, k.PrevTab, k.Flagged, k.Undecided, k.Agent, k.Group, k.Preview},
		{k.Mark, k.Decide, k.Followup, k.Undo, k.History, k.Followups, k.Claim},
		{k.View, k.Refresh, k.Help, k.Quit},
	}
}
