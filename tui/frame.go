package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// View implements tea.Model. It draws exactly the terminal's size: no
// line is wider than the terminal, and overlays sit on top.
func (m *App) View() tea.View {
	st := m.c.Styles
	rule := st.rule("", m.w)
	if m.screen == screenInbox {
		rule = m.inbox.tabBar(m.w)
	}
	lines := []string{m.titleBar(), rule}
	body := strings.Split(m.current().View(), "\n")
	bh := max(m.h-4, 1)
	for len(body) < bh {
		body = append(body, "")
	}
	lines = append(lines, body[:bh]...)
	lines = append(lines, m.statusLine(), m.footer())
	switch {
	case m.confirm != nil:
		lines = overlay(lines, m.confirm.View(m.w, m.h), m.w, m.h)
	case m.dialog != nil:
		lines = overlay(lines, m.dialog.View(m.w), m.w, m.h)
	case m.history != nil:
		lines = overlay(lines, m.history.View(m.w, m.h), m.w, m.h)
	case m.copying != nil:
		lines = overlay(lines, m.copying.View(m.w), m.w, m.h)
	case m.followups != nil:
		lines = overlay(lines, m.followups.View(m.w, m.h), m.w, m.h)
	case m.showHelp:
		lines = overlay(lines, m.helpBox(), m.w, m.h)
	}
	v := tea.NewView(fitScreen(lines, m.w, m.h))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = m.opts.Title
	return v
}

// titleBar is the first line: where we are on the left; sort, filter and
// view on the right. When both do not fit, the left gives way from its
// start: the right always shows.
func (m *App) titleBar() string {
	st := m.c.Styles
	head := " " + st.App.Title.Render(m.opts.Title)
	var where string
	var parts []string
	switch m.screen {
	case screenInbox:
		l, r := m.inbox.title()
		where, parts = " · "+l, r
	case screenSession:
		where = " › " + m.session.title()
	case screenToolCall:
		where = " › " + m.session.title() + " › " + Inert(m.tool.call.TurnID+" · "+m.tool.call.Name)
	}
	parts = append(parts, "view: "+m.c.Mode.String())
	hw, ww := ansi.StringWidth(head), ansi.StringWidth(where)
	// The parts close up, then the place gives way from its start; the
	// app's name stays.
	right := strings.Join(parts, "  ") + " "
	if hw+ww+ansi.StringWidth(right)+2 > m.w {
		right = strings.Join(parts, " · ") + " "
	}
	if hw+ansi.StringWidth(right)+4 > m.w {
		// Narrower still, the filter and the view go without their
		// names.
		for i, p := range parts {
			parts[i] = strings.TrimPrefix(strings.TrimPrefix(p, "filter: "), "view: ")
		}
		right = strings.Join(parts, " · ") + " "
	}
	rw := ansi.StringWidth(right)
	if hw+rw+2 > m.w {
		return fitWidth(st.App.Subtle.Render(right), m.w)
	}
	if room := m.w - hw - rw - 2; ww > room {
		where = " …" + ansi.TruncateLeft(where, ww-max(room-2, 0), "")
		if room < 3 {
			where = ""
		}
	}
	left := head + st.App.Muted.Render(where)
	gap := m.w - ansi.StringWidth(left) - rw
	return left + strings.Repeat(" ", max(gap, 1)) + st.App.Subtle.Render(right)
}

// footer is the last line: the screen's keys that fit, always ending with
// the help key.
func (m *App) footer() string {
	st := m.c.Styles.Help
	item := func(b key.Binding) string {
		return st.ShortKey.Render(b.Help().Key) + " " + st.ShortDesc.Render(b.Help().Desc)
	}
	sep := st.ShortSeparator.Render(" • ")
	tail := item(m.c.Keys.Help)
	room := m.w - 1 - ansi.StringWidth(tail)
	var parts []string
	used := 0
	for _, b := range m.current().ShortHelp() {
		if !b.Enabled() || slices.Equal(b.Keys(), m.c.Keys.Help.Keys()) {
			continue
		}
		it := item(b)
		w := ansi.StringWidth(it) + ansi.StringWidth(sep)
		if used+w > room {
			break
		}
		parts = append(parts, it)
		used += w
	}
	return strings.Join(append(parts, tail), sep)
}

// statusLine is the filter being typed, a status message, the import's
// progress or a hint about the screen.
func (m *App) statusLine() string {
	st := m.c.Styles
	switch {
	case m.screen == screenInbox && m.inbox.filtering:
		return m.inbox.searchLine(m.w)
	case m.screen == screenToolCall && m.tool.searching:
		return " " + m.tool.search.View()
	case m.status != "" && m.statusErr:
		return " " + st.Status.Error.Render("error: "+m.status)
	case m.status != "":
		return " " + st.Status.Info.Render(m.status)
	case m.importing != "":
		return " " + m.spinner.View() + " " + st.Status.Info.Render(m.importing)
	case m.screen == screenSession && m.session.s != nil:
		return " " + st.Status.Info.Render(m.session.hint())
	}
	return ""
}
