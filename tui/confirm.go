package tui

import (
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

type (
	// askExecMsg asks the reviewer before a program opens a file outside
	// the run's working directory, or of a run whose directory is unknown.
	askExecMsg struct {
		run execMsg
		// path is the absolute file the program would open; cwd the run's
		// recorded working directory, "" when unknown; fromStream says cwd
		// is the folder the stream records (sift run recorded none).
		path, cwd  string
		fromStream bool
	}
	// confirmDoneMsg is the reviewer's answer: run is nil when cancelled.
	confirmDoneMsg struct{ run *execMsg }
)

// confirmDialog asks whether to open a file sift would not open on its
// own. It shows the whole absolute path; y opens, any other key cancels.
// It returns intents; the app starts the program.
type confirmDialog struct {
	c   *Common
	ask askExecMsg
}

// Update handles a key: the reviewer's answer.
func (d *confirmDialog) Update(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "y" {
		run := d.ask.run
		return intent(confirmDoneMsg{run: &run})
	}
	return intent(confirmDoneMsg{})
}

// View draws the dialog in at most w×h cells. The path is wrapped, never
// cut, unless it has more lines than fit: then its middle gives way.
func (d *confirmDialog) View(w, h int) string {
	st := d.c.Styles
	inner := min(max(w-8, 20), 72)
	title, where := "open a file outside the run's folder?", "run folder: "+Inert(d.ask.cwd)
	switch {
	case d.ask.cwd == "":
		title, where = "open this file?", "the run's working directory is unknown"
	case d.ask.fromStream:
		title, where = "open this file?", "run folder, as the stream records it: "+Inert(d.ask.cwd)
	}
	lines := []string{st.Dialog.Title.Render(fitWidth(title, inner)), ""}
	for _, l := range pathLines(Inert(d.ask.path), inner, max(h-12, 3)) {
		lines = append(lines, st.Dialog.Selected.Render(l))
	}
	lines = append(lines, "", st.Dialog.Choice.Render(fitWidth(where, inner)), "",
		st.Dialog.Choice.Render(fitWidth("y open in $EDITOR · any other key cancels", inner)))
	for i, l := range lines {
		lines[i] = cell(l, inner, false)
	}
	return st.Dialog.Box.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
}

// pathLines wraps a path at w columns into at most n lines, keeping its
// start and its end (the file name) when it has more.
func pathLines(p string, w, n int) []string {
	lines := strings.Split(ansi.Hardwrap(p, w, true), "\n")
	if len(lines) <= n {
		return lines
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	out := append([]string(nil), lines[:head]...)
	out = append(out, "…")
	return append(out, lines[len(lines)-tail:]...)
}

// handleExec hands the terminal to a program; when it exits, its
// temporary file (if any) is removed.
func (m *App) handleExec(msg execMsg) tea.Cmd {
	tmp := msg.tmp
	return tea.ExecProcess(msg.cmd, func(err error) tea.Msg { return execDoneMsg{err: err, tmp: tmp} })
}

// handleExecDone reports a program's failure and removes its temporary
// file, off the UI goroutine.
func (m *App) handleExecDone(msg execDoneMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.tmp != "" {
		tmp := msg.tmp
		cmds = append(cmds, func() tea.Msg {
			if err := os.Remove(tmp); err != nil && !os.IsNotExist(err) {
				return errMsg{err}
			}
			return nil
		})
	}
	if msg.err != nil {
		cmds = append(cmds, m.setStatus(msg.err.Error(), true))
	}
	return tea.Batch(cmds...)
}

// handleConfirmed starts the program the reviewer confirmed, or says it
// did not.
func (m *App) handleConfirmed(msg confirmDoneMsg) tea.Cmd {
	m.confirm = nil
	if msg.run == nil {
		return m.setStatus("not opened", false)
	}
	return intent(*msg.run)
}
