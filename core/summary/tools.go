package summary

import (
	"strings"
	"time"

	"github.com/agentsift/sift/core/event"
)

// A session may list hundreds of thousands of tool calls, and everything a
// call keeps comes from the stream: so each text field is cut to a cap (on
// a rune boundary, after redaction), an output is counted and never kept,
// repeated strings (names, kinds) are kept once, and what only an open
// call needs is dropped when it ends. A cut field ends with "…" past its
// cap; a one-line field whose text went on ends with " …": so a field is
// at most its cap plus len(" …") bytes.
const (
	// MaxInputSummary caps the one-line summary of a call's input.
	MaxInputSummary = maxLine
	// MaxTitle caps a call's title; the parsers' are shorter, but some
	// harnesses print their own.
	MaxTitle = 2 * maxLine
	// MaxErrorText caps a failed call's error text.
	MaxErrorText = 2 << 10
	// MaxToolName caps a tool's name and kind.
	MaxToolName = 128
	// MaxCallID caps a call id (and the session id a call records): a
	// longer one keeps its start, "…" and a hash of the whole, so that
	// distinct ids stay distinct. Real ids are under 64 bytes.
	MaxCallID = 256
)

const (
	// maxOutcome caps the one line that says how a call ended, which a
	// review event shows.
	maxOutcome = maxLine
	// maxInterned bounds the strings kept once per builder: a stream that
	// names more distinct tools than that gets copies, not a bigger table.
	maxInterned = 1024
	// callChunk is how many call records one allocation holds at most.
	// The first chunks are smaller (firstCallChunk, doubling): most
	// streams make a few dozen calls, and a chunk of 512 records is
	// 128 KiB.
	callChunk      = 512
	firstCallChunk = 8
)

// callState is a tool call while the stream is read: the fields of the
// ToolCall the summary will list, in values rather than the pointers the
// ToolCall's JSON needs (Finish makes those, all calls' at once), and what
// the call's review events need. A call's record is about 250 bytes plus
// its id, title and outcome text.
type callState struct {
	id, name, kind, title, input, parent string
	// session is the harness session the call ran in; outcome the one
	// line its completion review event shows.
	session, outcome string
	err              *string
	turn             *turnState
	// start is when the call was first seen; its flag callNoStart says
	// that was a result, so the start is unknown.
	start, end    instant
	line, endLine int
	outBytes      int64
	exit          int
	ext           *callExtra
	flags         callFlags
}

// callExtra is what few calls have: the harness's own timing and an
// approval stop.
type callExtra struct {
	// hStart and hEnd are the harness's own timings inside the call;
	// explicit its reported duration.
	hStart, hEnd time.Time
	explicit     *int64
	approvalAt   instant
	approvalLine int
	approvalMsg  string
	// why is the line of a failed call's output or error that explains
	// the failure (explainLine), redacted and clipped.
	why string
}

// callFlags are a call's yes/no state.
type callFlags uint16

const (
	callOpen callFlags = 1 << iota
	callNoStart
	// callJudged says success holds a verdict; callSuccess is it.
	callJudged
	callSuccess
	callHasOutput
	callHasExit
	callApproval
	// callToolError and callExitError name a failure's kind.
	callToolError
	callExitError
)

func (c *callState) is(f callFlags) bool { return c.flags&f != 0 }

func (c *callState) set(f callFlags, on bool) {
	if on {
		c.flags |= f
	} else {
		c.flags &^= f
	}
}

// startAt is when the call started, if known.
func (c *callState) startAt() instant {
	if c.is(callNoStart) {
		return instant{}
	}
	return c.start
}

// errKind is the kind of a failure's review event: tool_error, exit_code,
// or empty for a success or an approval stop.
func (c *callState) errKind() string {
	switch {
	case c.is(callExitError):
		return "exit_code"
	case c.is(callToolError):
		return "tool_error"
	}
	return ""
}

// extra returns the call's rare fields, allocating them on first use.
func (c *callState) extra() *callExtra {
	if c.ext == nil {
		c.ext = &callExtra{}
	}
	return c.ext
}

// toolCall starts a tool call, or completes the description of one that is
// still open under the same id (harnesses reuse ids across invocations, so a
// closed call's id starts a new call).
func (b *Builder) toolCall(ev *event.Event, at instant, t *turnState) {
	u := &ev.Update
	c := b.callByID[idKey(u.ToolCallID)]
	if c == nil || !c.is(callOpen) || u.ToolCallID == "" {
		c = b.newCall(ev, at, t)
	} else {
		b.describe(c, u)
	}
	b.apply(c, ev, at)
}

// newCall registers a tool call. Records come from chunks, each twice the
// size of the one before up to callChunk calls, so that a short stream
// does not take a large one; none of them moves.
func (b *Builder) newCall(ev *event.Event, at instant, t *turnState) *callState {
	u := &ev.Update
	c := b.callRecs.add(callState{turn: t, start: at, flags: callOpen, line: ev.Line,
		session: b.keepSession(ev.SessionID), id: b.keptID(u.ToolCallID)})
	if p := ev.ParentToolCallID; p != "" {
		// The parent's id is mostly a call of this stream: share its copy.
		if pc := b.callByID[idKey(p)]; pc != nil {
			c.parent = pc.id
		} else {
			c.parent = b.keptID(p)
		}
	}
	b.describe(c, u)
	if t != nil {
		t.calls = append(t.calls, c)
	}
	b.calls = append(b.calls, c)
	if u.ToolCallID != "" {
		b.callByID[c.id] = c
	}
	b.open++
	return c
}

// describe fills a call's name, kind, title and input summary from an
// update, where the update names them.
func (b *Builder) describe(c *callState, u *event.Update) {
	if u.ToolName != "" && u.ToolName != c.name {
		c.name = b.intern(u.ToolName)
	}
	if u.ToolKind != "" && string(u.ToolKind) != c.kind {
		c.kind = b.intern(string(u.ToolKind))
	}
	if u.Title != "" {
		c.title = b.clipText(u.Title, MaxTitle)
		if strings.HasSuffix(c.title, c.input) {
			// The input summary was the title's end (a title names what
			// the call works on): keep it pointing there.
			c.input = c.title[len(c.title)-len(c.input):]
		}
	}
	if len(u.RawInput) > 0 || c.input == "" {
		if s := b.texts.keep(inputClipped(u)); s != "" {
			c.input = s
			if strings.HasSuffix(c.title, s) {
				c.input = c.title[len(c.title)-len(s):]
			}
		}
	}
	b.noteTouched(c, u)
}

// intern returns a kept copy of a short string a summary repeats (a tool's
// name or kind), as the summary shows it: redacted,
// then cut at MaxToolName bytes. It is the same copy for each call, as
// long as the table has room; a string over MaxToolName bytes is not kept
// in the table. The stream names these, and a name can be a secret as
// well as any text.
func (b *Builder) intern(s string) string {
	if v, ok := b.interned[s]; ok {
		return v
	}
	if len(s) > MaxToolName {
		return clipText(s, MaxToolName)
	}
	k := strings.Clone(s)
	v := redactText(k)
	if len(v) > MaxToolName {
		v = cut(v, MaxToolName) + "…"
	}
	if len(b.interned) < maxInterned {
		if b.interned == nil {
			b.interned = map[string]string{}
		}
		b.interned[k] = v
	}
	return v
}

// shown returns an identifier the stream names (a session id, a model) as
// the summary shows it: redacted, as its text is. Its table lasts one
// stream: a builder reused for many streams meets a new session id in
// each.
func (b *Builder) shown(s string) string {
	if s == "" {
		return s
	}
	if v, ok := b.shownIDs[s]; ok {
		return v
	}
	v := redactText(s)
	if len(b.shownIDs) < maxInterned {
		if b.shownIDs == nil {
			b.shownIDs = map[string]string{}
		}
		b.shownIDs[s] = v
	}
	return v
}

// toolUpdate applies a tool call update; an update for an unknown id
// starts the call there (its start is then unknown).
func (b *Builder) toolUpdate(ev *event.Event, at instant) {
	u := &ev.Update
	c := b.callByID[idKey(u.ToolCallID)]
	if c == nil || u.ToolCallID == "" {
		t := b.turnOf(ev)
		c = b.newCall(ev, at, t)
		c.set(callNoStart, true)
	} else {
		b.describe(c, u)
	}
	b.apply(c, ev, at)
}

// apply folds the state an update carries into its call.
func (b *Builder) apply(c *callState, ev *event.Event, at instant) {
	u := &ev.Update
	open := c.is(callOpen)
	if c.turn != nil && open {
		// A late verdict on a finished call (a denial listed on the
		// result line) does not stretch its turn.
		b.touch(c.turn, ev, at)
	}
	if u.ExitCode != nil {
		c.exit = *u.ExitCode
		c.set(callHasExit, true)
	}
	if !u.StartedAt.IsZero() {
		c.extra().hStart = u.StartedAt
	}
	if !u.EndedAt.IsZero() {
		c.extra().hEnd = u.EndedAt
	}
	if u.Content != nil {
		// Output is counted, never kept.
		n := int64(len(u.Content.Text) + len(u.Content.Data))
		if !c.is(callHasOutput) || u.Status.IsTerminal() {
			c.outBytes = n
		} else {
			c.outBytes = max(c.outBytes, n)
		}
		c.set(callHasOutput, true)
	}
	if u.ApprovalRequired && !c.is(callApproval) {
		c.set(callApproval, true)
		c.set(callJudged, true)
		c.set(callSuccess, false)
		msg := u.Message
		if msg == "" {
			msg = "approval required"
		}
		x := c.extra()
		x.approvalAt, x.approvalLine, x.approvalMsg = at, ev.Line, b.clipLine(msg, maxOutcome)
	}
	if !u.Status.IsTerminal() {
		return
	}
	if u.DurationMs != nil && (c.ext == nil || c.ext.explicit == nil) {
		d := max(*u.DurationMs, 0)
		c.extra().explicit = &d
	}
	if !open {
		// A second verdict (a permission denial reported at the end)
		// only adds what the first lacked.
		return
	}
	c.set(callOpen, false)
	b.open--
	c.end = at
	c.endLine = ev.Line
	// A call that was asked about and then ran was approved; one that
	// failed after an approval stop was denied.
	ok := u.Status == event.StatusCompleted
	c.set(callJudged, true)
	c.set(callSuccess, ok)
	b.waitingLLM = true
	if c.turn != nil && c.parent == "" && c.turn == b.cur {
		b.closeTurn()
	}
	if ok {
		if !b.opt.NoReviewEvents {
			c.outcome = b.outcomeSummary(c, u)
		}
		return
	}
	msg := u.Message
	if msg == "" {
		msg = contentText(u.Content)
	}
	if why := explainLine(contentText(u.Content), u.Message); why != "" && !c.is(callApproval) {
		c.extra().why = b.clipLine(why, maxLine)
	}
	if msg != "" {
		e := b.clipText(strings.TrimSpace(msg), MaxErrorText)
		c.err = &e
	}
	if c.is(callApproval) {
		return
	}
	if !b.opt.NoReviewEvents {
		c.outcome = b.outcomeSummary(c, u)
	}
	c.set(callToolError, true)
	if c.is(callHasExit) && c.exit != 0 {
		c.set(callExitError, true)
	}
}

// outcomeSummary is the one-line summary of a finished call: "exit 1: …",
// the first line of its error or output, "completed" or "failed".
func (b *Builder) outcomeSummary(c *callState, u *event.Update) string {
	var prefix, line string
	if c.is(callHasExit) {
		prefix = "exit " + itoa(int64(c.exit))
	}
	if c.err != nil {
		line = b.clipLine(*c.err, maxOutcome)
	} else {
		line = b.clipLine(contentText(u.Content), maxOutcome)
	}
	switch {
	case prefix != "" && line != "":
		return prefix + ": " + line
	case prefix != "":
		return b.intern(prefix)
	case line != "":
		return line
	case c.is(callSuccess):
		return "completed"
	}
	return "failed"
}

// callSlab hands out the values a summary's tool calls and turns point to,
// from blocks: a call's start, end, duration, output size, exit code and
// verdict cost no allocation of their own. A Reset builder keeps its
// slab's blocks (reuse.go).
type callSlab struct {
	times  blocks[time.Time]
	ints   blocks[int64]
	nums   blocks[int]
	bools  blocks[bool]
	nums64 blocks[float64]
}

func (s *callSlab) time(t time.Time) *time.Time { return s.times.add(t) }

func (s *callSlab) int64(v int64) *int64 { return s.ints.add(v) }

func (s *callSlab) int(v int) *int { return s.nums.add(v) }

func (s *callSlab) bool(v bool) *bool { return s.bools.add(v) }

func (s *callSlab) float64(v float64) *float64 { return s.nums64.add(v) }

// reset frees the slab's kept blocks for the next summary.
func (s *callSlab) reset() {
	s.times.reset()
	s.ints.reset()
	s.nums.reset()
	s.bools.reset()
	s.nums64.reset()
}
