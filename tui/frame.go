package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/search"
)

// View implements tea.Model. It draws exactly the terminal's size: no
// line is wider than the terminal, and overlays sit on top.
func (m *App) View() tea.View {
	st := m.c.Styles
	lines := []string{m.titleBar(), st.rule("", m.w)}
	body := strings.Split(m.current().View(), "\n")
	bh := max(m.h-4, 1)
	for len(body) < bh {
		body = append(body, "")
	}
	lines = append(lines, body[:bh]...)
	lines = append(lines, m.statusLine(), m.help.ShortHelpView(m.current().ShortHelp()))
	switch {
	case m.confirm != nil:
		lines = overlay(lines, m.confirm.View(m.w, m.h), m.w, m.h)
	case m.dialog != nil:
		lines = overlay(lines, m.dialog.View(m.w), m.w, m.h)
	case m.history != nil:
		lines = overlay(lines, m.history.View(m.w, m.h), m.w, m.h)
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
// view on the right.
func (m *App) titleBar() string {
	st := m.c.Styles
	left := " " + st.App.Title.Render(m.opts.Title)
	var right string
	switch m.screen {
	case screenInbox:
		l, r := m.inbox.title()
		left += st.App.Muted.Render(" · " + l)
		right = r
	case screenSession:
		left += st.App.Muted.Render(" › " + m.session.title())
	case screenToolCall:
		left += st.App.Muted.Render(" › " + m.session.title() + " › " + Inert(m.tool.call.TurnID+" · "+m.tool.call.Name))
	}
	right += "  view: " + m.c.Mode.String() + " "
	gap := m.w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 2 {
		return fitWidth(left, m.w)
	}
	return left + strings.Repeat(" ", gap) + st.App.Subtle.Render(right)
}

// statusLine is the filter being typed, a status message, the import's
// progress or a hint about the screen.
func (m *App) statusLine() string {
	st := m.c.Styles
	switch {
	case m.screen == screenInbox && m.inbox.filtering:
		return m.inbox.searchLine(m.w)
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

// helpBox is the help overlay, built from the bindings of the screen. Its
// columns are laid out side by side as far as the terminal allows, then
// on further rows.
func (m *App) helpBox() string {
	st := m.c.Styles
	h := m.help
	avail := max(m.w-6, 20)
	h.SetWidth(1 << 16)
	var rows []string
	var row [][]key.Binding
	for _, g := range m.current().FullHelp() {
		try := append(append([][]key.Binding(nil), row...), g)
		if len(row) > 0 && lipgloss.Width(h.FullHelpView(try)) > avail {
			rows = append(rows, h.FullHelpView(row))
			row = nil
		}
		row = append(row, g)
	}
	if len(row) > 0 {
		rows = append(rows, h.FullHelpView(row))
	}
	title := st.Dialog.Title.Render("keys · " + [...]string{"inbox", "session", "tool call"}[m.screen])
	body := title + "\n\n" + strings.Join(rows, "\n\n")
	closes := "\n\n" + st.Dialog.Choice.Render("? or esc closes")
	if m.screen == screenInbox {
		// The search's language, as `sift help search` prints it, where
		// the terminal has room for it.
		lang := st.Dialog.Title.Render("search (/)") + "\n" + st.App.Muted.Render(strings.Join(search.Help(), "\n"))
		if box := st.Dialog.Box.Render(body + "\n\n" + lang + closes); lipgloss.Height(box) <= m.h && lipgloss.Width(box) <= m.w {
			return box
		}
		body += "\n\n" + st.App.Muted.Render("/ searches: sift help search, or a larger terminal, shows how")
	}
	return st.Dialog.Box.Render(body + closes)
}
