package export

import "github.com/agentsift/sift/core/summary"

// Outcome is the outcome of a run as the exports name it (completed,
// failed, interrupted, died_before_start, unknown): the summary's own. It
// is the one place the exports read it.
func Outcome(s *summary.Summary) string {
	if s == nil || s.Outcome == "" {
		return string(summary.OutcomeUnknown)
	}
	return string(s.Outcome)
}
