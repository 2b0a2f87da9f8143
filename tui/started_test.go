package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
)

// TestUntimedStartShowsTheFileTime: a session whose stream records no
// start shows its last activity (its file's time), marked ~, in the
// started column, where the started order places it, rather than —
// (issue 29, item 9).
func TestUntimedStartShowsTheFileTime(t *testing.T) {
	ss := fixtureSessions(t)
	for i := range ss {
		ss[i].StartedAt = nil
	}
	at := testNow.Add(-3 * time.Hour)
	ss[0].ActiveAt = &at
	m := newTestApp(t, 160, 40, NewMemStore(ss))
	press(t, m, m.c.Keys.SortBy(review.SortStarted))
	var row, other string
	for _, l := range strings.Split(screenText(m), "\n") {
		switch {
		case strings.Contains(l, phaseLabel(&ss[0])+" "):
			row = l
		case strings.Contains(l, phaseLabel(&ss[1])+" "):
			other = l
		}
	}
	if !strings.Contains(row, " ~3h ago ") || strings.Contains(other, "~") || !strings.Contains(other, dash) {
		t.Errorf("the file's time is not shown marked, or shown for a session without one:\n%s\n%s\n%s", row, other, screenText(m))
	}
}
