package summary

import (
	"github.com/agentsift/sift/core/agents"
	"github.com/agentsift/sift/core/event"
)

// Reconciliation states how a summary's token counts hold together: the
// total the harness printed itself (a result line's usage, codex's
// turn.completed, gemini's stats) against the sum of the calls the stream
// reported one by one. Either side is nil when the stream has none; a
// difference beyond rounding raises FlagUsageMismatch.
type Reconciliation struct {
	// HarnessTotal is the harness's own total.
	HarnessTotal *TokenFigures `json:"harnessTotal"`
	// CallsTotal is the sum over the calls: each message's last report,
	// added across messages.
	CallsTotal *TokenFigures `json:"callsTotal"`
	// Source names what HarnessTotal was read from.
	Source string `json:"source,omitempty"`
	// Note says which side the summary's counts come from, or why there
	// is nothing to compare.
	Note string `json:"note,omitempty"`
}

// TokenFigures are the two sides of a usage: the prompt, with its cached
// shares, and the output.
type TokenFigures struct {
	Input  int64 `json:"input"`
	Output int64 `json:"output"`
}

// FlagUsageMismatch marks a session whose harness total and sum of calls
// differ beyond rounding; FlagTokenCounterReset one whose running token
// total went down: a Codex counter that restarted with a call (counted
// from the restart on, not summed as a negative change), or a drop that
// nothing explains, which leaves the session's tokens unknown.
const (
	FlagUsageMismatch     Flag = "usage_mismatch"
	FlagTokenCounterReset Flag = "token_counter_reset"
)

// mismatch reports whether two counts differ beyond rounding: by more
// than a token and more than 0.1 % of the larger.
func mismatch(a, b int64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d > 1 && d*1000 > max(a, b)
}

// disagree reports whether the calls' sum and the harness total differ
// beyond rounding. The prompts must agree. The outputs may only fall
// short: Claude's stream-json reports a message's usage as the message
// began, with the output counted so far (often 1), and only the result
// line has the final count; calls that add up to more output than the
// harness's total are a mismatch.
func disagree(h, c TokenFigures) bool {
	return mismatch(h.Input, c.Input) || (c.Output > h.Output && mismatch(h.Output, c.Output))
}

// Accounting reports whether a flag says how the counts were read, not
// that the run needs a reviewer (usage_mismatch, token_counter_reset):
// such a flag never makes a session flagged, anywhere.
func (f Flag) Accounting() bool { return f == FlagUsageMismatch || f == FlagTokenCounterReset }

// subagentsExplain reports whether the calls' sum and the harness's total
// differ by the usage reported inside subagents, and by nothing else.
func (b *Builder) subagentsExplain(r *Reconciliation) bool {
	if !b.sub.any {
		return false
	}
	sub := b.sub.total()
	main := TokenFigures{Input: max(r.CallsTotal.Input-sub.in, 0), Output: max(r.CallsTotal.Output-sub.out, 0)}
	return !disagree(*r.HarnessTotal, main)
}

// reconcile fills the summary's reconciliation and returns the session
// flags it raises.
func (b *Builder) reconcile(s *Summary) flagSet {
	var flags flagSet
	switch {
	case b.totalUnknown:
		// claude-code-log's rule: a running total that decreased with
		// nothing to say why gives no total, rather than a wrong one.
		flags.add(FlagTokenCounterReset)
		b.addNote(nil, FlagTokenCounterReset, Evidence{Sentence: tokensUnknown, Line: b.unknownLine})
		s.Reconciliation = &Reconciliation{Note: tokensUnknown}
		return flags
	case b.counterReset:
		flags.add(FlagTokenCounterReset)
		b.addNote(nil, FlagTokenCounterReset, Evidence{Sentence: "the harness's running token total went down: counted from the restart on",
			Line: b.resetLine})
	}
	r := &Reconciliation{}
	calls, any := b.orphan.total(), b.orphan.any
	for _, tu := range b.turns {
		if tu.usage.any {
			any = true
			calls.add(tu.usage.total())
		}
	}
	if any {
		r.CallsTotal = &TokenFigures{calls.in, calls.out}
	}
	if b.run != nil {
		r.HarnessTotal = &TokenFigures{b.run.in, b.run.out}
		if h, ok := agents.LookupHarness(agents.Kind(s.AgentKind)); ok {
			r.Source = h.RunTotal
		}
		if r.Source == "" {
			r.Source = "run total"
		}
	}
	switch {
	case r.HarnessTotal == nil && r.CallsTotal == nil:
		return flags
	case r.HarnessTotal == nil:
		r.Note = "the harness printed no total: the counts are the calls' sum"
	case r.CallsTotal == nil:
		r.Note = "the harness printed no per-call usage: the counts are its total"
	case disagree(*r.HarnessTotal, *r.CallsTotal) && b.subagentsExplain(r):
		// A normal difference: Claude's result line counts the main
		// thread, not the subagents it started.
		sub := b.sub.total()
		r.Note = "the calls add up to more than the " + r.Source + " by their subagents' usage (in " + fmtCount(sub.in) +
			" · out " + fmtCount(sub.out) + "), which it leaves out: the counts are the harness's"
	case disagree(*r.HarnessTotal, *r.CallsTotal):
		r.Note = "the harness total and the calls' sum differ: the counts are the harness's"
		flags.add(FlagUsageMismatch)
		h, c := r.HarnessTotal, r.CallsTotal
		b.addNote(nil, FlagUsageMismatch, Evidence{Sentence: b.sentence("tokens do not add up: the ", r.Source, " says in ",
			fmtCount(h.Input), " · out ", fmtCount(h.Output), ", the calls add up to in ", fmtCount(c.Input), " · out ",
			fmtCount(c.Output)), Line: b.runLine})
	default:
		r.Note = "the harness total and the calls' sum agree: the counts are the harness's"
	}
	s.Reconciliation = r
	return flags
}

// tokensUnknown says why a session's tokens are unknown.
const tokensUnknown = "the harness's running token total went down and no call's own usage explains it: the session's tokens are unknown"

// noteUsage records what a usage report says of the accounting itself.
func (b *Builder) noteUsage(ev *event.Event) {
	if unknown, _ := ev.Extra["tokenTotalUnknown"].(bool); unknown && !b.totalUnknown {
		b.totalUnknown, b.unknownLine = true, ev.Line
	}
	if reset, _ := ev.Extra["tokenCounterReset"].(bool); reset && !b.counterReset {
		b.counterReset, b.resetLine = true, ev.Line
	}
}
