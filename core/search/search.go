// Package search is sift's search: the query language a reviewer types
// (Parse), the text of a session a store indexes for it (NewDoc), and the
// matching of a query's words in a text (Query.Highlight, Query.MatchDoc),
// which the inbox uses to mark what matched and a store without a
// full-text index uses to answer.
//
// A query is words, all of which a session must contain somewhere in its
// indexed text (droid rework), "quoted phrases", -exclusions, and field
// filters (agent:codex, cost>0.5). Words are runs of letters and digits,
// compared without regard to case; the last word may be the start of a
// word while it is typed.
//
// It knows summaries, never SQL: a store turns a Query into its own index's
// terms.
package search

import "github.com/agentsift/sift/core/summary"

// Outcome is how a run ended, as the query language names it
// (outcome:failed): the summary's own outcome, which the store keeps in a
// column of its own.
type Outcome = summary.Outcome

// Outcomes lists the outcomes in the order help names them, most urgent
// first.
func Outcomes() []Outcome { return summary.Outcomes() }

// legacyOutcome maps the names of the run statuses that came before the
// outcome (success, error) to the outcome they became, so that a query
// typed from habit still filters.
func legacyOutcome(name string) (Outcome, bool) {
	switch name {
	case "success":
		return summary.OutcomeCompleted, true
	case "error":
		return summary.OutcomeFailed, true
	}
	return "", false
}
