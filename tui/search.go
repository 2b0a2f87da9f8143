package tui

import (
	"errors"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/search"
)

// The inbox's `/` is a search in the store (core/search's language): the
// store answers it, the inbox marks what matched in its rows, and a
// session opened from it starts at its first match, n and N following the
// matches.

// highlight renders text in base with the spans the search matched in
// match: how a row marks its matches, and how a preview of a session's
// text can. A nil search, or one without words, marks nothing.
func highlight(text string, q *search.Query, base, match lipgloss.Style) string {
	var spans [][2]int
	if q != nil {
		spans = q.Highlight(text)
	}
	if len(spans) == 0 {
		return base.Render(text)
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s[0] > at {
			b.WriteString(base.Render(text[at:s[0]]))
		}
		b.WriteString(match.Render(text[s[0]:s[1]]))
		at = s[1]
	}
	if at < len(text) {
		b.WriteString(base.Render(text[at:]))
	}
	return b.String()
}

// parsedSearch is the search of a query as the inbox marks it, nil when it
// has none or it cannot be read (the store says why).
func parsedSearch(q review.Query) *search.Query {
	if strings.TrimSpace(q.Search) == "" {
		return nil
	}
	sq, err := search.Parse(q.Search, search.Options{Typing: q.Typing})
	if err != nil || sq.IsZero() {
		return nil
	}
	return &sq
}

// searchProblem returns why a search cannot be read, "" for any other
// error: the part at fault, its column and the problem. The inbox shows
// it beside the search being typed, keeps its rows and keeps the search
// open until it can be read.
func searchProblem(err error) string {
	var pe *search.ParseError
	if errors.As(err, &pe) {
		return pe.Problem()
	}
	return ""
}

// searchOf is the part of the inbox's query a session opened from it
// carries: its search, when one is active.
func (m *inboxView) searchOf() review.Query {
	if strings.TrimSpace(m.q.Search) == "" {
		return review.Query{}
	}
	return review.Query{Search: m.q.Search, Typing: m.q.Typing, Reviewer: m.q.Reviewer}
}

// setSearch runs a changed search from the top, keeping the rows shown
// until its first page arrives.
func (m *inboxView) setSearch(v string) tea.Cmd {
	m.q.Search = v
	m.sq = parsedSearch(m.q)
	return m.requery()
}

// hasMatches reports whether the session shows a search's matches: n and
// N follow them.
func (m *sessionView) hasMatches() bool { return len(m.matches) > 0 }

// gotoMatch selects the turn and tool call of the i-th match, showing
// every turn when the match is in one the flagged list leaves out.
func (m *sessionView) gotoMatch(i int) {
	if i < 0 || i >= len(m.matches) {
		return
	}
	m.match = i
	at := m.matches[i]
	turn := -1
	for j := range m.s.Turns {
		if m.s.Turns[j].TurnID == at.TurnID {
			turn = j
			break
		}
	}
	if turn < 0 {
		return
	}
	if !m.showAll && len(m.s.Turns[turn].Flags) == 0 {
		m.showAll = true
	}
	m.buildRows(turn)
	m.focus, m.call, m.callTop = focusTurns, 0, 0
	if at.ToolCallID != "" {
		for j, c := range m.calls() {
			if c.ID == at.ToolCallID {
				m.focus, m.call = focusPane, j
				break
			}
		}
	}
	m.clamp()
}

// jumpMatch moves to the next (dir 1) or previous (-1) match at another
// place than the selected one: several parts of one call match at one
// place.
func (m *sessionView) jumpMatch(dir int) {
	cur := m.matches[min(max(m.match, 0), len(m.matches)-1)]
	for j := m.match + dir; j >= 0 && j < len(m.matches); j += dir {
		if at := m.matches[j]; at.TurnID != cur.TurnID || at.ToolCallID != cur.ToolCallID {
			m.gotoMatch(j)
			return
		}
	}
}

// matchHint is the session screen's status while it shows a search's
// matches.
func (m *sessionView) matchHint() string {
	at := m.matches[max(m.match, 0)]
	where := string(at.Where)
	if at.TurnID != "" {
		where += " in " + Inert(at.TurnID)
	}
	return "match " + strconv.Itoa(max(m.match, 0)+1) + " of " + strconv.Itoa(len(m.matches)) + " (" + where + ") · n/N next and previous match"
}

// searchLine is the status line while a search is typed: the search,
// and at the end of the line its status (searchStatus).
func (m *inboxView) searchLine(w int) string {
	in, status := " "+m.filter.View(), m.searchStatus()
	if room := w - ansi.StringWidth(status); ansi.StringWidth(in) > room {
		in = ansi.Truncate(in, max(room, 0), "")
	}
	return in + status
}

// searchStatus follows the search being typed: how many sessions match,
// or why the search cannot be read (the rows stay those of the last one
// that could).
func (m *inboxView) searchStatus() string {
	st := m.c.Styles
	switch {
	case m.searchErr != "":
		return "  " + st.Status.Error.Render(Inert(m.searchErr))
	case m.restart:
		return "  " + st.Status.Info.Render("…")
	case m.sq != nil && m.loaded:
		return "  " + st.Status.Info.Render(plural(m.total, "session")+" match")
	}
	return ""
}
