package tui

import (
	"context"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
)

// previewLoadedMsg is sent when the selected session's whole summary and
// decisions return for the preview pane.
type previewLoadedMsg struct {
	seq       int
	session   review.Session
	decisions []review.Decision
	err       error
}

// previewPane is the pane beside the inbox list that shows the evidence of
// the selected session: its flags, first error, latest decision and final
// message. It holds the one session it shows.
type previewPane struct {
	key       review.SessionKey
	s         *review.Session
	decisions []review.Decision
	seq       int
	err       error
}

// loaded keeps a preview that is still the one asked for.
func (p *previewPane) loaded(msg previewLoadedMsg) {
	if msg.seq != p.seq {
		return
	}
	p.err = msg.err
	if msg.err == nil {
		s := msg.session
		p.s, p.decisions = &s, msg.decisions
	}
}

// invalidatePreview makes the pane load its session again: its decisions
// changed.
func (m *inboxView) invalidatePreview() { m.preview.key = review.SessionKey{} }

// previewOn reports whether the pane shows: the reviewer's choice (p),
// else from 120 columns, like gh-dash's sidebar.
func (m *inboxView) previewOn() bool {
	if m.previewSet {
		return m.showPreview
	}
	return m.w >= 120
}

// previewWidth is the pane's width: three eighths of the body, between
// 36 and 80 columns, so that the list keeps the room of its main columns.
func (m *inboxView) previewWidth() int { return min(max(m.w*3/8, 36), 80) }

// syncPreview loads the selected session for the pane when the selection
// changed, off the UI goroutine; a newer selection supersedes it.
func (m *inboxView) syncPreview() tea.Cmd {
	s := m.selected()
	if !m.previewOn() || s == nil || s.Key() == m.preview.key {
		return nil
	}
	p := &m.preview
	p.key, p.s, p.decisions, p.err = s.Key(), nil, nil, nil
	p.seq++
	seq, k, st := p.seq, s.Key(), m.c.Store
	return func() tea.Msg {
		ctx := context.Background()
		sess, err := st.GetSession(ctx, k)
		if err != nil {
			return previewLoadedMsg{seq: seq, err: err}
		}
		ds, err := st.Decisions(ctx, k)
		return previewLoadedMsg{seq: seq, session: sess, decisions: ds, err: err}
	}
}

// previewLines draws the pane in w×h cells: one section after the other,
// each skipped when it has nothing to say, cut at the pane's foot.
func (m *inboxView) previewLines(w, h int) []string {
	st := m.c.Styles
	p := &m.preview
	sel := m.selected()
	var lines []string
	switch {
	case sel == nil:
		return nil
	case p.err != nil:
		lines = []string{st.Status.Error.Render(" " + Inert(p.err.Error()))}
	case p.s == nil || p.key != sel.Key():
		lines = append(previewTitle(st, sel, w), st.App.Subtle.Render(" loading…"))
	default:
		for _, sec := range [][]string{
			previewTitle(st, p.s, w), m.previewFigures(p.s, w), m.previewFlags(p.s, w), m.previewError(p.s, w),
			m.previewChanged(p.s, w), m.previewDecision(w), m.previewFinal(p.s, w),
		} {
			if len(sec) > 0 {
				lines = append(lines, sec...)
				lines = append(lines, "")
			}
		}
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fitWidth(l, w)
	}
	return lines
}

// labelWidth is the width of a section's label column.
const labelWidth = 11

// label starts a section's first line: a fixed-width word on the left.
func (st *Styles) label(word string) string {
	return st.App.Section.Render(cell(" "+word, labelWidth, false))
}

// indentLines wraps text into lines of the section's content column.
func indentLines(st *Styles, text string, w, max int) []string {
	var out []string
	for _, l := range InertLines(strings.TrimRight(text, "\n")) {
		if ww := w - labelWidth; ww > 0 && ansi.StringWidth(l) > ww {
			out = append(out, strings.Split(ansi.Wrap(l, ww, ""), "\n")...)
			continue
		}
		out = append(out, l)
	}
	if len(out) > max {
		out = append(out[:max-1], "…")
	}
	for i, l := range out {
		if i == 0 {
			continue
		}
		out[i] = strings.Repeat(" ", labelWidth) + st.App.Text.Render(l)
	}
	return out
}

// previewTitle is the session's label, agent and model.
func previewTitle(st *Styles, s *review.Session, w int) []string {
	t := phaseLabel(s) + " · " + s.AgentKind
	if s.Model != "" {
		t += " (" + s.Model + ")"
	}
	return []string{" " + st.App.Title.Render(fitWidth(Inert(t), w-1))}
}

// previewFigures is the run's outcome with its evidence, and its figures.
func (m *inboxView) previewFigures(s *review.Session, w int) []string {
	st := m.c.Styles
	out := indentLines(st, outcomeText(&s.Summary), w, 6)
	style := st.App.Text
	if s.Outcome.IsFailure() {
		style = st.Status.Error
	}
	out[0] = st.label("outcome") + style.Render(out[0])
	parts := []string{}
	if s.ExitCode != nil {
		parts = append(parts, "exit "+strconv.Itoa(*s.ExitCode))
	}
	parts = append(parts, fmtMs(s.TotalDurationMs), fmtCost(s.EstimatedUSD, s.CostSource), plural(s.ToolCallCount, "call"))
	return append(out, " "+st.App.Muted.Render(strings.Join(parts, " · ")))
}

// previewFlags says why the session is flagged: a sentence per flag with
// its lines; for a summary stored before sentences, the flags' names and
// the first stall.
func (m *inboxView) previewFlags(s *review.Session, w int) []string {
	if len(s.Flags) == 0 {
		return nil
	}
	st := m.c.Styles
	if len(s.FlagNotes) > 0 {
		out := indentLines(st, noteText(s.FlagNotes), w, 6)
		out[0] = st.label("⚑ flags") + st.Badge.Error.Render(out[0])
		return out
	}
	var words []string
	for _, f := range s.Flags {
		words = append(words, flagName(m.c.Mode, f))
	}
	if len(s.Stalls) > 0 {
		sl := s.Stalls[0]
		words = append(words, "first stall "+string(sl.Kind)+" "+fmtMs(&sl.GapMs)+" ("+sl.TurnID+")")
	}
	text := strings.Join(words, ", ")
	out := indentLines(st, text, w, 3)
	out[0] = st.label("⚑ flags") + st.Badge.Error.Render(out[0])
	return out
}

// previewError is the first failing call and its error.
func (m *inboxView) previewError(s *review.Session, w int) []string {
	st := m.c.Styles
	for i := range s.ToolCalls {
		tc := &s.ToolCalls[i]
		if tc.Success == nil || *tc.Success {
			continue
		}
		text := tc.TurnID + " " + tc.Name + ": " + firstLine(tc.InputSummary)
		switch {
		case tc.Why != "":
			// The failure's own words, as its flag says them.
			text += "\n" + tc.Why
		case tc.Error != nil:
			text += "\n" + *tc.Error
		}
		out := indentLines(st, text, w, 4)
		out[0] = st.label("✗ failed") + st.Status.Error.Render(out[0])
		return out
	}
	return nil
}

// previewChanged is what the run changed: its files with their diff
// stat, one a line, and the commits before and after it.
func (m *inboxView) previewChanged(s *review.Session, w int) []string {
	sum, git := changedSummary(&s.Summary), gitRange(s)
	if sum == "" && git == "" {
		return nil
	}
	st := m.c.Styles
	var lines []string
	if sum != "" {
		lines = append(lines, sum)
		dir, files := filesIn(s)
		if dir != "" {
			lines = append(lines, "in "+fitLeft(dir, w-labelWidth-3))
		}
		for _, f := range files {
			lines = append(lines, fitLeft(f, w-labelWidth-1))
		}
		if more := s.FilesTouchedCount - len(s.FilesTouched); more > 0 {
			lines = append(lines, "… and "+plural(more, "more file"))
		}
	}
	if git != "" {
		lines = append(lines, git)
	}
	out := indentLines(st, strings.Join(lines, "\n"), w, 8)
	out[0] = st.label("changed") + st.App.Text.Render(out[0])
	return out
}

// previewDecision is the latest decision on the session, its turns or
// its calls, with its note and reviewer; or that none is.
func (m *inboxView) previewDecision(w int) []string {
	st := m.c.Styles
	cur := review.Current(m.preview.decisions)
	var claim []string
	if c := claimText(m.preview.s.Claim, m.c.Now()); c != "" {
		claim = indentLines(st, c+" until "+localClock(m.preview.s.Claim.ExpiresAt, m.c.Now()), w, 2)
		claim[0] = st.label("claimed") + st.Badge.Stall.Render(claim[0])
	}
	if len(cur) == 0 {
		return append([]string{st.label("decided") + st.App.Subtle.Render("— (undecided)")}, claim...)
	}
	d := cur[len(cur)-1]
	for _, c := range cur {
		if c.ID > d.ID {
			d = c
		}
	}
	what := ansi.Strip(decisionBadge(st, d.Kind)) + " " + decidedBy(&d, m.c.Now())
	if !d.OnSession() {
		what += " · on " + strings.TrimSpace(d.TurnID+" "+d.ToolCallID)
	}
	if d.Note != "" {
		what += "\n" + d.Note
	}
	out := indentLines(st, what, w, 4)
	out[0] = st.label("decided") + st.App.Text.Render(out[0])
	return append(out, claim...)
}

// previewFinal is the final message, as much as the pane has room for.
func (m *inboxView) previewFinal(s *review.Session, w int) []string {
	text := lastWords(&s.Summary)
	if s.FinalAssistantMessage != nil {
		text = *s.FinalAssistantMessage
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	st := m.c.Styles
	out := indentLines(st, text, w, max(m.h, 4))
	out[0] = st.label("final") + st.App.Text.Render(out[0])
	return out
}
