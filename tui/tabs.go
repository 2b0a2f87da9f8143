package tui

import (
	"context"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
)

// The inbox's tabs are gh-dash's sections: each a name and a search query
// (core/search's language), which the `/` search and the quick filters
// f, u and a narrow further (every part of a query must hold). ] and [
// cycle them; the rule under the title bar names them with how many
// sessions each holds.

// Tab is one tab of the inbox: a name and a search query.
type Tab struct {
	Name  string
	Query string
	// todo names what the title counts as left to do in the tab: ""
	// counts the flagged undecided sessions ("to review"); another word
	// counts every session of the tab under that word (the follow-ups
	// tab: each is open until reviewed).
	todo string
}

// BuiltinTabs are the tabs every inbox has, before the configuration's.
func BuiltinTabs() []Tab {
	return []Tab{
		{Name: "all"},
		{Name: "to review", Query: "is:flagged is:undecided"},
		// An outcome filter names one outcome: the failures are those
		// that neither completed nor are unknown (failed, died,
		// interrupted).
		{Name: "failed", Query: "-outcome:completed -outcome:unknown"},
		{Name: "follow-ups", Query: "decision:needs_followup", todo: "open"},
		{Name: "mine", Query: "mine"},
	}
}

type (
	// tabCountsLoadedMsg is sent when the tabs' counts return; a count
	// the store could not give is -1.
	tabCountsLoadedMsg struct {
		seq    int
		counts []int
	}
)

// withTab is a query narrowed to the current tab: the tab's query and the
// search typed, both to hold.
func (m *inboxView) withTab(q review.Query) review.Query {
	t := m.tabs[m.tab].Query
	switch {
	case t == "":
	case strings.TrimSpace(q.Search) == "":
		// Nothing is being typed: the tab's last word is whole.
		q.Search, q.Typing = t, false
	default:
		q.Search = t + " " + q.Search
	}
	return q
}

// switchTab moves to the next (dir 1) or previous (-1) tab, from the
// tab's first row.
func (m *inboxView) switchTab(dir int) tea.Cmd {
	n := len(m.tabs)
	m.tab = ((m.tab+dir)%n + n) % n
	return m.requery()
}

// loadTabCounts asks the store how many sessions each tab holds (in the
// view's mode: the operator view shows flagged sessions only), unless
// they are known and nothing was written since. While a count is under
// way another waits for it (tabStale), so that the writes of an import
// do not pile counts up (5 on 20,000 sessions: 0.2 s).
func (m *inboxView) loadTabCounts(force bool) tea.Cmd {
	if m.tabCounts != nil && !force && m.tabMode == m.c.Mode {
		return nil
	}
	if m.tabCounting {
		m.tabStale = true
		return nil
	}
	m.tabMode, m.tabCounting, m.tabStale = m.c.Mode, true, false
	m.tabSeq++
	seq, st := m.tabSeq, m.c.Store
	qs := make([]review.Query, len(m.tabs))
	for i, t := range m.tabs {
		qs[i] = review.Query{Search: t.Query, Reviewer: m.q.Reviewer, Flagged: m.c.Mode == Operator}
	}
	return func() tea.Msg {
		counts := make([]int, len(qs))
		for i, q := range qs {
			c, err := st.Counts(context.Background(), q)
			counts[i] = c.Total
			if err != nil {
				counts[i] = -1
			}
		}
		return tabCountsLoadedMsg{seq: seq, counts: counts}
	}
}

// tabCountsLoaded takes the tabs' counts, and asks again when something
// changed while they were counted.
func (m *inboxView) tabCountsLoaded(msg tabCountsLoadedMsg) tea.Cmd {
	if msg.seq != m.tabSeq {
		return nil
	}
	m.tabCounts, m.tabCounting = msg.counts, false
	return m.loadTabCounts(m.tabStale)
}

// tabBar is the rule under the title bar in the inbox: the tabs with
// their counts, the current one in brackets.
func (m *inboxView) tabBar(w int) string {
	st := m.c.Styles
	var b strings.Builder
	b.WriteString(st.App.Rule.Render("─"))
	for i, t := range m.tabs {
		label := Inert(t.Name)
		if i < len(m.tabCounts) {
			if n := m.tabCounts[i]; n >= 0 {
				label += " " + strconv.Itoa(n)
			} else {
				label += " ?"
			}
		}
		if i == m.tab {
			b.WriteString(st.App.Rule.Render(" ") + st.App.Title.Render("["+label+"]") + st.App.Rule.Render(" ─"))
		} else {
			b.WriteString(st.App.Rule.Render(" " + label + " ─"))
		}
	}
	bar := b.String()
	if n := w - ansi.StringWidth(bar); n > 0 {
		return bar + st.App.Rule.Render(strings.Repeat("─", n))
	}
	return fitWidth(bar, w)
}

// todoTitle is the title's count of what is left to do in the current
// tab: "7 to review", or for a tab whose every session is to do, "3
// open".
func (m *inboxView) todoTitle(c review.Counts) string {
	if w := m.tabs[m.tab].todo; w != "" {
		return strconv.Itoa(c.Total) + " " + w
	}
	return strconv.Itoa(c.ToReview) + " to review"
}
