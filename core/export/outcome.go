package export

import (
	"slices"

	"github.com/agentsift/sift/core/summary"
)

// Outcome is the outcome of a run as the exports name it (completed,
// failed, interrupted, died_before_start, unknown): the summary's own,
// and unknown for a word sift does not record (a stored row is data). It
// is the one place the exports read it.
func Outcome(s *summary.Summary) string {
	if s == nil || !slices.Contains(summary.Outcomes(), s.Outcome) && s.Outcome != summary.OutcomeRunning {
		return string(summary.OutcomeUnknown)
	}
	return string(s.Outcome)
}

// outcomeWord is an outcome as the report's Markdown and HTML say it, the
// word every view uses (summary.Outcome.Word: died for died_before_start);
// its JSON keeps the outcome itself.
func outcomeWord(o string) string { return summary.Outcome(o).Word() }
