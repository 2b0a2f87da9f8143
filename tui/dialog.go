package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/agentsift/sift/core/review"
)

// decisionTarget is what a decision is about.
type decisionTarget struct {
	session    review.SessionKey
	turnID     string
	toolCallID string
	// label names the target in the dialog.
	label string
}

// decisionDialog is the small box that records a decision: a choice and
// a note. In follow-up mode the choice is needs_followup and only the note
// is asked. It returns intents; the app saves.
type decisionDialog struct {
	c        *Common
	target   decisionTarget
	choice   int
	followup bool
	note     textinput.Model
}

func newDecisionDialog(c *Common, t decisionTarget, followup bool) (*decisionDialog, tea.Cmd) {
	ti := textinput.New()
	ti.Prompt = "note: "
	ti.Placeholder = "what should happen next?"
	ti.CharLimit = 2000
	ti.SetStyles(c.Styles.Input)
	ti.SetWidth(40)
	d := &decisionDialog{c: c, target: t, followup: followup, note: ti}
	if followup {
		d.choice = 1
	}
	return d, d.note.Focus()
}

// Update handles a key; it returns the intent to save or close.
func (d *decisionDialog) Update(msg tea.Msg) tea.Cmd {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		d.note, cmd = d.note.Update(msg)
		return cmd
	}
	switch kp.String() {
	case "esc":
		return intent(closeOverlayMsg{})
	case "enter":
		return intent(decisionMadeMsg{d: review.Decision{
			Session: d.target.session, TurnID: d.target.turnID, ToolCallID: d.target.toolCallID,
			Kind: review.DecisionKinds()[d.choice], Note: strings.TrimSpace(d.note.Value()), Reviewer: d.c.Reviewer,
		}})
	case "tab", "down":
		if !d.followup {
			d.choice = (d.choice + 1) % 3
		}
		return nil
	case "shift+tab", "up":
		if !d.followup {
			d.choice = (d.choice + 2) % 3
		}
		return nil
	}
	var cmd tea.Cmd
	d.note, cmd = d.note.Update(kp)
	return cmd
}

// View draws the dialog box in at most w columns.
func (d *decisionDialog) View(w int) string {
	st := d.c.Styles
	inner := min(max(w-8, 20), 64)
	d.note.SetWidth(inner - 8)
	title := "decide"
	if d.followup {
		title = "needs follow-up"
	}
	lines := []string{
		st.Dialog.Title.Render(title+" · ") + st.Dialog.Choice.Render(fitWidth(Inert(d.target.label), inner-len(title)-3)),
		"",
	}
	if !d.followup {
		var cs []string
		for i, c := range review.DecisionKinds() {
			if i == d.choice {
				cs = append(cs, st.Dialog.Selected.Render("◉ "+string(c)))
			} else {
				cs = append(cs, st.Dialog.Choice.Render("○ "+string(c)))
			}
		}
		lines = append(lines, strings.Join(cs, st.Dialog.Choice.Render("  ")), "")
	}
	lines = append(lines, d.note.View(), "",
		st.Dialog.Choice.Render(fitWidth(d.hint(), inner)))
	for i, l := range lines {
		lines[i] = cell(l, inner, false)
	}
	return st.Dialog.Box.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
}

func (d *decisionDialog) hint() string {
	if d.followup {
		return "enter save · esc cancel"
	}
	return "tab/↑↓ choose · enter save · esc cancel"
}

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
	case key.Matches(msg, k.Back, k.History, k.Help):
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
		lines = append(lines, st.Dialog.Choice.Render("no decisions yet · d decides, x asks for follow-up"))
	}
	rows := max(ht-8, 1)
	for i := len(h.decisions) - 1 - h.offset; i >= 0 && len(lines) < rows+2; i-- {
		d := h.decisions[i]
		what := "session"
		if d.TurnID != "" {
			what = d.TurnID
		}
		if d.ToolCallID != "" {
			what += " · " + d.ToolCallID
		}
		line := decisionBadge(st, d.Kind) + st.Dialog.Choice.Render(" "+d.CreatedAt.In(h.c.Now().Location()).Format("2006-01-02 15:04")+
			" "+string(d.Kind)+" · "+Inert(what))
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
