package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
)

// columns are the inbox columns; drop says which a narrow terminal loses
// first (highest first).
func (m *inboxView) columns() []column {
	return []column{
		{title: " ", width: 1},
		{title: "●", width: 1},
		{title: "agent", width: 8, drop: 3},
		{title: "work item · phase", width: 14, flex: true, max: 28},
		{title: "started", width: 7, drop: 8, sort: review.SortStarted, right: true},
		{title: "dur", width: 6, drop: 5, sort: review.SortDuration, right: true},
		{title: "cost", width: 7, sort: review.SortCost, right: true},
		{title: "tokens", width: 6, drop: 7, sort: review.SortTokens, right: true},
		{title: "stall", width: 5, drop: 4, sort: review.SortStalls, right: true},
		{title: "err", width: 3, sort: review.SortErrors, right: true},
		{title: "appr", width: 4, drop: 6, sort: review.SortApprovals, right: true},
		{title: "tools", width: 5, drop: 9, right: true},
		{title: "last words", width: 10, flex: true, drop: 2},
	}
}

// View implements component.
func (m *inboxView) View() string {
	st := m.c.Styles
	cols := layoutColumns(m.columns(), m.w, 1)
	lines := make([]string, 0, m.h)
	lines = append(lines, m.headerRow(cols))
	if !m.loaded {
		return strings.Join(append(lines, st.App.Subtle.Render(" loading…")), "\n")
	}
	if m.total == 0 {
		return strings.Join(append(lines, st.App.Subtle.Render(" "+m.emptyText())), "\n")
	}
	prevWI := ""
	for i := m.top; i < min(m.top+m.visible(), m.total); i++ {
		j := i - m.winOff
		if j < 0 || j >= len(m.win) {
			lines = append(lines, st.Table.Dim.Render(" …"))
			prevWI = ""
			continue
		}
		s := &m.win[j]
		lines = append(lines, m.row(cols, s, i == m.cursor, m.q.GroupByWorkItem && s.WorkItemID == prevWI && i != m.top))
		prevWI = s.WorkItemID
	}
	return strings.Join(lines, "\n")
}

func (m *inboxView) emptyText() string {
	if m.q.Search != "" || m.q.Flagged || m.q.Undecided || m.q.Agent != "" || m.c.Mode == Operator {
		return "no sessions match · esc clears the filter, f/u/a toggle the quick filters, v the view"
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
			// The arrow always shows: the title gives way to it.
			arrow := map[bool]string{true: "▲", false: "▼"}[m.q.Asc]
			title = ansi.Truncate(title, c.width-1, "") + arrow
			style = st.Table.HeaderSort
		}
		cells[i] = style.Render(cell(title, c.width, c.right))
	}
	return strings.Join(cells, " ")
}

// row renders one session.
func (m *inboxView) row(cols []column, s *review.Session, sel, grouped bool) string {
	st := m.c.Styles
	cells := make([]string, len(cols))
	for i, c := range cols {
		text := m.cellText(c.title, s, grouped)
		if c.title == "●" {
			cells[i] = badge(st, s)
			continue
		}
		if c.title == " " {
			if sel {
				cells[i] = st.Table.Cursor.Render("▶")
			} else {
				cells[i] = " "
			}
			continue
		}
		text = cell(text, c.width, c.right)
		style, match := st.Table.Cell, st.Table.Match
		switch {
		case sel:
			style, match = st.Table.Selected, st.Table.SelectedMatch
		case c.title == "err" && s.ErrorCount > 0:
			style = st.Badge.Error
		case c.title == "stall" && s.StallCount > 0:
			style = st.Badge.Stall
		case c.title == "appr" && s.ApprovalCount > 0:
			style = st.Badge.Approval
		case c.title == "last words":
			style = st.App.Muted
		}
		if searched(c.title) {
			cells[i] = highlight(text, m.sq, style, match)
		} else {
			cells[i] = style.Render(text)
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

// cellText is the text of one column of a session row.
func (m *inboxView) cellText(col string, s *review.Session, grouped bool) string {
	switch col {
	case "agent":
		return Inert(s.AgentKind)
	case "work item · phase":
		if grouped {
			return "  └ " + Inert(strings.TrimPrefix(phaseLabel(&s.Summary), s.WorkItemID+" · "))
		}
		return Inert(phaseLabel(&s.Summary))
	case "started":
		return fmtAgo(s.StartedAt, m.c.Now())
	case "dur":
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
	case "last words":
		return Inert(lastWords(&s.Summary))
	}
	return ""
}

// badge is a session's one-character decision or flag badge.
func badge(st *Styles, s *review.Session) string {
	if s.Decision != nil {
		return decisionBadge(st, s.Decision.Kind)
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
	}
	return st.Badge.Unknown.Render("?")
}

// title is the inbox's part of the title bar.
func (m *inboxView) title() (left, right string) {
	left = "sessions"
	if m.loaded {
		f, u := "…", "…"
		if m.counted != nil && *m.counted == m.countQuery() {
			f, u = strconv.Itoa(m.flagged), strconv.Itoa(m.undecided)
		}
		left = plural(m.total, "session") + " · " + f + " flagged · " + u + " undecided"
		if m.sq != nil {
			left = plural(m.total, "session") + " match · " + f + " flagged · " + u + " undecided"
		}
	}
	dir := map[bool]string{true: "▲", false: "▼"}[m.q.Asc]
	if m.q.Sort == review.SortTriage {
		dir = ""
	}
	right = "sort: " + string(m.q.Sort) + dir
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
	if m.q.GroupByWorkItem {
		f = append(f, "grouped")
	}
	if len(f) > 0 {
		right += "  filter: " + strings.Join(f, ",")
	}
	return left, right
}
