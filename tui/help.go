package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/search"
)

// triageHelp says what the triage order (key 0) puts first, in the
// inbox's help: the sort keys are listed with the keys, this is the one
// order whose name does not say it. Inside each part: captured runs
// before history sessions, an unknown cost before a known one, then by
// cost. Two lines, so that it fits the help at 80x24.
const triageHelp = "0 triage: waiting for approval › undecided failed, died, interrupted ›\n" +
	"undecided flagged › the rest; captured before history, unknown cost first"

// helpBox is the help overlay, built from the bindings of the screen. It
// always fits the terminal: its columns are laid out side by side as far
// as the width allows, then on further rows, and a column too tall for
// the height is split. The inbox's extra sections (the triage order, what
// sift has seen, the search's language) follow while they fit.
func (m *App) helpBox() string {
	st := m.c.Styles
	avail := max(m.w-4, 20) // the box's border and padding
	title := st.Dialog.Title.Render("keys · "+[...]string{"inbox", "session", "tool call"}[m.screen]) +
		st.Dialog.Choice.Render("  ·  ? or esc closes")
	body := title + "\n\n" + m.helpColumns(avail, m.h-4)
	fits := func(b string) bool { return lipgloss.Height(b)+2 <= m.h && lipgloss.Width(b) <= avail }
	if m.screen == screenInbox {
		for _, alts := range m.helpSections(avail) {
			for _, sec := range alts {
				if next := body + "\n\n" + sec; fits(next) {
					body = next
					break
				}
			}
		}
	}
	box := st.Dialog.Box.Render(body)
	if lipgloss.Width(box) > m.w-4 {
		// Nearly as wide as the screen: the whole width, so that no
		// column of the screen under it shows at its sides.
		box = st.Dialog.Box.Width(m.w).Render(body)
	}
	return box
}

// helpColumns lays out the screen's help columns within w columns and,
// where it can, h lines: each column split into parts of at most as many
// keys as keep the whole within h.
func (m *App) helpColumns(w, h int) string {
	hm := m.help
	hm.SetWidth(1 << 16)
	groups := m.current().FullHelp()
	tallest := 0
	for _, g := range groups {
		tallest = max(tallest, len(g))
	}
	var out string
	for rows := tallest; rows >= 3; rows-- {
		out = packHelp(&hm, splitGroups(groups, rows), w)
		if lipgloss.Height(out) <= h {
			break
		}
	}
	return out
}

// splitGroups splits each group of keys into parts of at most n.
func splitGroups(groups [][]key.Binding, n int) [][]key.Binding {
	var out [][]key.Binding
	for _, g := range groups {
		for len(g) > n {
			out = append(out, g[:n])
			g = g[n:]
		}
		out = append(out, g)
	}
	return out
}

// packHelp renders help columns side by side while they fit w, then on
// further rows.
func packHelp(hm interface {
	FullHelpView([][]key.Binding) string
}, groups [][]key.Binding, w int,
) string {
	var rows []string
	var row [][]key.Binding
	for _, g := range groups {
		try := append(append([][]key.Binding(nil), row...), g)
		if len(row) > 0 && lipgloss.Width(hm.FullHelpView(try)) > w {
			rows = append(rows, hm.FullHelpView(row))
			row = nil
		}
		row = append(row, g)
	}
	if len(row) > 0 {
		rows = append(rows, hm.FullHelpView(row))
	}
	return strings.Join(rows, "\n\n")
}

// helpSections are the inbox help's sections after its keys, most useful
// first, each wrapped to w and given as alternatives, the first that fits
// shown: the triage order, what sift has seen (sift status), and the
// search's language as `sift help search` prints it, else where to find
// it.
func (m *App) helpSections(w int) [][]string {
	st := m.c.Styles
	secs := [][]string{{st.App.Muted.Render(ansi.Wordwrap(triageHelp, w, " "))}}
	if len(m.coverage) > 0 {
		var cov []string
		for _, l := range m.coverage {
			cov = append(cov, ansi.Truncate(Inert(l), w, "…"))
		}
		secs = append(secs, []string{st.Dialog.Title.Render("coverage (sift status)") + "\n" + st.App.Muted.Render(strings.Join(cov, "\n"))})
	}
	return append(secs, []string{
		st.Dialog.Title.Render("search (/)") + "\n" + st.App.Muted.Render(strings.Join(search.Help(), "\n")),
		st.App.Muted.Render(fitWidth("/ searches: sift help search, or a larger terminal, shows how", w)),
	})
}
