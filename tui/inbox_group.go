package tui

import (
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/review"
)

// listLine is one line of the inbox list under its header: a session's
// row, or the header of a work item's group (grouped by work item) before
// the row.
type listLine struct {
	row    int
	header bool
}

// lineRows lays out the visible lines of the list from its top row:
// grouped, each work item's first row on the screen follows its group's
// header line.
func (m *inboxView) lineRows() []listLine {
	n := m.visible()
	out := make([]listLine, 0, n)
	prev := ""
	for i := m.top; i < m.total && len(out) < n; i++ {
		s := m.at(i)
		if m.q.GroupByWorkItem && s != nil && (i == m.top || s.WorkItemID != prev) {
			out = append(out, listLine{row: i, header: true})
			if len(out) == n {
				break
			}
		}
		out = append(out, listLine{row: i})
		prev = ""
		if s != nil {
			prev = s.WorkItemID
		}
	}
	return out
}

// shows reports whether a row is on the screen.
func (m *inboxView) shows(row int) bool {
	for _, l := range m.lineRows() {
		if !l.header && l.row == row {
			return true
		}
	}
	return false
}

// at returns the session of a row, nil when it is not loaded.
func (m *inboxView) at(i int) *review.Session {
	j := i - m.winOff
	if j < 0 || j >= len(m.win) {
		return nil
	}
	return &m.win[j]
}

// lastOfGroup reports whether a row is the last of its work item's: the
// next row is another work item's, or there is none. A next row not
// loaded counts as the same work item's.
func (m *inboxView) lastOfGroup(i int) bool {
	if i+1 >= m.total {
		return true
	}
	s, next := m.at(i), m.at(i+1)
	return s != nil && next != nil && next.WorkItemID != s.WorkItemID
}

// groupHeader is the line that opens a work item's group: its id (a
// history project's label, Session.Project) and the totals of its
// sessions the query selects.
func (m *inboxView) groupHeader(s *review.Session, w int) string {
	st := m.c.Styles
	g, ok := m.groups[s.WorkItemID]
	name := s.Key().Shown().WorkItemID
	if s.Project != "" {
		name = s.Project
	}
	parts := []string{Inert(name)}
	if ok {
		parts = append(parts, plural(g.Sessions, "session"))
		if g.Flagged > 0 {
			parts = append(parts, strconv.Itoa(g.Flagged)+" flagged")
		}
		parts = append(parts, strconv.Itoa(g.Undecided)+" undecided")
		if g.USD != nil {
			parts = append(parts, fmtCost(g.USD, ""))
		}
	}
	return st.Table.Group.Render(cell("  ▾ "+strings.Join(parts, " · "), w, false))
}

// groupedLabel is a grouped row's work item cell: the tree branch and the
// phase.
func groupedLabel(s *review.Session, last bool) string {
	branch := "├ "
	if last {
		branch = "└ "
	}
	return "  " + branch + Inert(review.PhaseLabel(s.Phase, s.Iteration))
}
