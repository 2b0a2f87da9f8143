package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
)

// column is one column of a table.
type column struct {
	title string
	// width is the column's width, or its minimum when flex is set.
	width int
	// max caps a flex column; 0 means no cap.
	max   int
	flex  bool
	right bool
	// drop orders the columns a narrow terminal drops: the highest goes
	// first; 0 is never dropped.
	drop int
	sort review.SortKey
}

// layoutColumns fits columns into a width: it drops the least important
// columns until the minimum widths fit, then shares the rest among the flex
// columns, in order, each up to its cap.
func layoutColumns(cols []column, width, gap int) []column {
	kept := append([]column(nil), cols...)
	need := func() int {
		n := 0
		for _, c := range kept {
			n += c.width
		}
		return n + gap*max(len(kept)-1, 0)
	}
	for need() > width {
		worst := -1
		for i, c := range kept {
			if c.drop > 0 && (worst < 0 || c.drop > kept[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		kept = append(kept[:worst], kept[worst+1:]...)
	}
	spare := width - need()
	for i := range kept {
		if !kept[i].flex || spare <= 0 {
			continue
		}
		add := spare
		if kept[i].max > 0 {
			add = min(add, kept[i].max-kept[i].width)
		}
		add = max(add, 0)
		kept[i].width += add
		spare -= add
	}
	return kept
}

// cell fits a (possibly styled) string into exactly w columns: cut with an
// ellipsis, padded with spaces, on the left when right is set.
func cell(s string, w int, right bool) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	pad := w - ansi.StringWidth(s)
	if pad <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", pad) + s
	}
	return s + strings.Repeat(" ", pad)
}

// fitWidth cuts a line to at most w columns.
func fitWidth(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// fitScreen makes a frame of exactly h lines, none wider than w.
func fitScreen(lines []string, w, h int) string {
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fitWidth(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// overlay draws box (a block of lines) centred over the base lines.
func overlay(base []string, box string, w, h int) []string {
	for len(base) < h {
		base = append(base, "")
	}
	boxLines := strings.Split(box, "\n")
	bw := 0
	for _, l := range boxLines {
		bw = max(bw, ansi.StringWidth(l))
	}
	bw = min(bw, w)
	x := max((w-bw)/2, 0)
	y := max((h-len(boxLines))/2, 0)
	out := append([]string(nil), base...)
	for i, bl := range boxLines {
		row := y + i
		if row >= len(out) {
			break
		}
		under := out[row]
		left := cell(ansi.Truncate(under, x, ""), x, false)
		right := ansi.TruncateLeft(under, x+bw, "")
		out[row] = left + cell(bl, bw, false) + right
	}
	return out
}

// rule is a horizontal line of width w, with an optional label.
func (s *Styles) rule(label string, w int) string {
	if label == "" {
		return s.App.Rule.Render(strings.Repeat("─", max(w, 0)))
	}
	head := "─ " + label + " "
	n := w - ansi.StringWidth(head)
	if n < 0 {
		return s.App.Rule.Render(fitWidth(head, w))
	}
	return s.App.Rule.Render(head + strings.Repeat("─", n))
}

// wrapLines wraps (possibly styled) lines wider than w onto more lines.
func wrapLines(lines []string, w int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if w <= 0 || ansi.StringWidth(l) <= w {
			out = append(out, l)
			continue
		}
		out = append(out, strings.Split(ansi.Hardwrap(l, w, true), "\n")...)
	}
	return out
}
