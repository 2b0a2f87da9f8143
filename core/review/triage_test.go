package review

import (
	"testing"

	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/summary"
)

// TestHistoryKindsEndInSuffix pins what the store's triage SQL tells a
// history session by: every agent CLI history's kind ends in
// HistorySuffix, and no captured agent's does.
func TestHistoryKindsEndInSuffix(t *testing.T) {
	t.Parallel()
	for _, h := range agents.Harnesses() {
		if IsHistoryKind(string(h.Kind)) {
			t.Errorf("agent %s reads as a history", h.Kind)
		}
		if h.History != nil && !IsHistoryKind(string(h.History.Parser.Kind())) {
			t.Errorf("history %s does not end in %q", h.History.Parser.Kind(), HistorySuffix)
		}
	}
}

// TestTriageRank pins the tiers and the order inside one.
func TestTriageRank(t *testing.T) {
	t.Parallel()
	failed := TriageFacts{Undecided: true, Flagged: true, Outcome: summary.OutcomeFailed, AgentKind: "codex", CostKnown: true}
	for _, tc := range []struct {
		name  string
		a, b  TriageFacts // a ranks above b
		tierA int
	}{
		{"waiting beats failed", TriageFacts{Live: LiveRunning, LiveWait: WaitApproval, AgentKind: "claude", CostKnown: true}, failed, TierWaiting},
		{"failed beats flagged", failed, TriageFacts{Undecided: true, Flagged: true, AgentKind: "claude"}, TierFailed},
		{"unknown cost beats known", TriageFacts{Undecided: true, Flagged: true, Outcome: summary.OutcomeFailed, AgentKind: "codex"}, failed, TierFailed},
		{"captured beats history", failed, TriageFacts{Undecided: true, Outcome: summary.OutcomeInterrupted, AgentKind: "codex-history"}, TierFailed},
		{"a stale run is interrupted", TriageFacts{Live: LiveInterrupted, Undecided: true, Outcome: summary.OutcomeUnknown, AgentKind: "claude", CostKnown: true},
			TriageFacts{Undecided: true, Flagged: true, AgentKind: "claude"}, TierFailed},
		{"a running failure is no failure yet", TriageFacts{Undecided: true, Flagged: true, AgentKind: "claude", CostKnown: true},
			TriageFacts{Live: LiveRunning, Undecided: true, Outcome: summary.OutcomeInterrupted, AgentKind: "claude", CostKnown: true}, TierFlagged},
		{"decided is the rest", TriageFacts{Undecided: true, Flagged: true, AgentKind: "claude", CostKnown: true},
			TriageFacts{Flagged: true, Outcome: summary.OutcomeFailed, AgentKind: "claude"}, TierFlagged},
	} {
		if tc.a.Tier() != tc.tierA || tc.a.TriageRank() <= tc.b.TriageRank() {
			t.Errorf("%s: tier %d rank %d vs rank %d", tc.name, tc.a.Tier(), tc.a.TriageRank(), tc.b.TriageRank())
		}
	}
}
