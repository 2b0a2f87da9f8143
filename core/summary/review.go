package summary

import (
	"cmp"
	"slices"
	"time"

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

// display is DisplayName without the lowercasing copy for names that are
// already lowercase.
func display(name string, kind event.ToolKind) string {
	if d, ok := displayNames[name]; ok {
		return d
	}
	return DisplayName(name, kind)
}

// reviewKey places one review event in the stream: its line, its rank
// within the line, and the index of its source (a prompt, a turn or a
// call, by rank) in derivation order.
type reviewKey struct {
	line int
	src  int32
	rank uint8
}

// ReviewEvents are a finished session's review events. They are derived
// one at a time, in stream order, from the builder's records rather than
// held: a session of 300,000 tool calls has over 600,000 of them. A
// ReviewEvents keeps its builder's records alive until it is dropped.
type ReviewEvents struct {
	b    *Builder
	s    *Summary
	p    projector
	keys []reviewKey
}

// Len returns how many events there are.
func (r *ReviewEvents) Len() int {
	if r == nil {
		return 0
	}
	return len(r.keys)
}

// Each calls fn with each event in stream order and stops at the first
// error fn returns. The event, and the time it points to, are reused from
// call to call: fn copies what it keeps.
func (r *ReviewEvents) Each(fn func(*ReviewEvent) error) error {
	var ev ReviewEvent
	var at time.Time
	for i := range r.Len() {
		r.event(i, &ev, &at)
		if err := fn(&ev); err != nil {
			return err
		}
	}
	return nil
}

// List returns the events, in stream order.
func (r *ReviewEvents) List() []ReviewEvent {
	if r == nil {
		return nil
	}
	evs := make([]ReviewEvent, len(r.keys))
	times := make([]time.Time, len(r.keys))
	for i := range r.keys {
		r.event(i, &evs[i], &times[i])
	}
	return evs
}

// reviewEvents orders the review events of the prompts, turns and tool
// calls: only their places are sorted, the events are made as they are
// read (ReviewEvents.event).
func (b *Builder) reviewEvents(s *Summary, p projector) *ReviewEvents {
	keys := listOf(&b.lists.keys, len(b.prompts)+len(b.turns)+2*len(b.calls))[:0]
	for i, pr := range b.prompts {
		keys = append(keys, reviewKey{line: pr.line, rank: rankPrompt, src: int32(i)})
	}
	for i, t := range b.turns {
		keys = append(keys, reviewKey{line: t.line, rank: rankResponse, src: int32(i)})
	}
	for i, c := range b.calls {
		keys = append(keys, reviewKey{line: c.line, rank: rankStarted, src: int32(i)})
		if c.ext != nil && c.ext.approvalLine > 0 {
			keys = append(keys, reviewKey{line: c.ext.approvalLine, rank: rankApproval, src: int32(i)})
		}
		if ended(c) {
			keys = append(keys, reviewKey{line: c.endLine, rank: rankEnded, src: int32(i)})
		}
	}
	slices.SortFunc(keys, func(a, b reviewKey) int {
		return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.rank, b.rank), cmp.Compare(a.src, b.src))
	})
	return &ReviewEvents{b: b, s: s, p: p, keys: keys}
}

// ended reports whether a call's end is a review event of its own: not
// when it is unfinished, or a failure its approval stop already tells.
func ended(c *callState) bool {
	kind := c.errKind()
	return !c.is(callOpen) && (kind != "" || c.is(callJudged) && c.is(callSuccess)) &&
		(kind == "" || !c.is(callApproval))
}

// event makes the i-th event into ev, its time into at.
func (r *ReviewEvents) event(i int, ev *ReviewEvent, at *time.Time) {
	b, k := r.b, r.keys[i]
	session := func(s string) string {
		if s == "" {
			s = b.sessionID
		}
		return b.shown(s)
	}
	when := func(a instant) *time.Time {
		t, ok := r.p.resolve(a)
		if !ok {
			return nil
		}
		*at = t.UTC()
		return at
	}
	switch k.rank {
	case rankPrompt:
		pr := &b.prompts[k.src]
		*ev = ReviewEvent{
			Type: ReviewPrompt, SessionID: session(pr.session), Actor: "user",
			Summary: redactText(pr.summary), Time: when(pr.at), Line: pr.line,
		}
	case rankResponse:
		t := b.turns[k.src]
		*ev = ReviewEvent{
			Type: ReviewResponse, SessionID: session(t.session), TurnID: t.id(), Actor: "agent",
			Summary: b.responseSummary(t), Time: when(t.start), Line: t.line, Model: b.shown(t.model),
		}
		// The turn's own counts, which the summary lists.
		ev.InputTokens, ev.OutputTokens = r.s.Turns[k.src].InputTokens, r.s.Turns[k.src].OutputTokens
	default:
		c := b.calls[k.src]
		*ev = ReviewEvent{
			SessionID: session(c.session), ToolCallID: c.id, ToolName: c.name,
			DisplayName: display(c.name, event.ToolKind(c.kind)),
		}
		if c.turn != nil {
			ev.TurnID = c.turn.id()
		}
		switch k.rank {
		case rankStarted:
			ev.Type, ev.Actor, ev.Summary, ev.Time, ev.Line = ReviewToolCallStarted, "agent", c.input, when(c.start), c.line
		case rankApproval:
			x := c.ext
			ev.Type, ev.Actor, ev.Summary, ev.Time, ev.Line = ReviewApprovalRequired, "tool", x.approvalMsg, when(x.approvalAt), x.approvalLine
			ev.ErrorKind = "approval_required"
		case rankEnded:
			ev.Type, ev.Actor, ev.Summary, ev.Time, ev.Line = ReviewToolCallCompleted, "tool", c.outcome, when(c.end), c.endLine
			ev.DurationMs = r.s.ToolCalls[k.src].DurationMs
			if kind := c.errKind(); kind != "" {
				ev.Type, ev.ErrorKind = ReviewToolCallFailed, kind
			}
		}
	}
}
