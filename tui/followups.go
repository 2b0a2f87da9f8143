package tui

import (
	"context"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/agentsift/sift/core/review"
)

// followupsView lists the open follow-ups over the current screen, as
// `sift followups` does: each with its note, its failing call and the
// command that resumes the agent's session with the note as the prompt,
// which y copies.
type followupsView struct {
	c       *Common
	fs      []review.Followup
	loading bool
	cursor  int
}

// openFollowups shows the box and loads the follow-ups.
func (m *App) openFollowups() tea.Cmd {
	m.followups = &followupsView{c: m.c, loading: true}
	st := m.c.Store
	return func() tea.Msg {
		fs, err := st.Followups(context.Background())
		return followupsLoadedMsg{fs: fs, err: err}
	}
}

func (m *App) handleFollowups(msg followupsLoadedMsg) tea.Cmd {
	if m.followups == nil {
		return nil
	}
	if msg.err != nil {
		m.followups = nil
		return reportErr(msg.err)
	}
	m.followups.fs, m.followups.loading = msg.fs, false
	return nil
}

// resume is how to resume a follow-up's session (Options.Resume).
func (v *followupsView) resume(f *review.Followup) review.Resume {
	if v.c.Resume == nil {
		return review.Resume{Why: "no resume command: this inbox was given no way to build one"}
	}
	return v.c.Resume(f)
}

// Update moves the selection, copies the selected resume command, opens
// its session, or closes the box.
func (v *followupsView) Update(msg tea.KeyPressMsg) tea.Cmd {
	k := v.c.Keys
	switch {
	case key.Matches(msg, k.Back, k.Followups, k.Help, k.Quit):
		return intent(closeOverlayMsg{})
	case key.Matches(msg, k.Down):
		v.cursor = min(v.cursor+1, max(len(v.fs)-1, 0))
	case key.Matches(msg, k.Up):
		v.cursor = max(v.cursor-1, 0)
	case v.cursor >= len(v.fs):
	case key.Matches(msg, k.Copy):
		r := v.resume(&v.fs[v.cursor])
		if r.Why != "" {
			return intent(statusMsg{text: r.Why})
		}
		return intent(copyMsg{what: "the resume command", text: r.Shell()})
	case key.Matches(msg, k.Enter):
		f := &v.fs[v.cursor]
		return tea.Batch(intent(closeOverlayMsg{}), intent(openSessionMsg{key: f.Decision.Session}))
	}
	return nil
}

// entry lays out one follow-up: where, note, failing call, command.
func (v *followupsView) entry(f *review.Followup, sel bool, w int) []string {
	st := v.c.Styles
	t := decisionTarget{session: f.Decision.Session, label: phaseLabel(&f.Session),
		turnID: f.Decision.TurnID, toolCallID: f.Decision.ToolCallID}
	if f.Call != nil && f.Call.ID == t.toolCallID {
		t.callName = f.Call.Name
	}
	mark, head := "  ", st.Dialog.Choice
	if sel {
		mark, head = "▶ ", st.Dialog.Selected
	}
	lines := []string{head.Render(fitWidth(mark+t.String()+" · "+Inert(f.Session.AgentKind), w))}
	add := func(label, text string) {
		lines = append(lines, st.Dialog.Choice.Render(fitWidth("    "+label+Inert(firstLine(text)), w)))
	}
	// A command is shown whole, wrapped: it is copied by hand too.
	addWhole := func(label, text string) {
		for i, l := range strings.Split(ansi.Hardwrap(Inert(text), max(w-12, 10), true), "\n") {
			if i > 0 {
				label = strings.Repeat(" ", len(label))
			}
			lines = append(lines, st.Dialog.Choice.Render(fitWidth("    "+label+l, w)))
		}
	}
	add("note    ", f.Decision.Note)
	if c := f.Call; c != nil {
		text := c.Name + ": " + firstLine(c.InputSummary)
		switch {
		case c.Why != "":
			text = c.Name + ": " + c.Why
		case c.Error != nil:
			text = c.Name + ": " + firstLine(*c.Error)
		}
		add("failed  ", text)
	}
	switch r := v.resume(f); {
	case r.Why != "":
		add("resume  ", r.Why)
	default:
		addWhole("resume  ", r.Shell())
		if r.DirWhy != "" {
			add("folder  ", r.DirWhy)
		} else if r.DirFrom == review.DirFromStream {
			add("folder  ", "from the stream: "+r.Dir)
		}
		if n := r.NoteShell(); n != "" {
			addWhole("or      ", n)
			add("        ", "("+review.NoteLabel+")")
		}
	}
	return lines
}

// View draws the box in at most w×h cells, the selection in view.
func (v *followupsView) View(w, h int) string {
	st := v.c.Styles
	inner := max(min(w-6, 110), 20)
	title := "follow-ups"
	if !v.loading {
		title += " · " + strconv.Itoa(len(v.fs)) + " open"
	}
	lines := []string{st.Dialog.Title.Render(fitWidth(title, inner)), ""}
	switch {
	case v.loading:
		lines = append(lines, st.Dialog.Choice.Render("loading…"))
	case len(v.fs) == 0:
		lines = append(lines, st.Dialog.Choice.Render("no open follow-ups · x asks for one"))
	}
	rows := max(h-8, 5)
	entries := make([][]string, len(v.fs))
	for i := range v.fs {
		entries[i] = v.entry(&v.fs[i], i == v.cursor, inner)
	}
	// From the selected entry back as far as the room allows, then
	// forward: the selection is always in view.
	first := min(v.cursor, max(len(entries)-1, 0))
	for used := 0; first > 0; first-- {
		if used += len(entries[first]) + 1; used+len(entries[first-1])+1 > rows {
			break
		}
	}
	for i := first; i < len(entries) && len(lines)+len(entries[i])+1 <= rows+2; i++ {
		lines = append(lines, entries[i]...)
		lines = append(lines, "")
	}
	lines = append(lines, st.Dialog.Choice.Render(fitWidth("↑↓ select · y copy the resume command · enter open · esc close", inner)))
	for i, l := range lines {
		lines[i] = cell(l, inner, false)
	}
	return st.Dialog.Box.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
}

// copyItem is one thing the copy menu offers.
type copyItem struct {
	key, what, text string
}

// copyMenu offers what of a tool call to copy: its ids, its command, its
// output, its file's path. A letter (or ↑↓ and enter) copies; esc closes.
type copyMenu struct {
	c      *Common
	items  []copyItem
	cursor int
}

// Update handles a key of the menu.
func (c *copyMenu) Update(msg tea.KeyPressMsg) tea.Cmd {
	k := c.c.Keys
	switch {
	case key.Matches(msg, k.Back, k.Copy, k.Quit):
		return intent(closeOverlayMsg{})
	case key.Matches(msg, k.Down):
		c.cursor = min(c.cursor+1, len(c.items)-1)
	case key.Matches(msg, k.Up):
		c.cursor = max(c.cursor-1, 0)
	case key.Matches(msg, k.Enter):
		it := c.items[c.cursor]
		return intent(copyMsg{what: it.what, text: it.text})
	default:
		for _, it := range c.items {
			if msg.String() == it.key {
				return intent(copyMsg{what: it.what, text: it.text})
			}
		}
	}
	return nil
}

// View draws the menu in at most w columns.
func (c *copyMenu) View(w int) string {
	st := c.c.Styles
	inner := max(min(w-6, 72), 20)
	lines := []string{st.Dialog.Title.Render("copy"), ""}
	for i, it := range c.items {
		style := st.Dialog.Choice
		if i == c.cursor {
			style = st.Dialog.Selected
		}
		preview := strings.ReplaceAll(firstLine(it.text), "\t", " ")
		lines = append(lines, style.Render(fitWidth(it.key+"  "+it.what+"  "+Inert(preview), inner)))
	}
	lines = append(lines, "", st.Dialog.Choice.Render("letter or enter copies (OSC 52) · esc closes"))
	for i, l := range lines {
		lines[i] = cell(l, inner, false)
	}
	return st.Dialog.Box.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
}
