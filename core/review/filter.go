package review

import (
	"strconv"
	"strings"
)

// Label is a session's "work item · phase-iteration" label, as the inbox
// shows it and the `/` filter matches it; "?" stands for an unknown phase.
func Label(workItem, phase string, iteration *int) string {
	if phase == "" {
		phase = "?"
	}
	if iteration != nil {
		phase += "-" + strconv.Itoa(*iteration)
	}
	return workItem + " · " + phase
}

// FilterMatches reports whether a session passes the inbox's `/` filter:
// the pattern is fuzzy-matched (FuzzyMatch) against the agent, the label
// (Label) and each tool name, and found as a plain substring of the final
// message (nil when the session has none); all ignoring case. Matching
// the long final message fuzzily would match nearly anything.
func FilterMatches(pattern, agent, label string, toolNames []string, final *string) bool {
	if FuzzyMatch(pattern, agent) || FuzzyMatch(pattern, label) {
		return true
	}
	for _, n := range toolNames {
		if FuzzyMatch(pattern, n) {
			return true
		}
	}
	return final != nil && strings.Contains(strings.ToLower(*final), strings.ToLower(pattern))
}

// FuzzyMatch reports whether the characters of pattern appear in text in
// order, ignoring case and spaces in the pattern.
func FuzzyMatch(pattern, text string) bool {
	text = strings.ToLower(text)
	for _, r := range strings.ToLower(pattern) {
		if r == ' ' {
			continue
		}
		i := strings.IndexRune(text, r)
		if i < 0 {
			return false
		}
		text = text[i+len(string(r)):]
	}
	return true
}
