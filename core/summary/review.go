package summary

import (
	"sort"

	"github.com/agentsift/sift/core/event"
)

// prompt is a user prompt kept for its review event.
type prompt struct {
	line    int
	at      instant
	session string
	summary string
}

// Review events within one line come in this order: the prompt, the
// model's response, the calls it starts, approval stops, then results.
const (
	rankPrompt = iota
	rankResponse
	rankStarted
	rankApproval
	rankEnded
)

// ranked is a review event with its place in the stream.
type ranked struct {
	ev   ReviewEvent
	rank int
}

// display is DisplayName without the lowercasing copy for names that are
// already lowercase.
func display(name string, kind event.ToolKind) string {
	if d, ok := displayNames[name]; ok {
		return d
	}
	return DisplayName(name, kind)
}

// reviewKey orders review events: by line, then rank, then the order they
// were derived in.
type reviewKey struct{ line, rank, idx int }

// reviewEvents derives the review events from the prompts, turns and tool
// calls, in stream order. They are built here, once, rather than kept per
// event while reading, so that the builder holds one record per call.
func (b *Builder) reviewEvents(p projector) []ReviewEvent {
	out := make([]ranked, 0, len(b.prompts)+len(b.turns)+2*len(b.calls))
	session := func(s string) string {
		if s == "" {
			return b.sessionID
		}
		return s
	}
	for _, pr := range b.prompts {
		out = append(out, ranked{rank: rankPrompt, ev: ReviewEvent{
			Type: ReviewPrompt, SessionID: session(pr.session), Actor: "user",
			Summary: redactText(pr.summary), Time: p.ptr(pr.at), Line: pr.line,
		}})
	}
	for _, t := range b.turns {
		ev := ReviewEvent{
			Type: ReviewResponse, SessionID: session(t.session), TurnID: t.id(), Actor: "agent",
			Summary: responseSummary(t), Time: p.ptr(t.start), Line: t.line, Model: t.model,
		}
		if t.usage.any {
			u := t.usage.total()
			ev.InputTokens, ev.OutputTokens = u.in, u.out
		}
		out = append(out, ranked{ev: ev, rank: rankResponse})
	}
	for _, c := range b.calls {
		base := ReviewEvent{
			SessionID: session(c.session), ToolCallID: c.tc.ID, ToolName: c.tc.Name,
			DisplayName: display(c.tc.Name, event.ToolKind(c.tc.Kind)),
		}
		if c.turn != nil {
			base.TurnID = c.turn.id()
		}
		ev := base
		ev.Type, ev.Actor, ev.Summary, ev.Time, ev.Line = ReviewToolCallStarted, "agent", c.tc.InputSummary, p.ptr(c.seen), c.tc.Line
		out = append(out, ranked{ev: ev, rank: rankStarted})
		if c.approvalLine > 0 {
			ev = base
			ev.Type, ev.Actor, ev.Summary, ev.Time, ev.Line = ReviewApprovalRequired, "tool", c.approvalMsg, p.ptr(c.approvalAt), c.approvalLine
			ev.ErrorKind = "approval_required"
			out = append(out, ranked{ev: ev, rank: rankApproval})
		}
		if c.open || (c.errKind == "" && (c.tc.Success == nil || !*c.tc.Success)) ||
			(c.errKind != "" && c.tc.ApprovalRequired) {
			// Unfinished, or a failure the approval stop already tells.
			continue
		}
		ev = base
		ev.Type, ev.Actor, ev.Summary, ev.Time, ev.Line = ReviewToolCallCompleted, "tool", c.outcome, p.ptr(c.end), c.tc.EndLine
		ev.DurationMs = c.tc.DurationMs
		if c.errKind != "" {
			ev.Type, ev.ErrorKind = ReviewToolCallFailed, c.errKind
		}
		out = append(out, ranked{ev: ev, rank: rankEnded})
	}
	// Sort small keys, not the events themselves.
	keys := make([]reviewKey, len(out))
	for i, r := range out {
		keys[i] = reviewKey{line: r.ev.Line, rank: r.rank, idx: i}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.line != b.line {
			return a.line < b.line
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.idx < b.idx
	})
	evs := make([]ReviewEvent, len(out))
	for i, k := range keys {
		evs[i] = out[k.idx].ev
	}
	return evs
}
