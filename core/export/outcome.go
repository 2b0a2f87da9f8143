package export

import "github.com/agentsift/sift/core/summary"

// Outcome is the outcome of a run as the exports name it. It is the one
// place that reads it: today the summary's status (success, error,
// incomplete, unknown); once summaries carry an outcome of their own
// (completed, failed, interrupted, died_before_start, unknown), this
// returns that instead.
func Outcome(s *summary.Summary) string {
	if s == nil || s.Status == "" {
		return string(summary.RunUnknown)
	}
	return string(s.Status)
}
