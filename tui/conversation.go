package tui

import (
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/detail"
)

// joinChunks joins the texts of consecutive events: a delta that goes on
// the one before (it starts or the other ends with a space, or both are
// on one line) directly, separate messages with a newline.
func joinChunks(ls []detail.Line) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			prev := ls[i-1]
			glued := prev.Line == l.Line || strings.HasSuffix(prev.Text, " ") || strings.HasPrefix(l.Text, " ") ||
				strings.HasSuffix(prev.Text, "\n")
			if !glued {
				b.WriteString("\n")
			}
		}
		b.WriteString(l.Text)
	}
	return b.String()
}

// withLines lists texts each after its line number: "line 4: …".
func withLines(ls []detail.Line) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("line " + strconv.Itoa(l.Line) + ": " + strings.TrimRight(l.Text, "\n"))
	}
	return b.String()
}
