package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/agentsift/sift/core/review"
)

// historyView lists the decisions on one session, newest first.
type historyView struct {
	c         *Common
	key       review.SessionKey
	decisions []review.Decision
	loading   bool
	offset    int
}

// Update scrolls the history or closes it.
func (h *historyView) Update(msg tea.KeyPressMsg) tea.Cmd {
	k := h.c.Keys
	switch {
	case key.Matches(msg, k.Back, k.History, k.Help, k.Quit):
		return intent(closeOverlayMsg{})
	case key.Matches(msg, k.Down):
		h.offset = min(h.offset+1, max(len(h.decisions)-1, 0))
	case key.Matches(msg, k.Up):
		h.offset = max(h.offset-1, 0)
	}
	return nil
}

// View draws the history box in at most w×ht cells.
func (h *historyView) View(w, ht int) string {
	st := h.c.Styles
	inner := max(min(w-6, 100), 20)
	lines := []string{st.Dialog.Title.Render(fitWidth("decision history · "+Inert(h.key.String()), inner)), ""}
	switch {
	case h.loading:
		lines = append(lines, st.Dialog.Choice.Render("loading…"))
	case len(h.decisions) == 0:
		lines = append(lines, st.Dialog.Choice.Render("no decisions yet · d decides, x asks for follow-up, z undoes"))
	}
	rows := max(ht-8, 1)
	gone := review.Withdrawn(h.decisions)
	kinds := map[int64]review.DecisionKind{}
	for _, d := range h.decisions {
		kinds[d.ID] = d.Kind
	}
	for i := len(h.decisions) - 1 - h.offset; i >= 0 && len(lines) < rows+2; i-- {
		d := h.decisions[i]
		what := "session"
		if d.TurnID != "" {
			what = d.TurnID
		}
		if d.ToolCallID != "" {
			what += " · " + d.ToolCallID
		}
		kind := string(d.Kind)
		switch {
		case d.Kind == review.Undone:
			kind = "undid " + string(kinds[d.Supersedes])
		case gone[d.ID]:
			kind += " (undone)"
		}
		line := decisionBadge(st, d.Kind) + st.Dialog.Choice.Render(" "+d.CreatedAt.In(h.c.Now().Location()).Format("2006-01-02 15:04")+
			" "+kind+" · "+Inert(what))
		if d.Reviewer != "" {
			line += st.Dialog.Choice.Render(" · " + Inert(d.Reviewer))
		}
		lines = append(lines, fitWidth(line, inner))
		if d.Note != "" {
			lines = append(lines, st.Dialog.Choice.Render(fitWidth("    "+Inert(d.Note), inner)))
		}
	}
	lines = append(lines, "", st.Dialog.Choice.Render("↑↓ scroll · esc close"))
	for i, l := range lines {
		lines[i] = cell(l, inner, false)
	}
	return st.Dialog.Box.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
}
