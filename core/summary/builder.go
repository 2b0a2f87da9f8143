package summary

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agentsift/sift/core/event"
)

// maxFinalText caps the final assistant message kept while streaming.
const maxFinalText = 64 << 10

// Builder folds the events of one stream into a summary, one event at a
// time, so that a stream of any size is summarized in one pass. Its memory
// grows with the turns and tool calls the summary lists, never with the
// number of events or the bytes of the stream. A Builder is not safe for
// concurrent use.
type Builder struct {
	opt     Options
	project bool
	// scribble makes Reset overwrite the record strings' blocks before
	// they are reused (tests).
	scribble bool

	sessionID   string
	model       string
	initModel   string
	cwd         string
	lastSession string

	// Timing: the stream's own clock once it shows one, else projection.
	clock     bool
	lastReal  time.Time
	first     instant
	last      instant
	firstWork instant

	// Stall detection.
	prev        instant
	prevTurn    *turnState
	prevLine    int
	prevKind    event.Kind
	waitingLLM  bool
	afterResult bool
	stalls      []stallCand
	projected   []stallCand

	turns   []*turnState
	cur     *turnState
	msgTurn map[string]*turnState
	// turnRecs holds the turn records, as callRecs the calls'.
	turnRecs blocks[turnState]

	calls    []*callState
	callByID map[string]*callState
	open     int
	// callRecs holds the call records (tools.go); interned holds the tool
	// names and kinds calls share.
	callRecs blocks[callState]
	interned map[string]string
	// shownIDs holds the session ids and models shown (shown).
	shownIDs map[string]string
	// lists are the arrays of the summary's lists, texts the records'
	// strings (reuse.go).
	lists lists
	texts textBlocks

	prompts []prompt
	// afterPrompt is true when the last event was a user message chunk.
	afterPrompt bool

	run    *tokens
	orphan turnUsage
	// sub is the usage reported inside subagents (events of a parent tool
	// call), which a harness's own run total may leave out.
	sub turnUsage
	// runLine is the line of the harness's run total.
	runLine int
	// counterReset is set when a usage report says the harness's running
	// token total restarted (reconcile.go), at resetLine first.
	counterReset bool
	resetLine    int
	// totalUnknown is set when a usage report says nothing explains a
	// drop of the running total: the session's tokens are unknown
	// (reconcile.go), from unknownLine.
	totalUnknown bool
	unknownLine  int
	results      int
	isError      *bool
	duration     *int64
	numTurns     *int
	ttft         *int64
	// result is the text of the last result line, at most maxFinalText
	// bytes; its array is reused from result to result.
	result    []byte
	fatal     bool
	errors    int
	errOrphan bool
	// orphanErr is the first error outside any turn, orphanErrs how many
	// there were.
	orphanErr  noteRec
	orphanErrs int
	// orphanFatal says orphanErr is a fatal error.
	orphanFatal bool

	structured bool
	rawLines   int
	errorLines int
	tail       ring
	stderr     stderrTail

	// final holds the text of the last turn that said something (at most
	// maxFinalText bytes); its array is reused from turn to turn.
	final     []byte
	finalTurn *turnState

	// lastLine is the line of the last event added, for an error report.
	lastLine int
	// end is how the stream ends, for the outcome (outcome.go).
	end endState
	// notes collects the flag notes at Finish (notes.go); say is the
	// room a sentence is written in.
	notes []noteRec
	say   []byte

	// touched holds what the calls' inputs say they change (touched.go).
	touched []callTouch
}

// NewBuilder returns a builder for one stream.
func NewBuilder(opt Options) *Builder {
	opt = opt.withDefaults()
	return &Builder{
		opt:      opt,
		project:  opt.window(),
		msgTurn:  map[string]*turnState{},
		callByID: map[string]*callState{},
		tail:     ring{max: TailLines},
	}
}

// keepSession returns a session id to keep: the stored one when equal, so
// that the many records of one session share one copy. Event strings may
// share an allocation with a large tool output; kept strings are copies.
func (b *Builder) keepSession(s string) string {
	if idKey(s) == b.lastSession {
		return b.lastSession
	}
	b.lastSession = b.keptID(s)
	return b.lastSession
}

// turnState is a turn while the stream is read.
type turnState struct {
	tid        string
	msgID      string
	model      string
	session    string
	line       int
	endLine    int
	start, end instant
	usage      turnUsage
	// first and grown are the start of what the model said, at most
	// maxTurnText bytes (addText): the first part, kept in the record
	// strings, or once a second part comes, an array of the cap.
	first  string
	grown  []byte
	calls  []*callState
	flags  flagSet
	closed bool
	// usd and costSrc are the turn's cost, once priced (cost.go).
	usd     float64
	costSrc CostSource
	// idx is the turn's index in the session; errLine and errMsg are its
	// headline harness error (the fatal one, else the last: warnings are
	// not counted), errs how many it had, errFatal whether the headline
	// is fatal.
	idx      int
	errLine  int
	errMsg   string
	errs     int
	errFatal bool
}

// id is the turn's id, t1, t2, …; named once the stream has ended
// (nameTurns).
func (t *turnState) id() string { return t.tid }

// said returns what the model said in the turn, the start of it: the
// kept first part, or a copy of the grown array (at most maxTurnText
// bytes).
func (t *turnState) said() string {
	if t.grown == nil {
		return t.first
	}
	return string(t.grown)
}

// nameTurns gives the turns their ids, all in one string.
func (b *Builder) nameTurns() {
	if len(b.turns) == 0 || b.turns[0].tid != "" {
		return
	}
	var buf []byte
	ends := make([]int, len(b.turns))
	for i := range b.turns {
		buf = strconv.AppendInt(append(buf, 't'), int64(i+1), 10)
		ends[i] = len(buf)
	}
	all := string(buf)
	start := 0
	for i, t := range b.turns {
		t.tid, start = all[start:ends[i]], ends[i]
	}
}

// Add folds one event into the summary; it has the signature of a parser's
// emit function, so a parser can feed the builder directly. It keeps
// nothing of ev: what it keeps it copies, so a parse may lend it events.
func (b *Builder) Add(ev *event.Event) {
	b.lastLine = ev.Line
	u := &ev.Update
	k := u.SessionUpdate
	if k != event.Raw && k != event.Stderr {
		b.structured = true
	}
	if b.sessionID == "" && ev.SessionID != "" {
		b.sessionID = strings.Clone(ev.SessionID)
	}
	if b.model == "" && ev.Model != "" {
		b.model = strings.Clone(ev.Model)
	}
	at := b.at(ev)
	stall, where := b.gap(ev, at)
	top := b.isTop(ev)
	switch k {
	case event.AgentMessageChunk, event.AgentThoughtChunk, event.Plan, event.ToolCall:
		b.end.worked = true
		if top {
			b.end.noteEnd(ev)
		}
	case event.ToolCallUpdate, event.UserMessageChunk:
		if top {
			b.end.noteEnd(ev)
		}
	case event.Error, event.Result:
		b.end.noteEnd(ev)
	}

	switch k {
	case event.SessionStart:
		if ev.Model != "" && b.initModel == "" {
			b.initModel = strings.Clone(ev.Model)
		}
		if u.Cwd != "" && b.cwd == "" {
			b.cwd = b.clipLine(u.Cwd, maxLine)
		}
		b.closeTurn()
		b.waitingLLM = false
		b.afterResult = false
	case event.UserMessageChunk:
		if ev.ParentToolCallID == "" || b.callByID[idKey(ev.ParentToolCallID)] == nil {
			b.closeTurn()
			if !b.afterPrompt {
				b.prompts = append(b.prompts, prompt{line: ev.Line, at: at, session: b.keepSession(ev.SessionID),
					summary: b.kept(firstLineOf(contentText(u.Content)))})
			}
		}
		b.waitingLLM = true
		b.afterResult = false
	case event.AgentMessageChunk, event.AgentThoughtChunk, event.Plan:
		t := b.turnFor(ev, at)
		if k == event.AgentMessageChunk && u.Content != nil && ev.ParentToolCallID == "" {
			b.addText(t, u.Content.Text)
		}
		b.waitingLLM = true
		b.afterResult = false
	case event.ToolCall:
		t := b.turnFor(ev, at)
		b.toolCall(ev, at, t)
		b.afterResult = false
	case event.ToolCallUpdate:
		b.toolUpdate(ev, at)
	case event.Usage:
		b.usage(ev)
	case event.Error:
		b.harnessError(ev, at)
	case event.Result:
		b.results++
		if u.IsError != nil {
			b.isError = u.IsError
		}
		if u.DurationMs != nil {
			b.duration = addInt(b.duration, *u.DurationMs)
		}
		if u.NumTurns != nil {
			var n int64
			if b.numTurns != nil {
				n = int64(*b.numTurns)
			}
			turns := int(min(event.AddCount(n, int64(*u.NumTurns)), math.MaxInt))
			b.numTurns = &turns
		}
		if v, ok := ev.Extra["ttft_ms"]; ok && b.ttft == nil {
			if ms, ok := number(v); ok {
				b.ttft = &ms
			}
		}
		if u.Text != "" {
			b.result = append(b.result[:0], cut(u.Text, maxFinalText)...)
		}
		b.end.resultLine = ev.Line
		if u.Subtype != b.end.subtype {
			b.end.subtype = b.kept(u.Subtype)
		}
		b.closeTurn()
		b.waitingLLM = false
		b.afterResult = true
	case event.Raw:
		b.rawLines++
		b.plainLine(u.Text)
	case event.Stderr:
		b.plainLine(u.Text)
		b.stderr.add(u.Text)
	}
	if where != 0 {
		b.keepStall(stall, where, k, top)
	}
	b.afterPrompt = k == event.UserMessageChunk
	if at.known() {
		b.prev = at
		b.prevTurn = b.cur
		b.prevLine, b.prevKind = ev.Line, ownKind(k)
	}
}

// harnessError counts an error the harness reported and keeps what the
// outcome and the harness_error note say of it: the first of its turn,
// the first fatal one, the last one. Errors are few: their text is clipped
// (and redacted) as they come.
func (b *Builder) harnessError(ev *event.Event, at instant) {
	u := &ev.Update
	b.errors++
	sev := errorSeverity(u.Message, u.Fatal)
	if sev == sevWarning {
		// A notice the run survives: counted, never a flag or a
		// headline.
		return
	}
	msg := b.clipLine(u.Message, maxLine)
	if msg == "" {
		msg = "an error with no message"
	}
	b.end.errLine, b.end.errMsg = ev.Line, msg
	if u.Fatal && !b.fatal {
		b.fatal = true
		b.end.fatalLine, b.end.fatalMsg = ev.Line, msg
	}
	t := b.turnOf(ev)
	if t == nil {
		if !b.errOrphan || !b.orphanFatal {
			// The headline: the fatal one, else the last.
			b.orphanErr = noteRec{note: FlagNote{Flag: FlagHarnessError, Evidence: Evidence{Sentence: msg, Line: ev.Line}}}
			b.orphanFatal = sev == sevFatal
		}
		b.errOrphan = true
		b.orphanErrs++
		return
	}
	t.flags.add(FlagHarnessError)
	b.touch(t, ev, at)
	if !t.errFatal {
		// The headline: the fatal one, else the last.
		t.errLine, t.errMsg, t.errFatal = ev.Line, msg, sev == sevFatal
	}
	t.errs++
}

// plainLine counts a line no parser understood toward the error-line count
// and the tail.
func (b *Builder) plainLine(s string) {
	if isErrorLine(s) {
		b.errorLines++
	}
	if strings.TrimSpace(s) != "" {
		b.tail.add(cut(strings.TrimRight(s, " \t\r"), maxTailLine))
	}
}

// at returns when an event happened: its own timestamp; else, once the
// stream has shown a clock, the last time it showed; else its projected
// position in the invocation window; else unknown.
func (b *Builder) at(ev *event.Event) instant {
	if !ev.Timestamp.IsZero() {
		b.clock = true
		b.lastReal = ev.Timestamp
		return b.seen(instant{t: ev.Timestamp})
	}
	if b.clock {
		return b.seen(instant{t: b.lastReal})
	}
	if !b.project {
		return instant{}
	}
	if b.opt.Projection == ProjectByOffset {
		return b.seen(instant{pos: ev.Offset + 1})
	}
	if ev.Line <= 0 {
		return instant{}
	}
	return b.seen(instant{pos: int64(ev.Line)})
}

// seen records the first and last known instants of the stream.
func (b *Builder) seen(a instant) instant {
	if !b.first.known() {
		b.first = a
	}
	b.last = a
	return a
}

// isTop reports whether an event belongs to the main agent, not a subagent
// whose parent call sift knows.
func (b *Builder) isTop(ev *event.Event) bool {
	return ev.ParentToolCallID == "" || b.callByID[idKey(ev.ParentToolCallID)] == nil
}

// turnFor returns the turn an agent event belongs to, starting a new one
// when the model begins a new response. A subagent's event belongs to its
// parent call's turn, which is nil when the call began outside any turn (a
// result for a call the stream never started): then it belongs to none.
func (b *Builder) turnFor(ev *event.Event, at instant) *turnState {
	if !b.isTop(ev) {
		t := b.callByID[idKey(ev.ParentToolCallID)].turn
		if t != nil {
			b.touch(t, ev, at)
		}
		return t
	}
	if !b.firstWork.known() && at.known() {
		b.firstWork = at
	}
	id := ev.MessageID
	switch {
	case b.cur != nil && id != "" && b.cur.msgID == id:
	case id != "" && b.msgTurn[id] != nil:
		t := b.msgTurn[id]
		b.touch(t, ev, at)
		return t
	case b.cur == nil || b.cur.closed || (id != "" && b.cur.msgID != "" && b.cur.msgID != id):
		b.newTurn(ev, at)
	case id != "" && b.cur.msgID == "":
		b.cur.msgID = b.kept(id)
		b.msgTurn[b.cur.msgID] = b.cur
	}
	b.touch(b.cur, ev, at)
	return b.cur
}

func (b *Builder) newTurn(ev *event.Event, at instant) {
	t := b.turnRecs.add(turnState{msgID: b.kept(ev.MessageID), idx: len(b.turns),
		line: ev.Line, start: at, session: b.keepSession(ev.SessionID)})
	if t.msgID != "" {
		b.msgTurn[t.msgID] = t
	}
	b.turns = append(b.turns, t)
	b.cur = t
}

// touch extends a turn to an event.
func (b *Builder) touch(t *turnState, ev *event.Event, at instant) {
	if ev.Line > t.endLine {
		t.endLine = ev.Line
	}
	if at.known() {
		t.end = at
	}
	if t.model == "" && ev.Model != "" {
		t.model = b.kept(ev.Model)
	}
}

// closeTurn marks the current turn done: the next agent output is a new
// response.
func (b *Builder) closeTurn() {
	if b.cur != nil {
		b.cur.closed = true
	}
}

// turnOf returns the turn a non-agent event (usage, error) belongs to.
func (b *Builder) turnOf(ev *event.Event) *turnState {
	if ev.ParentToolCallID != "" {
		if c := b.callByID[idKey(ev.ParentToolCallID)]; c != nil {
			return c.turn
		}
	}
	if ev.MessageID != "" {
		if t := b.msgTurn[ev.MessageID]; t != nil {
			return t
		}
	}
	return b.cur
}

func (b *Builder) addText(t *turnState, s string) {
	if s == "" {
		return
	}
	n := len(t.first)
	if t.grown != nil {
		n = len(t.grown)
	}
	if n < maxTurnText {
		add := s[:min(len(s), maxTurnText-n)]
		switch {
		case n == 0:
			// One response is mostly one text: it is kept in the
			// record strings, and a second part moves it to an array
			// of the cap at once.
			t.first = b.kept(add)
		case t.grown == nil:
			t.grown = append(append(make([]byte, 0, maxTurnText), t.first...), add...)
		default:
			t.grown = append(t.grown, add...)
		}
	}
	if b.finalTurn != t {
		// Newer text than the last result line's (a later run in the
		// same file) is the final message now.
		b.result = b.result[:0]
		b.final, b.finalTurn = b.final[:0], t
	}
	if room := maxFinalText - len(b.final); room > 0 {
		b.final = append(b.final, cut(s, min(len(s), room))...)
	}
}

// usage records a usage report: the run total, or one call's snapshot.
func (b *Builder) usage(ev *event.Event) {
	u := &ev.Update
	tk := tokensOf(u)
	if ev.Extra != nil {
		b.noteUsage(ev)
	}
	if u.Scope == event.ScopeRun {
		b.run, b.runLine = &tk, ev.Line
		return
	}
	if ev.ParentToolCallID != "" {
		b.sub.add(ev.MessageID, "", tk)
	}
	t := b.turnOf(ev)
	if t == nil {
		b.orphan.add(ev.MessageID, "", tk)
		return
	}
	t.usage.add(ev.MessageID, t.msgID, tk)
}

// contentText returns the text of a content block, if any.
func contentText(c *event.Content) string {
	if c == nil {
		return ""
	}
	return c.Text
}

// number reads a JSON-ish number from an Extra value.
func number(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case float64:
		return int64(n), true
	}
	return 0, false
}

func addInt(p *int64, v int64) *int64 {
	var total int64
	if p != nil {
		total = *p
	}
	v = event.AddCount(total, v)
	return &v
}
