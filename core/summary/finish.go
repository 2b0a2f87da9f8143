package summary

import (
	"cmp"
	"slices"
	"sort"

	"github.com/agentsift/sift/core/event"
)

// Finish completes the summary once the stream has ended; st is what the
// parser reported about the stream as a whole, the harness included. The
// work item, file name, phase and iteration are left to the caller.
func (b *Builder) Finish(st event.Stats) (*Summary, []ReviewEvent) {
	s, rev := b.FinishEvents(st)
	return s, rev.List()
}

// FinishEvents is Finish with the review events made as they are read
// rather than collected (nil when Options.WantReviewEvents declined them):
// a caller that writes them out one at a time never holds them all.
func (b *Builder) FinishEvents(st event.Stats) (*Summary, *ReviewEvents) {
	p := b.projector(st.Lines, st.Bytes)
	b.nameTurns()
	s := &Summary{
		AgentKind: st.Agent,
		SessionID: b.shown(b.sessionID),
		Model:     b.initModel,
		StreamCwd: b.cwd,
		NumTurns:  b.numTurns,
		ExitCode:  b.opt.ExitCode,
		LineCount: st.Lines, ByteCount: st.Bytes,
		ErrorLineCount: b.errorLines, RawLineCount: b.rawLines,
		Truncated: st.TruncatedBytes != nil,
		Plaintext: !b.structured,
		Stalls:    listOf(&b.lists.stalls, 0), Flags: []Flag{},
	}
	if b.opt.Agent != "" {
		s.AgentKind = string(b.opt.Agent)
	}
	b.modelOf(s)
	b.times(s, p)
	session := b.toolCalls(s, p)
	b.tokens(s)
	b.cost(s, p)
	// Priced by its name, the model is then kept as shown.
	s.Model = b.shown(s.Model)
	session |= b.reconcile(s)
	session |= b.turnsAndStalls(s, p)
	b.outcome(s, session, st)
	b.placeNotes(s)
	b.text(s)
	s.FilesTouched, s.FilesTouchedCount = b.filesTouched()
	if b.opt.NoReviewEvents || b.opt.WantReviewEvents != nil && !b.opt.WantReviewEvents(s) {
		return s, nil
	}
	return s, b.reviewEvents(s, p)
}

// modelOf fills the model and its source: the stream's own (its init
// line, else the first event naming one), else the invocation's.
func (b *Builder) modelOf(s *Summary) {
	switch {
	case s.Model != "":
		s.ModelSource = ModelFromStream
	case b.model != "":
		s.Model, s.ModelSource = b.model, ModelFromStream
	case b.opt.Model != "":
		s.Model, s.ModelSource = b.opt.Model, cmp.Or(b.opt.ModelSource, ModelGiven)
	}
}

// times fills the window, total duration and time to first token.
func (b *Builder) times(s *Summary, p projector) {
	start, end := b.first, b.last
	if b.project {
		start, end = instant{t: b.opt.Start}, instant{t: b.opt.End}
	}
	s.StartedAt, s.EndedAt = p.ptr(start), p.ptr(end)
	switch {
	case b.duration != nil:
		s.TotalDurationMs = b.duration
	case b.project:
		s.TotalDurationMs = ms64(b.opt.End.Sub(b.opt.Start).Milliseconds())
	default:
		if d, ok := p.ms(start, end); ok && start != end {
			s.TotalDurationMs = ms64(max(d, 0))
		}
	}
	switch {
	case b.ttft != nil:
		s.TimeToFirstTokenMs = b.ttft
	case b.firstWork.known():
		if d, ok := p.ms(start, b.firstWork); ok {
			s.TimeToFirstTokenMs = ms64(max(d, 0))
		}
	}
}

// toolCalls lists the calls with their times resolved, fills executing
// and thinking time and returns the flags of calls that belong to no turn.
// The list is allocated once, at its length, and the values its calls
// point to (times, durations, sizes, verdicts) in one block per kind, not
// one allocation per call.
func (b *Builder) toolCalls(s *Summary, p projector) flagSet {
	var (
		session  flagSet
		iv       []interval
		explicit int64
		timed    bool
		closed   int
	)
	n := len(b.calls)
	s.ToolCalls = listOf(&b.lists.calls, n)
	slab := &b.lists.slab
	for i, c := range b.calls {
		tc := &s.ToolCalls[i]
		*tc = ToolCall{
			ID: c.id, Name: c.name, Kind: c.kind, Title: c.title, InputSummary: c.input,
			ApprovalRequired: c.is(callApproval), Error: c.err, Line: c.line, EndLine: c.endLine,
			ParentToolCallID: c.parent,
		}
		if c.is(callHasOutput) {
			tc.OutputBytes = slab.int64(c.outBytes)
		}
		if c.ext != nil {
			tc.Why = c.ext.why
		}
		if c.is(callHasExit) {
			tc.ExitCode = slab.int(c.exit)
		}
		if c.is(callJudged) {
			tc.Success = slab.bool(c.is(callSuccess))
		}
		var x callExtra
		if c.ext != nil {
			x = *c.ext
		}
		start, okS := x.hStart, !x.hStart.IsZero()
		if !okS {
			start, okS = p.resolve(c.startAt())
		}
		if okS {
			tc.StartedAt = slab.time(start.UTC())
		}
		if c.turn != nil {
			tc.TurnID = c.turn.id()
		}
		if c.is(callOpen) {
			tc.Success = nil
			f := flagSet(0)
			f.add(FlagUnfinishedTool)
			b.callNote(c, FlagUnfinishedTool)
			if tc.ApprovalRequired {
				f.add(FlagApproval)
				b.callNote(c, FlagApproval)
			}
			if c.turn != nil {
				c.turn.flags |= f
			} else {
				session |= f
			}
			continue
		}
		closed++
		end, okE := x.hEnd, !x.hEnd.IsZero()
		if !okE {
			end, okE = p.resolve(c.end)
		}
		if okE {
			tc.EndedAt = slab.time(end.UTC())
		}
		switch {
		case okS && okE:
			timed = true
			iv = append(iv, interval{start.UnixMilli(), max(end.UnixMilli(), start.UnixMilli())})
			d := max(end.Sub(start).Milliseconds(), 0)
			if x.explicit != nil {
				d = *x.explicit
			}
			tc.DurationMs = slab.int64(d)
		case x.explicit != nil:
			timed = true
			explicit = event.AddCount(explicit, *x.explicit)
			tc.DurationMs = slab.int64(*x.explicit)
		}
		// Judged on the call's final state: a failure that the result
		// line later lists as a permission denial is an approval stop.
		var f flagSet
		switch {
		case tc.ApprovalRequired:
			f.add(FlagApproval)
			b.callNote(c, FlagApproval)
		case tc.Success != nil && !*tc.Success:
			f.add(FlagToolFailed)
			b.callNote(c, FlagToolFailed)
		}
		if c.turn != nil {
			c.turn.flags |= f
		} else {
			session |= f
		}
	}
	if timed || closed == 0 {
		s.ExecutingMs = ms64(unionMs(iv) + explicit)
	}
	if s.TotalDurationMs != nil && s.ExecutingMs != nil {
		s.ThinkingMs = ms64(max(*s.TotalDurationMs-*s.ExecutingMs, 0))
	}
	s.ToolCallCount = len(s.ToolCalls)
	return session
}

// tokens fills the session's token counts: the harness's run total when it
// printed one, else the calls' last snapshots added across messages; none
// when a drop of the running total leaves them unknown (reconcile.go).
func (b *Builder) tokens(s *Summary) {
	if b.totalUnknown {
		return
	}
	var t tokens
	switch {
	case b.run != nil:
		t = *b.run
	default:
		any := b.orphan.any
		t = b.orphan.total()
		for _, tu := range b.turns {
			if tu.usage.any {
				any = true
				t.add(tu.usage.total())
			}
		}
		if !any {
			return
		}
	}
	s.InputTokens, s.OutputTokens = t.get(hasIn), t.get(hasOut)
	s.CachedInputTokens, s.CacheWriteTokens = t.get(hasCached), t.get(hasWrite)
}

func ms64(v int64) *int64 { return &v }

// turnsAndStalls fills the turns, judges the stall candidates and token
// spikes, and returns the flags of stalls outside any turn.
func (b *Builder) turnsAndStalls(s *Summary, p projector) flagSet {
	var session flagSet
	threshold := b.opt.StallThreshold.Milliseconds()
	cands := append(b.stalls, b.projected...)
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].line < cands[j].line })
	toolThreshold := b.opt.ToolStallThreshold.Milliseconds()
	for _, c := range cands {
		gap, ok := p.ms(c.from, c.to)
		from, ok2 := p.resolve(c.from)
		if !ok || !ok2 || gap <= threshold {
			continue
		}
		st := Stall{StartedAt: from.UTC(), GapMs: gap, Kind: c.kind, Line: c.line, FromLine: c.fromLine, Flagged: true}
		var call *callState
		if c.kind == StallTool {
			// A wait on a tool is tool time: it flags only past the
			// tool threshold, or when the tool then failed.
			call = b.waitedOn(c)
			if call != nil {
				st.ToolCallID = call.id
			}
			failed := call != nil && call.is(callJudged) && !call.is(callSuccess)
			st.Flagged = gap > toolThreshold || failed
		}
		if c.turn != nil {
			st.TurnID = c.turn.id()
		}
		if st.Flagged {
			if c.turn != nil {
				c.turn.flags.add(FlagStall)
			} else {
				session.add(FlagStall)
			}
			b.stallNote(&st, c, call)
		}
		s.Stalls = append(s.Stalls, st)
	}
	if cap(s.Stalls) <= maxKeptList {
		b.lists.stalls = s.Stalls
	}
	s.StallCount = 0
	for i := range s.Stalls {
		if s.Stalls[i].Flagged {
			s.StallCount++
		}
	}

	var sizes []int64
	for _, t := range b.turns {
		if n, ok := t.size(); ok {
			sizes = append(sizes, n)
		}
	}
	med := median(sizes)
	// The list at its length; the turns' call ids share one array, and
	// their times and durations come from a slab.
	s.Turns = listOf(&b.lists.turns, len(b.turns))[:0]
	ids := listOf(&b.lists.ids, len(b.calls))[:0]
	slab := &b.lists.slab
	for _, t := range b.turns {
		var spike int64
		if n, ok := t.size(); ok && len(sizes) > 1 &&
			float64(n) >= b.opt.SpikeFactor*float64(med) && n >= b.opt.SpikeMinTokens {
			t.flags.add(FlagTokenSpike)
			spike = n
		}
		b.turnNotes(t, spike, med)
		tt := Turn{
			TurnID: t.id(), MessageID: t.msgID, Model: b.shown(t.model),
			Flags: t.flags.list(), Line: t.line, EndLine: t.endLine,
			Text: b.clipLine(t.said(), maxLine),
		}
		if at, ok := p.resolve(t.start); ok {
			tt.StartedAt = slab.time(at.UTC())
		}
		if d, ok := p.ms(t.start, t.end); ok {
			tt.DurationMs = slab.int64(max(d, 0))
		}
		if t.usage.any {
			u := t.usage.total()
			if u.has&hasIn != 0 {
				tt.InputTokens = slab.int64(u.in)
			}
			if u.has&hasOut != 0 {
				tt.OutputTokens = slab.int64(u.out)
			}
			tt.CostSource = t.costSrc
			if t.costSrc != CostUnknown {
				tt.EstimatedUSD = slab.float64(t.usd)
			}
		}
		from := len(ids)
		for _, c := range t.calls {
			ids = append(ids, c.id)
		}
		tt.ToolCallIDs = ids[from:len(ids):len(ids)]
		s.Turns = append(s.Turns, tt)
	}
	return session
}

// waitedOn returns the call a tool_execution wait was on: the last call
// that started at or before the wait and was still open when it ended.
func (b *Builder) waitedOn(c stallCand) *callState {
	i := sort.Search(len(b.calls), func(i int) bool { return b.calls[i].line > c.fromLine })
	for j := i - 1; j >= 0 && j >= i-64; j-- {
		if k := b.calls[j]; k.is(callOpen) || k.endLine >= c.line {
			return k
		}
	}
	return nil
}

// size is a turn's tokens, prompt plus completion, when it reported any.
func (t *turnState) size() (int64, bool) {
	if !t.usage.any {
		return 0, false
	}
	u := t.usage.total()
	if u.has&(hasIn|hasOut) == 0 {
		return 0, false
	}
	return u.in + u.out, true
}

func median(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// outcome fills the outcome, the flags, their notes and the counts.
func (b *Builder) outcome(s *Summary, session flagSet, st event.Stats) {
	b.decideOutcome(s, st.EndsWithResult)
	if b.errOrphan {
		session.add(FlagHarnessError)
	}
	if s.Outcome.IsFailure() || b.end.signaled {
		session.add(FlagRunFailed)
	}
	if s.Truncated {
		session.add(FlagTruncated)
	}
	b.sessionNotes(s, session, st.TruncatedBytes)
	for _, t := range b.turns {
		session |= t.flags
	}
	s.Flags = session.list()
	// The accounting flags say how the counts were read, not that the
	// run needs a reviewer: they alone do not flag it for the inbox.
	accounting := flagSet(0)
	accounting.add(FlagUsageMismatch)
	accounting.add(FlagTokenCounterReset)
	s.Flagged = session&^accounting != 0
	s.ErrorCount = b.errors
	for _, c := range s.ToolCalls {
		if c.ApprovalRequired {
			s.ApprovalCount++
		} else if c.Success != nil && !*c.Success {
			s.ErrorCount++
		}
	}
}

// text fills the final assistant message and the tail.
func (b *Builder) text(s *Summary) {
	msg := string(b.result)
	if msg == "" {
		msg = string(b.final)
	}
	if b.stderr.seen {
		if msg != "" {
			msg += "\n\n"
		}
		msg += "[stderr-tail]\n" + b.stderr.text()
	}
	if msg != "" {
		m := redactText(msg)
		s.FinalAssistantMessage = &m
	}
	s.Tail = []string{}
	for _, l := range b.tail.list() {
		s.Tail = append(s.Tail, redactText(l))
	}
}

// responseSummary is the one-line summary of a model response.
func (b *Builder) responseSummary(t *turnState) string {
	if s := b.clipLine(t.said(), maxLine); s != "" {
		return s
	}
	switch n := len(t.calls); n {
	case 0:
		return "(no text)"
	case 1:
		return DisplayName(t.calls[0].name, event.ToolKind(t.calls[0].kind))
	default:
		return "Called " + itoa(int64(n)) + " tools"
	}
}
