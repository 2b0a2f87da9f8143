package tui

import (
	"strings"
	"time"

	"github.com/agentsift/sift/core/event"
	"github.com/agentsift/sift/core/summary"
)

// cellState is what one cell of the timeline shows, in rising priority.
type cellState uint8

const (
	cellThinking cellState = iota
	cellExecuting
	cellStall
	cellFailure
)

// timelineCells projects a session onto w cells: the model's time, tool
// time (the union of tool calls), stalls and failed calls. ok is false
// when the stream has no timing.
func timelineCells(s *summary.Summary, w int) (cells []cellState, ok bool) {
	if s.StartedAt == nil || s.TotalDurationMs == nil || *s.TotalDurationMs <= 0 || w <= 0 {
		return nil, false
	}
	start := *s.StartedAt
	total := time.Duration(*s.TotalDurationMs) * time.Millisecond
	cells = make([]cellState, w)
	mark := func(from, to time.Time, st cellState) {
		a := int(float64(from.Sub(start)) / float64(total) * float64(w))
		b := int(float64(to.Sub(start)) / float64(total) * float64(w))
		a, b = max(a, 0), min(max(b, a), w-1)
		for i := a; i <= b && i < w; i++ {
			cells[i] = max(cells[i], st)
		}
	}
	for i := range s.ToolCalls {
		tc := &s.ToolCalls[i]
		if tc.StartedAt == nil {
			continue
		}
		end := *tc.StartedAt
		switch {
		case tc.EndedAt != nil:
			end = *tc.EndedAt
		case tc.DurationMs != nil:
			end = end.Add(time.Duration(*tc.DurationMs) * time.Millisecond)
		}
		st := cellExecuting
		if tc.Success != nil && !*tc.Success && !tc.ApprovalRequired {
			st = cellFailure
		}
		mark(*tc.StartedAt, end, st)
	}
	for _, sl := range s.Stalls {
		if sl.Kind == summary.StallTool && !sl.Flagged {
			// Tool time, not a stall: the call's own cells show it.
			continue
		}
		mark(sl.StartedAt, sl.StartedAt.Add(time.Duration(sl.GapMs)*time.Millisecond), cellStall)
	}
	return cells, true
}

// timeline draws the timeline of a session in w columns.
func (st *Styles) timeline(s *summary.Summary, w int) (string, bool) {
	cells, ok := timelineCells(s, w)
	if !ok {
		return "", false
	}
	var b strings.Builder
	run, runState := 0, cells[0]
	flush := func() {
		if run == 0 {
			return
		}
		switch runState {
		case cellThinking:
			b.WriteString(st.Timeline.Thinking.Render(strings.Repeat("█", run)))
		case cellExecuting:
			b.WriteString(st.Timeline.Executing.Render(strings.Repeat("▓", run)))
		case cellStall:
			b.WriteString(st.Timeline.Stall.Render(strings.Repeat("░", run)))
		case cellFailure:
			b.WriteString(st.Timeline.Failure.Render(strings.Repeat("╳", run)))
		}
	}
	for _, c := range cells {
		if c != runState {
			flush()
			run, runState = 0, c
		}
		run++
	}
	flush()
	return b.String(), true
}

// timelineLegend explains the timeline's glyphs.
func (st *Styles) timelineLegend() string {
	return st.Timeline.Thinking.Render("█") + st.App.Subtle.Render(" model ") +
		st.Timeline.Executing.Render("▓") + st.App.Subtle.Render(" tools ") +
		st.Timeline.Stall.Render("░") + st.App.Subtle.Render(" stall ") +
		st.Timeline.Failure.Render("╳") + st.App.Subtle.Render(" failed")
}

// sparkLevels are the sparkline's levels, lowest first.
const sparkLevels = "▁▂▃▄▅▆▇█"

// sparkline draws one bar per turn's tokens in at most w columns; when
// there are more turns than columns each column shows the largest of its
// turns. Unknown counts are blank.
func sparkline(turns []summary.Turn, w int) string {
	if len(turns) == 0 || w <= 0 {
		return ""
	}
	vals := make([]int64, len(turns))
	known := make([]bool, len(turns))
	var top int64
	for i, t := range turns {
		if t.InputTokens == nil && t.OutputTokens == nil {
			continue
		}
		known[i] = true
		for _, n := range []*int64{t.InputTokens, t.OutputTokens} {
			if n != nil {
				vals[i] = event.AddCount(vals[i], *n)
			}
		}
		top = max(top, vals[i])
	}
	sparkBars := []rune(sparkLevels)
	n := min(len(turns), w)
	out := make([]rune, n)
	for c := range n {
		lo, hi := c*len(turns)/n, (c+1)*len(turns)/n
		var v int64
		seen := false
		for i := lo; i < max(hi, lo+1); i++ {
			if known[i] {
				seen = true
				v = max(v, vals[i])
			}
		}
		switch {
		case !seen:
			out[c] = ' '
		case top == 0:
			out[c] = sparkBars[0]
		default:
			out[c] = sparkBars[int(v*int64(len(sparkBars)-1)/top)]
		}
	}
	return string(out)
}
