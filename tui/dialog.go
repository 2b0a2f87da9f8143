package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/agentsift/sift/core/review"
)

// dialogFocus is the part of the decision dialog that has the keys.
type dialogFocus uint8

const (
	focusChoices dialogFocus = iota
	focusNote
)

// decisionDialog is the small box that records a decision on one target
// or more: a choice and a note. Its choices have their own focus, where
// r, n and i (and ←/→) pick one; tab moves to the note. In follow-up mode
// the choice is needs_followup and only the note is asked. A
// needs_followup is saved only with a note. It returns intents; the app
// saves.
type decisionDialog struct {
	c        *Common
	targets  []decisionTarget
	choice   int
	followup bool
	focus    dialogFocus
	note     textinput.Model
	// warn is why enter did not save, "" when it has not been refused.
	warn string
}

func newDecisionDialog(c *Common, ts []decisionTarget, followup bool) (*decisionDialog, tea.Cmd) {
	ti := textinput.New()
	ti.Prompt = "note: "
	ti.Placeholder = "what should happen next?"
	ti.CharLimit = 2000
	ti.SetStyles(c.Styles.Input)
	ti.SetWidth(40)
	d := &decisionDialog{c: c, targets: ts, followup: followup, note: ti}
	if followup {
		d.choice = choiceOf(review.NeedsFollowup)
		d.focus = focusNote
		return d, d.note.Focus()
	}
	return d, nil
}

// choiceOf is a kind's place among the choices.
func choiceOf(k review.DecisionKind) int {
	for i, c := range review.DecisionKinds() {
		if c == k {
			return i
		}
	}
	return 0
}

// kind is the chosen decision.
func (d *decisionDialog) kind() review.DecisionKind { return review.DecisionKinds()[d.choice] }

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
		return d.save()
	case "tab", "shift+tab":
		if d.followup {
			return nil
		}
		return d.setFocus(1 - d.focus)
	}
	if d.focus == focusChoices {
		if key.Matches(kp, d.c.Keys.Quit) {
			// q closes an overlay first; in the note it is a letter.
			return intent(closeOverlayMsg{})
		}
		d.pick(kp)
		return nil
	}
	var cmd tea.Cmd
	d.note, cmd = d.note.Update(kp)
	return cmd
}

// pick changes the choice by a key of the choices' focus.
func (d *decisionDialog) pick(kp tea.KeyPressMsg) {
	k, n := d.c.Keys, len(review.DecisionKinds())
	switch {
	case key.Matches(kp, k.Right, k.Down):
		d.choice = (d.choice + 1) % n
	case key.Matches(kp, k.Left, k.Up):
		d.choice = (d.choice + n - 1) % n
	case key.Matches(kp, k.Reviewed):
		d.choice = choiceOf(review.Reviewed)
	case key.Matches(kp, k.NeedsFollowup):
		d.choice = choiceOf(review.NeedsFollowup)
	case key.Matches(kp, k.Ignored):
		d.choice = choiceOf(review.Ignored)
	}
}

// setFocus gives the keys to the choices or the note.
func (d *decisionDialog) setFocus(f dialogFocus) tea.Cmd {
	d.focus = f
	if f == focusNote {
		return d.note.Focus()
	}
	d.note.Blur()
	return nil
}

// save returns the decisions, one per target, unless a follow-up has no
// note: then it says so and moves to the note.
func (d *decisionDialog) save() tea.Cmd {
	note := strings.TrimSpace(d.note.Value())
	if d.kind() == review.NeedsFollowup && note == "" {
		d.warn = review.ErrFollowupNeedsNote.Error()
		return d.setFocus(focusNote)
	}
	ds := make([]review.Decision, len(d.targets))
	for i, t := range d.targets {
		ds[i] = review.Decision{Session: t.session, TurnID: t.turnID, ToolCallID: t.toolCallID,
			Kind: d.kind(), Note: note, Reviewer: d.c.Reviewer}
	}
	return intent(decisionMadeMsg{targets: d.targets, ds: ds})
}

// title names the dialog and its target.
func (d *decisionDialog) title() (string, string) {
	title := "decide"
	if d.followup {
		title = "needs follow-up"
	}
	if len(d.targets) == 1 {
		return title, d.targets[0].String()
	}
	return title, plural(len(d.targets), "marked session")
}

// View draws the dialog box in at most w columns.
func (d *decisionDialog) View(w int) string {
	st := d.c.Styles
	inner := min(max(w-8, 20), 64)
	d.note.SetWidth(inner - 8)
	title, what := d.title()
	lines := []string{
		st.Dialog.Title.Render(title+" · ") + st.Dialog.Choice.Render(fitWidth(what, inner-len(title)-3)),
		"",
	}
	if !d.followup {
		var cs []string
		for i, c := range review.DecisionKinds() {
			letter := string(c[0])
			switch {
			case i == d.choice && d.focus == focusChoices:
				cs = append(cs, st.Dialog.Selected.Render("◉ "+letter+" "+string(c)))
			case i == d.choice:
				cs = append(cs, st.Dialog.Title.Render("◉ "+letter+" "+string(c)))
			default:
				cs = append(cs, st.Dialog.Choice.Render("○ "+letter+" "+string(c)))
			}
		}
		lines = append(lines, strings.Join(cs, st.Dialog.Choice.Render("  ")), "")
	}
	lines = append(lines, d.note.View())
	if d.warn != "" {
		lines = append(lines, st.Status.Error.Render(fitWidth(d.warn, inner)))
	}
	lines = append(lines, "", st.Dialog.Choice.Render(fitWidth(d.hint(), inner)))
	for i, l := range lines {
		lines[i] = cell(l, inner, false)
	}
	return st.Dialog.Box.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
}

func (d *decisionDialog) hint() string {
	switch {
	case d.followup:
		return "enter save · esc cancel"
	case d.focus == focusChoices:
		return "r/n/i or ←/→ choose · tab note · enter save · esc cancel"
	}
	return "tab choices · enter save · esc cancel"
}
