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
// (outcome:failed).
type Outcome string

// The outcomes.
const (
	OutcomeSuccess    Outcome = "success"
	OutcomeFailed     Outcome = "failed"
	OutcomeIncomplete Outcome = "incomplete"
	OutcomeUnknown    Outcome = "unknown"
)

// Outcomes lists the outcomes in the order help names them.
func Outcomes() []Outcome {
	return []Outcome{OutcomeSuccess, OutcomeFailed, OutcomeIncomplete, OutcomeUnknown}
}

// Statuses returns the run statuses a summary records for an outcome.
// This is the one place the query language's outcomes meet the summary's
// statuses: when the summary gains an outcome of its own, only this
// changes.
func (o Outcome) Statuses() []summary.RunStatus {
	switch o {
	case OutcomeSuccess:
		return []summary.RunStatus{summary.RunSuccess}
	case OutcomeFailed:
		return []summary.RunStatus{summary.RunError}
	case OutcomeIncomplete:
		return []summary.RunStatus{summary.RunIncomplete}
	case OutcomeUnknown:
		return []summary.RunStatus{summary.RunUnknown}
	}
	return nil
}

// OutcomeOf returns the outcome of a run status.
func OutcomeOf(st summary.RunStatus) Outcome {
	for _, o := range Outcomes() {
		for _, s := range o.Statuses() {
			if s == st {
				return o
			}
		}
	}
	return OutcomeUnknown
}
