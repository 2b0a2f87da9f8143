package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// The search inside a tool call is an input mode, like the inbox's `/`:
// while the query is typed no other key fires (the app sends every key
// here), the matches are found and marked as it changes, enter keeps the
// query and esc drops it. Then n and N go from match to match. It matches
// the rows of the body as shown, ignoring case: a match a wrap splits is
// not found (w unwraps).

// handleSearchKey handles a key while the query is typed.
func (m *toolView) handleSearchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.searching = false
		m.search.Blur()
		m.search.SetValue("")
		m.setQuery("")
		return nil
	case "enter":
		m.searching = false
		m.search.Blur()
		return nil
	}
	var cmd tea.Cmd
	m.search, cmd = m.search.Update(msg)
	m.setQuery(m.search.Value())
	return cmd
}

// setQuery searches for a new query and shows its first match at or after
// the top of the screen.
func (m *toolView) setQuery(q string) {
	if q == m.query {
		return
	}
	m.query = q
	m.findMatches()
	m.match = 0
	for i, r := range m.matches {
		if r >= m.offset {
			m.match = i
			break
		}
	}
	if len(m.matches) > 0 {
		m.scrollTo(m.matches[m.match])
	}
}

// findMatches lists the rows that hold the query.
func (m *toolView) findMatches() {
	m.matches = m.matches[:0]
	if m.query == "" {
		return
	}
	q := strings.ToLower(m.query)
	for i, r := range m.body {
		if r.line >= 0 && strings.Contains(strings.ToLower(r.plain), q) {
			m.matches = append(m.matches, i)
		}
	}
	m.match = min(m.match, max(len(m.matches)-1, 0))
}

// nextMatch goes to the next (1) or previous (-1) match, around the ends.
func (m *toolView) nextMatch(dir int) {
	if len(m.matches) == 0 {
		return
	}
	m.match = (m.match + dir + len(m.matches)) % len(m.matches)
	m.scrollTo(m.matches[m.match])
}

// scrollTo brings a row into view, a third down the screen when it was
// out of it.
func (m *toolView) scrollTo(row int) {
	if row < m.offset || row >= m.offset+m.bodyRows() {
		m.offset = row - m.bodyRows()/3
	}
	m.clamp()
}

// searchStatus is the search's part of the header: "/timeout 2/5", "/x
// no match"; "" without a query.
func (m *toolView) searchStatus() string {
	if m.query == "" {
		return ""
	}
	q := "/" + Inert(m.query)
	if len(m.matches) == 0 {
		return q + " no match"
	}
	return q + " " + strconv.Itoa(m.match+1) + "/" + strconv.Itoa(len(m.matches))
}

// markMatches draws a row with each occurrence of the query marked, the
// current match's row brighter. The row loses its syntax colours: the
// marks must show on any of them.
func (m *toolView) markMatches(r bodyRow, i int) string {
	st := m.c.Styles
	lower, q := strings.ToLower(r.plain), strings.ToLower(m.query)
	if len(lower) != len(r.plain) || len(q) != len(m.query) {
		// Lowering changed the length: mark the row as it is.
		lower, q = r.plain, m.query
	}
	if q == "" || !strings.Contains(lower, q) {
		return r.text
	}
	hit := st.Search.Match
	if len(m.matches) > 0 && m.matches[m.match] == i {
		hit = st.Search.Current
	}
	var b strings.Builder
	rest, lrest := r.plain, lower
	for {
		j := strings.Index(lrest, q)
		if j < 0 || len(q) == 0 {
			b.WriteString(st.App.Text.Render(rest))
			return b.String()
		}
		b.WriteString(st.App.Text.Render(rest[:j]))
		b.WriteString(hit.Render(rest[j : j+len(q)]))
		rest, lrest = rest[j+len(q):], lrest[j+len(q):]
	}
}
