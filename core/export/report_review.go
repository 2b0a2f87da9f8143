package export

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// toReview picks the runs left to review: undecided (review state "")
// and failed, died before their start, interrupted or flagged (as the
// inbox's flagged filter has it). It orders them worst first (harsher)
// and makes one entry of the runs of one agent with the same outcome and
// the same flags, where the first (the worst) speaks for them all. It
// returns how many runs there are, the first capToReview entries and how
// many runs the others hold.
func toReview(ss []review.Session) (int, []ReviewEntry, int) {
	var left []*review.Session
	for i := range ss {
		s := &ss[i]
		if s.State == "" && (harmful(&s.Summary) || s.Flagged) {
			left = append(left, s)
		}
	}
	slices.SortStableFunc(left, harsher)
	var entries []ReviewEntry
	at := map[string]int{}
	words := map[string]string{} // an entry's first run's findings, as a key
	for _, s := range left {
		findings := tellOnce(FlagFindings(&s.Summary))
		o := Outcome(&s.Summary)
		key := entryKey(o, s.AgentKind, findings)
		i, ok := at[key]
		if !ok {
			i = len(entries)
			at[key] = i
			words[key] = findingsKey(findings)
			entries = append(entries, ReviewEntry{Outcome: o, Agent: s.AgentKind, Runs: []RunRef{}, Findings: findings})
		}
		e := &entries[i]
		if len(e.Runs) < capGroupRuns {
			e.Runs = append(e.Runs, runRef(s))
		} else {
			e.MoreRuns++
		}
		e.Varied = e.Varied || findingsKey(findings) != words[key]
		addFigures(&e.DurationMs, &e.CostUSD, &e.UnknownCost, &s.Summary)
	}
	shown, _ := capped(entries, capToReview)
	more := 0
	for _, e := range entries[len(shown):] {
		more += len(e.Runs) + e.MoreRuns
	}
	if shown == nil {
		shown = []ReviewEntry{}
	}
	return len(left), shown, more
}

// tellOnce folds the findings that say the same on the same stream line
// into the first of them (FlagFinding.Also): a harness error that failed
// the run is one line, not two. They say the same when the words after
// the sentences' first ": " (the flag's own prefix) are the same, or one
// starts with the other.
func tellOnce(fs []FlagFinding) []FlagFinding {
	out := fs[:0:0]
	for _, f := range fs {
		i := slices.IndexFunc(out, func(g FlagFinding) bool { return f.Line > 0 && g.Line == f.Line && sameSaying(f.Sentence, g.Sentence) })
		if i < 0 {
			out = append(out, f)
			continue
		}
		out[i].Also = append(out[i].Also, f.Flag)
		out[i].Evidence = append(out[i].Evidence, f.Evidence...)
	}
	return out
}

func sameSaying(a, b string) bool {
	_, a, _ = strings.Cut(a, ": ")
	_, b, _ = strings.Cut(b, ": ")
	a, b = strings.TrimSuffix(a, "…"), strings.TrimSuffix(b, "…")
	return a != "" && b != "" && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a))
}

// harmful reports whether a run failed, died before its start or was
// interrupted: the runs that come first whatever their flags.
func harmful(s *summary.Summary) bool {
	o := summary.Outcome(Outcome(s))
	return o.IsFailure() || o == summary.OutcomeInterrupted
}

// harsher orders runs left to review worst first: failed, died before
// their start and interrupted runs before flagged ones; within each, by
// harm (the outcome's urgency, then how many flags the run raised), then
// by cost, an unknown cost never below a known one; then the newest
// first, then by key.
func harsher(a, b *review.Session) int {
	return cmp.Or(
		cmpBool(harmful(&b.Summary), harmful(&a.Summary)),
		summary.Outcome(Outcome(&b.Summary)).Rank()-summary.Outcome(Outcome(&a.Summary)).Rank(),
		len(b.Flags)-len(a.Flags),
		cmpCost(a.EstimatedUSD, unknownCost(&a.Summary), b.EstimatedUSD, unknownCost(&b.Summary)),
		cmpOpt(b.StartedAt, a.StartedAt, time.Time.Compare),
		cmp.Compare(a.Key().Ref(), b.Key().Ref()),
	)
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// unknownCost is 1 for a run without a known cost, else 0.
func unknownCost(s *summary.Summary) int {
	if s.EstimatedUSD == nil {
		return 1
	}
	return 0
}

// entryKey is what makes runs one entry: the same outcome, agent and
// flags (those a finding names, in their order).
func entryKey(outcome, agent string, fs []FlagFinding) string {
	var b strings.Builder
	b.WriteString(outcome + "\x00" + agent)
	for _, f := range fs {
		b.WriteString("\x00" + flagNames(f))
	}
	return b.String()
}

// findingsKey is findings as a key: runs whose keys are equal say the
// same, sentence, line and evidence alike.
func findingsKey(fs []FlagFinding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\x00" + flagNames(f) + "\x00" + f.Sentence + "\x00" + strconv.Itoa(f.Line))
		for _, e := range f.Evidence {
			b.WriteString("\x01" + e)
		}
	}
	return b.String()
}

// anchor is a session's id in the HTML page: "run-" and 12 hex digits of
// the SHA-256 of its key, safe in an id and a fragment whatever the key
// holds.
func anchor(k review.SessionKey) string {
	sum := sha256.Sum256([]byte(k.Ref()))
	return "run-" + hex.EncodeToString(sum[:6])
}
