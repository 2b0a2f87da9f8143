package main

import (
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// tableGap is the space between two columns of a table.
const tableGap = 2

// tableColumn is one column of a table a command prints.
type tableColumn struct {
	title string
	// drop orders the columns a narrow width leaves out: 1 goes first; 0
	// never goes.
	drop int
	// cut orders the columns a narrow width cuts (with …): 1 first; 0 is
	// never cut. They are cut to soft cells before any column is
	// dropped, and to least once the droppable ones are gone.
	cut, soft, least int
}

// table is a table of cells, one []string per row in its columns' order.
type table struct {
	cols []tableColumn
	rows [][]string
}

// terminalWidth is the width a table printed to w fits: the terminal's
// when w is one ($COLUMNS first, as a shell exports it, else the
// terminal's size), 0 (no limit) when w is a pipe or a file, which get
// every column whole.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if n, _, err := term.GetSize(f.Fd()); err == nil && n > 0 {
		return n
	}
	return 0
}

// write prints the table fitted to width (0: no limit): columns as wide
// as their widest cell, tableGap apart, the last one unpadded. When the
// table is wider than width it cuts the cuttable columns to their soft
// width, leaves out the droppable columns in their order, then cuts the
// cuttable ones to their least, until it fits; a line still too wide is
// cut at width.
func (t *table) write(w io.Writer, width int) {
	widths := make([]int, len(t.cols))
	for i, c := range t.cols {
		widths[i] = ansi.StringWidth(c.title)
		for _, r := range t.rows {
			widths[i] = max(widths[i], ansi.StringWidth(r[i]))
		}
	}
	keep := make([]bool, len(t.cols))
	for i := range keep {
		keep[i] = true
	}
	if width > 0 {
		t.fit(width, widths, keep)
	}
	last := 0 // the last column kept: its cells are not padded
	for i, k := range keep {
		if k {
			last = i
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			if !keep[i] {
				continue
			}
			c = ansi.Truncate(c, widths[i], "…")
			b.WriteString(c)
			if i < last {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(c)+tableGap))
			}
		}
		out := b.String()
		if width > 0 {
			out = strings.TrimRight(ansi.Truncate(out, width, ""), " ")
		}
		io.WriteString(w, out+"\n")
	}
	titles := make([]string, len(t.cols))
	for i, c := range t.cols {
		titles[i] = c.title
	}
	line(titles)
	for _, r := range t.rows {
		line(r)
	}
}

// fit leaves out and narrows columns (keep, widths) until the table is
// at most width wide, or nothing more can go.
func (t *table) fit(width int, widths []int, keep []bool) {
	total := func() int {
		n := -tableGap
		for i, k := range keep {
			if k {
				n += widths[i] + tableGap
			}
		}
		return n
	}
	order := func(rank func(tableColumn) int) []int {
		var is []int
		for i, c := range t.cols {
			if rank(c) > 0 {
				is = append(is, i)
			}
		}
		slices.SortStableFunc(is, func(a, b int) int { return rank(t.cols[a]) - rank(t.cols[b]) })
		return is
	}
	cut := func(least func(tableColumn) int) {
		for _, i := range order(func(c tableColumn) int { return c.cut }) {
			if over := total() - width; over > 0 {
				floor := max(least(t.cols[i]), ansi.StringWidth(t.cols[i].title))
				widths[i] = max(widths[i]-over, min(floor, widths[i]))
			}
		}
	}
	cut(func(c tableColumn) int { return c.soft })
	for _, i := range order(func(c tableColumn) int { return c.drop }) {
		if total() <= width {
			return
		}
		keep[i] = false
	}
	cut(func(c tableColumn) int { return c.least })
}
