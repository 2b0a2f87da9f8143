package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// columns are the inbox columns; drop says which a narrow terminal loses
// first (highest first). A sortable column is wide enough for its title
// and the sort arrow; the work item takes extra width before the last
// words, up to its widest label in view. The outcome is never dropped:
// it is what triage ranks by, at every width; nor is the column of the
// order.
func (m *inboxView) columns() []column {
	cols := []column{
		{title: " ", width: 2},
		{title: "●", width: 1},
		{title: "agent", width: 8, drop: 3},
		{title: "work item · phase", width: 18, flex: true, max: m.labelWidth()},
		{title: "started", width: 7, drop: 10, sort: review.SortStarted, right: true},
		{title: "dur", width: 6, drop: 5, sort: review.SortDuration, right: true},
		{title: "cost", width: 7, sort: review.SortCost, right: true},
		{title: "tokens", width: 6, drop: 9, sort: review.SortTokens, right: true},
		{title: "stall", width: 5, drop: 7, sort: review.SortStalls, right: true},
		{title: "err", width: 3, drop: 6, sort: review.SortErrors, right: true},
		{title: "appr", width: 4, drop: 8, sort: review.SortApprovals, right: true},
		{title: "outcome", width: outcomeWidth(), sort: review.SortOutcome},
		{title: "tools", width: 5, drop: 11, right: true},
		{title: "flags", width: 12, drop: 12},
		{title: "last words", width: 10, flex: true, drop: 2},
	}
	for i := range cols {
		if cols[i].sort != "" {
			cols[i].width = max(cols[i].width, ansi.StringWidth(cols[i].title)+1)
		}
		if cols[i].sort == m.q.Sort {
			// The order's own column always shows.
			cols[i].drop = 0
		}
	}
	return cols
}

// outcomeWidth is the width of the outcome column: its widest word.
func outcomeWidth() int {
	w := ansi.StringWidth(summary.OutcomeRunning.Word())
	for _, o := range summary.Outcomes() {
		w = max(w, ansi.StringWidth(o.Word()))
	}
	return w
}

// labelWidth is the widest work item label of the loaded rows, with its
// twin mark, at least the column's title and at most 48.
func (m *inboxView) labelWidth() int {
	w := 17
	for i := range m.win {
		s := &m.win[i]
		lw := ansi.StringWidth(Inert(phaseLabel(s)))
		if mark := m.twins[s.Key()]; mark != "" {
			lw += 1 + ansi.StringWidth(mark)
		}
		w = max(w, lw)
	}
	return min(w, 48)
}

// listWidth is the width of the list: the body's, less the preview pane's
// and its border when it shows.
func (m *inboxView) listWidth() int {
	if !m.previewOn() {
		return m.w
	}
	return m.w - m.previewWidth() - 1
}

// View implements component: the list and, beside it, the preview pane.
func (m *inboxView) View() string {
	list := m.listLines(m.listWidth())
	if !m.previewOn() {
		return strings.Join(list, "\n")
	}
	pv := m.previewLines(m.previewWidth(), m.h)
	sep := m.c.Styles.App.Rule.Render("│")
	out := make([]string, m.h)
	for i := range out {
		l, r := "", ""
		if i < len(list) {
			l = list[i]
		}
		if i < len(pv) {
			r = pv[i]
		}
		out[i] = cell(l, m.listWidth(), false) + sep + r
	}
	return strings.Join(out, "\n")
}

// listLines are the list's column header and its visible lines.
func (m *inboxView) listLines(w int) []string {
	st := m.c.Styles
	cols := layoutColumns(m.columns(), w, 1)
	lines := make([]string, 0, m.h)
	lines = append(lines, m.headerRow(cols))
	if !m.loaded {
		return append(lines, st.App.Subtle.Render(" loading…"))
	}
	if m.total == 0 {
		return append(lines, st.App.Subtle.Render(" "+m.emptyText()))
	}
	for _, l := range m.lineRows() {
		s := m.at(l.row)
		switch {
		case s == nil:
			lines = append(lines, st.Table.Dim.Render(" …"))
		case l.header:
			lines = append(lines, m.groupHeader(s, w))
		default:
			lines = append(lines, m.row(cols, s, l.row))
		}
	}
	return lines
}

func (m *inboxView) emptyText() string {
	if m.q.Search != "" || m.q.Flagged || m.q.Undecided || m.q.Agent != "" || m.c.Mode == Operator {
		return "no matches · esc clears the filter, f/u/a toggle the quick filters, v the view, ]/[ the tab"
	}
	if m.tabs[m.tab].Query != "" {
		return "no sessions in this tab · ]/[ switch tabs"
	}
	if m.importing != "" {
		return m.importing
	}
	return "no sessions yet · sift import PATH, or sift demo for a sample inbox"
}

func (m *inboxView) headerRow(cols []column) string {
	st := m.c.Styles
	cells := make([]string, len(cols))
	for i, c := range cols {
		title := c.title
		style := st.Table.Header
		if c.sort != "" && c.sort == m.q.Sort {
			title += map[bool]string{true: "▲", false: "▼"}[m.q.Asc]
			style = st.Table.HeaderSort
		}
		cells[i] = style.Render(cell(title, c.width, c.right))
	}
	return strings.Join(cells, " ")
}

// row renders the session of row i.
func (m *inboxView) row(cols []column, s *review.Session, i int) string {
	st := m.c.Styles
	sel := i == m.cursor
	cells := make([]string, len(cols))
	for j, c := range cols {
		switch c.title {
		case "●":
			if b := m.liveBadge(s); b != "" {
				cells[j] = b
			} else {
				cells[j] = badge(st, s)
			}
			continue
		case " ":
			cur, mark := " ", " "
			if sel {
				cur = st.Table.Cursor.Render("▶")
			}
			if m.marked[s.Key()] {
				mark = st.Table.Cursor.Render("•")
			}
			cells[j] = cur + mark
			continue
		}
		text := m.cellText(c.title, s, i)
		if c.title == "work item · phase" {
			text = m.withTwinMark(text, s, c.width)
		}
		text = cell(text, c.width, c.right)
		style, match := st.Table.Cell, st.Table.Match
		switch {
		case sel:
			style, match = st.Table.Selected, st.Table.SelectedMatch
		case c.title == "err" && s.ErrorCount > 0, c.title == "flags" && s.Flagged:
			style = st.Badge.Error
		case c.title == "stall" && s.StallCount > 0:
			style = st.Badge.Stall
		case c.title == "appr" && s.ApprovalCount > 0:
			style = st.Badge.Approval
		case c.title == "last words":
			style = st.App.Muted
		}
		if searched(c.title) {
			cells[j] = highlight(text, m.sq, style, match)
		} else {
			cells[j] = style.Render(text)
		}
	}
	sep := " "
	if sel {
		sep = st.Table.Selected.Render(" ")
	}
	return strings.Join(cells, sep)
}

// searched reports whether a column shows text a search may have
// matched: its matches are marked there.
func searched(col string) bool {
	return col == "agent" || col == "work item · phase" || col == "last words"
}

// cellText is the text of one column of the session of row i.
func (m *inboxView) cellText(col string, s *review.Session, i int) string {
	switch col {
	case "agent":
		return Inert(s.AgentKind)
	case "work item · phase":
		if m.q.GroupByWorkItem {
			return groupedLabel(s, m.lastOfGroup(i))
		}
		return Inert(phaseLabel(s))
	case "started":
		if s.StartedAt == nil && s.ActiveAt != nil {
			// No start recorded: its end, else its file's time, where
			// the started order places it; ~ as for an estimated cost.
			return "~" + fmtAgo(s.ActiveAt, m.c.Now())
		}
		return fmtAgo(s.StartedAt, m.c.Now())
	case "dur":
		if s.Live == review.LiveRunning {
			return elapsed(s, m.c.Now())
		}
		return fmtMs(s.TotalDurationMs)
	case "cost":
		return fmtCost(s.EstimatedUSD, s.CostSource)
	case "tokens":
		return fmtTokens(tokensOf(&s.Summary))
	case "stall":
		return fmtCount(s.StallCount)
	case "err":
		return fmtCount(s.ErrorCount)
	case "appr":
		return fmtCount(s.ApprovalCount)
	case "tools":
		return fmtCount(s.ToolCallCount)
	case "outcome":
		return sessionOutcome(s).Word()
	case "flags":
		return flagWords(s.Flags)
	case "last words":
		return withClaim(s, m.c.Now(), m.lastWordsText(s))
	}
	return ""
}

// sessionOutcome is a session's outcome as its row shows it: running
// while `sift run` writes it, interrupted when that run went stale (as
// the triage order ranks it), else its summary's.
func sessionOutcome(s *review.Session) summary.Outcome {
	switch s.Live {
	case review.LiveRunning:
		return summary.OutcomeRunning
	case review.LiveInterrupted:
		return summary.OutcomeInterrupted
	}
	return s.Outcome
}

// lastWordsText is the last words column without its claim: what a
// running session does, else the session's last words.
func (m *inboxView) lastWordsText(s *review.Session) string {
	if p := livePrefix(s); p != "" {
		if w := lastWords(&s.Summary); w != "" && s.Live != review.LiveRunning {
			return p + " · " + Inert(w)
		}
		return p
	}
	return Inert(lastWords(&s.Summary))
}

// withClaim puts a session's live claim in front of a row's text, so
// that the others see who reviews it: "@ana · …", short because the
// column is (the preview and the session screen spell it out).
func withClaim(s *review.Session, now time.Time, text string) string {
	if !s.Claim.LiveAt(now) {
		return text
	}
	c := "@" + Inert(s.Claim.Reviewer)
	switch {
	case text == "":
		return c
	}
	return c + " · " + text
}

// flagWords names a session's flags in a few letters each: "fail appr".
func flagWords(fs []summary.Flag) string {
	short := map[summary.Flag]string{
		summary.FlagToolFailed: "fail", summary.FlagApproval: "appr", summary.FlagHarnessError: "err",
		summary.FlagTokenSpike: "spike", summary.FlagStall: "stall", summary.FlagUnfinishedTool: "open",
		summary.FlagRunFailed: "run", summary.FlagTruncated: "cut",
	}
	words := make([]string, 0, len(fs))
	for _, f := range fs {
		w, ok := short[f]
		if !ok {
			w = string(f)
		}
		words = append(words, w)
	}
	return Inert(strings.Join(words, " "))
}

// badge is a session's one-character review state or flag badge: its
// decision, or its flagged turns' decisions rolled up.
func badge(st *Styles, s *review.Session) string {
	if s.State != "" {
		return decisionBadge(st, s.State)
	}
	switch {
	case s.Flagged:
		return st.Badge.Flagged.Render("⚑")
	case s.Plaintext:
		return st.Badge.Unknown.Render("?")
	}
	return st.Table.Dim.Render("·")
}

// decisionBadge is the badge of a decision.
func decisionBadge(st *Styles, d review.DecisionKind) string {
	switch d {
	case review.Reviewed:
		return st.Badge.Reviewed.Render("✓")
	case review.NeedsFollowup:
		return st.Badge.Followup.Render("↻")
	case review.Ignored:
		return st.Badge.Ignored.Render("–")
	case review.Undone:
		return st.Badge.Unknown.Render("↶")
	}
	return st.Badge.Unknown.Render("?")
}

// title is the inbox's part of the title bar: how many sessions the
// view holds and how many of them are left to review (todoTitle), and
// the parts of its query. The tab is named by the tab bar under it.
func (m *inboxView) title() (left string, right []string) {
	left = "sessions"
	if m.loaded {
		// The figures are of one moment: the counts' (the rows may be of
		// a later one, until the counts that follow them return); until
		// the counts of a new query return, its page's total alone.
		n, todo := plural(m.total, "session"), "… to review"
		if m.counted != nil && *m.counted == m.countQuery() {
			n, todo = plural(m.counts.Total, "session"), m.todoTitle(m.counts)
		}
		if m.sq != nil {
			n += " match"
		}
		left = n + " · " + todo
	}
	if n := len(m.marked); n > 0 {
		left += " · " + strconv.Itoa(n) + " marked"
	}
	dir := map[bool]string{true: "▲", false: "▼"}[m.q.Asc]
	if m.q.Sort == review.SortTriage {
		dir = ""
	}
	right = []string{"sort: " + string(m.q.Sort) + dir}
	var f []string
	if m.q.Flagged {
		f = append(f, "flagged")
	}
	if m.q.Undecided {
		f = append(f, "undecided")
	}
	if m.q.Agent != "" {
		f = append(f, Inert(m.q.Agent))
	}
	if m.q.Search != "" && !m.filtering {
		f = append(f, "/"+Inert(m.q.Search))
	}
	if len(f) > 0 {
		right = append(right, "filter: "+strings.Join(f, ","))
	}
	if m.q.GroupByWorkItem {
		right = append(right, "grouped by work item")
	}
	return left, right
}
