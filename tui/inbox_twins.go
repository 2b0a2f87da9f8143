package tui

import (
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentsift/sift/core/review"
)

// Two runs of one step (a work item's phase and iteration run again, or
// two history sessions of one project) have the same label: the inbox
// tells them apart by a twin mark after it, the time the run started
// ("14:05"), else, when that is unknown or the same as a twin's, the end
// of its file name ("#a1b2c3"). The marks are worked out once per page.

// twinMarks returns the twin mark of each loaded session that shares its
// label with another loaded one; the others have none.
func twinMarks(win []review.Session, label func(*review.Session) string, clock func(*review.Session) string) map[review.SessionKey]string {
	groups := map[string][]*review.Session{}
	for i := range win {
		l := label(&win[i])
		groups[l] = append(groups[l], &win[i])
	}
	var marks map[review.SessionKey]string
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		clocks := map[string]int{}
		for _, s := range g {
			clocks[clock(s)]++
		}
		if marks == nil {
			marks = map[review.SessionKey]string{}
		}
		for _, s := range g {
			if c := clock(s); c != "" && clocks[c] == 1 {
				marks[s.Key()] = c
			} else {
				marks[s.Key()] = "#" + fileTail(s.FileName)
			}
		}
	}
	return marks
}

// fileTail is the last six characters of a file name without its
// extension: the random part of a capture's name, the end of a history
// session's id.
func fileTail(name string) string {
	stem := strings.TrimSuffix(name, filepath.Ext(name))
	if len(stem) > 6 {
		stem = stem[len(stem)-6:]
	}
	return Inert(stem)
}

// markTwins works out the twin marks of the loaded rows.
func (m *inboxView) markTwins() {
	now := m.c.Now()
	m.twins = twinMarks(m.win, func(s *review.Session) string { return phaseLabel(s) }, func(s *review.Session) string {
		if s.StartedAt == nil {
			return ""
		}
		return s.StartedAt.In(now.Location()).Format("15:04")
	})
}

// withTwinMark fits a label and a session's twin mark into w columns:
// the label gives way, so that the mark always shows.
func (m *inboxView) withTwinMark(label string, s *review.Session, w int) string {
	mark := m.twins[s.Key()]
	if mark == "" {
		return label
	}
	mark = " " + mark
	room := w - ansi.StringWidth(mark)
	if room < 4 {
		return label
	}
	return fitWidth(label, room) + mark
}
