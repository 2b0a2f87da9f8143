package review

import (
	"strings"

	"github.com/agentsift/sift/core/summary"
)

// The triage order puts the worst first (issue 29): a run waiting for
// approval, then each tier below, then the rest. Inside a tier a captured
// run (sift run, the logs folder) comes before a session imported from an
// agent's own history, and a run whose cost is unknown before one whose
// cost is known: an unknown cost never sinks a run below a cheap one.
// Known costs then order by cost, largest first.
const (
	// TierRest is every session no tier below takes.
	TierRest = iota
	// TierFlagged is an undecided flagged session.
	TierFlagged
	// TierFailed is an undecided run that failed, died before its start
	// or was interrupted (a stale `sift run` included).
	TierFailed
	// TierWaiting is a run under way that waits: an approval, a stall.
	TierWaiting
)

// TriageFacts are what a session's triage rank is made of.
type TriageFacts struct {
	Live     LiveState
	LiveWait LiveWait
	// Undecided is a review state of "" (State).
	Undecided bool
	// Flagged is flagged as Query.Flagged means it.
	Flagged bool
	Outcome summary.Outcome
	// AgentKind tells a history session (IsHistoryKind).
	AgentKind string
	// CostKnown is set when the run's cost is known.
	CostKnown bool
}

// Tier is the tier of a session's triage rank.
func (f TriageFacts) Tier() int {
	switch {
	case f.Live == LiveRunning && f.LiveWait != "":
		return TierWaiting
	case !f.Undecided:
		return TierRest
	case f.Live != LiveRunning && (f.Live == LiveInterrupted || f.Outcome.IsFailure() || f.Outcome == summary.OutcomeInterrupted):
		return TierFailed
	case f.Flagged:
		return TierFlagged
	}
	return TierRest
}

// TriageRank is the triage rank the store keeps (store/triage.go, the
// same rule in SQL): the tier, then captured before history, then an
// unknown cost before a known one. Larger ranks come first.
func (f TriageFacts) TriageRank() int {
	r := f.Tier() * 4
	if !IsHistoryKind(f.AgentKind) {
		r += 2
	}
	if !f.CostKnown {
		r++
	}
	return r
}

// HistorySuffix ends the agent kind of every session imported from an
// agent CLI's own history (claude-history, codex-history, …): the store's
// SQL tells them by it.
const HistorySuffix = "-history"

// IsHistoryKind reports whether an agent kind is an agent CLI's own
// history rather than a captured run.
func IsHistoryKind(kind string) bool { return strings.HasSuffix(kind, HistorySuffix) }
