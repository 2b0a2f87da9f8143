package summary

import (
	"sort"
	"time"

	"github.com/agentsift/sift/core/event"
)

// instant is when an event happened: a time from the stream, or a position
// (line number, or byte offset + 1) to be projected onto the invocation
// window once the stream's length is known, or nothing.
type instant struct {
	t   time.Time
	pos int64
}

func (a instant) known() bool { return !a.t.IsZero() || a.pos > 0 }

// projector turns instants into times once the stream has ended.
type projector struct {
	start time.Time
	width time.Duration
	total int64
	// shift maps a stored position to its distance from the start: line
	// 1 and byte offset 0 (stored as 1) both sit at the window's start.
	shift int64
}

func (b *Builder) projector(lines int, bytes int64) projector {
	p := projector{shift: 1}
	if !b.project {
		return p
	}
	p.start, p.width = b.opt.Start, b.opt.End.Sub(b.opt.Start)
	// The harness's own duration is the session's (the total shown): the
	// events are spread over it rather than over a longer window (process
	// start-up, a wrapper's slack), so turns and stalls add up to it.
	if b.duration != nil {
		if d := time.Duration(*b.duration) * time.Millisecond; d > 0 && d < p.width {
			p.width = d
		}
	}
	p.total = int64(lines)
	if b.opt.Projection == ProjectByOffset {
		p.total = bytes
	}
	return p
}

// resolve returns the time of an instant, if it has one.
func (p projector) resolve(a instant) (time.Time, bool) {
	if !a.t.IsZero() {
		return a.t, true
	}
	if a.pos <= 0 || p.total <= 0 {
		return time.Time{}, false
	}
	frac := float64(min(a.pos-p.shift, p.total)) / float64(p.total)
	return p.start.Add(time.Duration(frac * float64(p.width))), true
}

func (p projector) ptr(a instant) *time.Time {
	t, ok := p.resolve(a)
	if !ok {
		return nil
	}
	t = t.UTC()
	return &t
}

// ms returns the milliseconds from a to b when both are known.
func (p projector) ms(a, b instant) (int64, bool) {
	ta, ok1 := p.resolve(a)
	tb, ok2 := p.resolve(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return tb.Sub(ta).Milliseconds(), true
}

// stallCand is a gap between consecutive timed events that may be a stall.
type stallCand struct {
	from, to instant
	kind     StallKind
	turn     *turnState
	line     int
	// fromLine and after are the line and kind of the event the wait
	// began after.
	fromLine int
	after    event.Kind
}

// gap checks the wait between the previous timed event and this one and
// returns a candidate stall: where is 0 for none, 1 for a gap on the
// stream's own clock (already over the threshold) or a mixed one, 2 for a
// gap between projected positions (judged once the window's scale is
// known).
func (b *Builder) gap(ev *event.Event, at instant) (c stallCand, where int) {
	if !at.known() || !b.prev.known() || b.afterResult {
		return c, 0
	}
	c = stallCand{from: b.prev, to: at, kind: b.stallKind(), turn: b.prevTurn, line: ev.Line,
		fromLine: b.prevLine, after: b.prevKind}
	switch {
	case !at.t.IsZero() && !b.prev.t.IsZero():
		if at.t.Sub(b.prev.t) > b.opt.StallThreshold {
			return c, 1
		}
	case at.pos > 0 && b.prev.pos > 0:
		if at.pos > b.prev.pos {
			return c, 2
		}
	default:
		return c, 1
	}
	return c, 0
}

// keepStall stores a candidate once the event after the gap is placed: a
// wait for the model belongs to the response that ends it.
func (b *Builder) keepStall(c stallCand, where int, k event.Kind, top bool) {
	if c.kind == StallLLM && top && b.cur != nil {
		switch k {
		case event.AgentMessageChunk, event.AgentThoughtChunk, event.ToolCall, event.Plan:
			c.turn = b.cur
		}
	}
	if where == 1 {
		b.stalls = append(b.stalls, c)
		return
	}
	b.projected = append(b.projected, c)
	b.prune()
}

// prune keeps the projected gaps that can still be stalls. Projected gaps
// add up to at most the window, so no more than window/threshold of them
// can exceed the threshold: the longest that many are kept.
func (b *Builder) prune() {
	keep := int(b.opt.End.Sub(b.opt.Start)/b.opt.StallThreshold) + 1
	if len(b.projected) <= 2*keep+64 {
		return
	}
	sort.SliceStable(b.projected, func(i, j int) bool {
		return b.projected[i].to.pos-b.projected[i].from.pos > b.projected[j].to.pos-b.projected[j].from.pos
	})
	b.projected = b.projected[:keep]
	sort.SliceStable(b.projected, func(i, j int) bool { return b.projected[i].line < b.projected[j].line })
}

// stallKind classifies a wait by what was outstanding before it.
func (b *Builder) stallKind() StallKind {
	switch {
	case b.open > 0:
		return StallTool
	case b.waitingLLM:
		return StallLLM
	}
	return StallUnknown
}

// interval is a span of wall-clock time in unix milliseconds.
type interval struct{ from, to int64 }

// unionMs returns the length of the union of intervals: overlapping
// parallel calls count once.
func unionMs(iv []interval) int64 {
	if len(iv) == 0 {
		return 0
	}
	sort.Slice(iv, func(i, j int) bool { return iv[i].from < iv[j].from })
	var total int64
	cur := iv[0]
	for _, x := range iv[1:] {
		if x.from > cur.to {
			total += cur.to - cur.from
			cur = x
			continue
		}
		cur.to = max(cur.to, x.to)
	}
	return total + cur.to - cur.from
}
