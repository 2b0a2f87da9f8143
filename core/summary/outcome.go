package summary

import (
	"strconv"

	"github.com/agentsift/sift/core/event"
)

// Outcome is how a run ended, decided from its terminal events only: the
// harness's result line (is_error, subtype), a fatal error (codex's
// turn.failed, gemini's status "error"), the agent's exit code, and a
// missing result. Never from phrases in the text.
type Outcome string

// The outcomes, most urgent first (Rank).
const (
	// OutcomeFailed is a run whose result line, fatal error or exit code
	// says it failed after the agent began to work.
	OutcomeFailed Outcome = "failed"
	// OutcomeDiedBeforeStart is a run that failed before any agent event
	// (a response, a thought, a tool call): a bad model name, a missing
	// key.
	OutcomeDiedBeforeStart Outcome = "died_before_start"
	// OutcomeInterrupted is a run ended by a signal (exit 128+N for
	// SIGHUP, SIGINT, SIGQUIT, SIGKILL or SIGTERM), or whose stream stops
	// inside a tool call without a terminal line.
	OutcomeInterrupted Outcome = "interrupted"
	// OutcomeUnknown is a stream that stops without a terminal event.
	OutcomeUnknown Outcome = "unknown"
	// OutcomeCompleted is a run whose result line, or exit code 0, says
	// it finished; for an on-disk history (which has no result line),
	// one whose last assistant message ended its turn.
	OutcomeCompleted Outcome = "completed"
	// OutcomeRunning is reserved for a run still under way (the live
	// inbox); a summary of a finished stream never has it.
	OutcomeRunning Outcome = "running"
)

// Outcomes lists the outcomes a summary records, most urgent first: the
// order of the outcome sort, help and the query language.
func Outcomes() []Outcome {
	return []Outcome{OutcomeFailed, OutcomeDiedBeforeStart, OutcomeInterrupted, OutcomeUnknown, OutcomeCompleted}
}

// Rank orders outcomes by urgency, larger first: failed 5 down to
// completed 1; running and anything unknown to sift rank 0.
func (o Outcome) Rank() int {
	switch o {
	case OutcomeFailed:
		return 5
	case OutcomeDiedBeforeStart:
		return 4
	case OutcomeInterrupted:
		return 3
	case OutcomeUnknown:
		return 2
	case OutcomeCompleted:
		return 1
	}
	return 0
}

// Word is the outcome as people read it, the same in every view that
// shows it in words (the inbox's column, its preview and session header,
// `sift summary`, `sift list`): failed, died, interrupted, unknown,
// completed, running. Each is the start of its outcome, so it is also a
// search filter's value (outcome:died). An empty outcome (a summary stored
// before outcomes) is unknown. JSON keeps the outcome itself.
func (o Outcome) Word() string {
	switch o {
	case "":
		return string(OutcomeUnknown)
	case OutcomeDiedBeforeStart:
		return "died"
	}
	return string(o)
}

// IsFailure reports whether the outcome is a failure: failed or died
// before its start.
func (o Outcome) IsFailure() bool { return o == OutcomeFailed || o == OutcomeDiedBeforeStart }

// Evidence is a sentence saying why, and the stream lines it rests on:
// Line (0 when it is no line, such as an exit code) through EndLine, in a
// turn and a tool call when it has them.
type Evidence struct {
	Sentence string `json:"sentence"`
	Line     int    `json:"line"`
	EndLine  int    `json:"endLine,omitempty"`
	TurnID   string `json:"turnId,omitempty"`
	CallID   string `json:"callId,omitempty"`
}

// Where says where the evidence is: "line 41", "lines 12–13", or "" for
// none.
func (e Evidence) Where() string {
	switch {
	case e.Line <= 0:
		return ""
	case e.EndLine > e.Line:
		return "lines " + strconv.Itoa(e.Line) + "–" + strconv.Itoa(e.EndLine)
	}
	return "line " + strconv.Itoa(e.Line)
}

// String is the sentence followed by where it rests: "Bash denied:
// Command contains output redirection (line 41)".
func (e Evidence) String() string {
	if w := e.Where(); w != "" {
		return e.Sentence + " (" + w + ")"
	}
	return e.Sentence
}

// signalNames are the signals that interrupt a run, by number: a process
// they end exits 128+N.
var signalNames = [...]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 9: "SIGKILL", 15: "SIGTERM"}

// interruptSignal returns the name of the signal an exit code says ended
// the process, if it is one that interrupts rather than crashes.
func interruptSignal(code int) (string, bool) {
	n := code - 128
	if n <= 0 || n >= len(signalNames) || signalNames[n] == "" {
		return "", false
	}
	return signalNames[n], true
}

// endState is what the builder knows of how a stream ends, for the
// outcome: its result, fatal error, last error, first agent work and the
// last significant event of the main agent.
type endState struct {
	// worked says an agent event came (a response, a thought, a plan, a
	// tool call).
	worked bool
	// resultLine and subtype are the last result line's.
	resultLine int
	subtype    string
	// fatalLine and fatalMsg are the first fatal error's.
	fatalLine int
	fatalMsg  string
	// errLine and errMsg are the last harness error's.
	errLine int
	errMsg  string
	// lastKind and lastLine are the last event of the main agent that
	// says where it stands (a response, a call, a result, an error, a
	// prompt); stopped says that event was a response that ended its
	// turn (stop_reason end_turn or stop_sequence), stopKnown that the
	// harness named a stop reason at all.
	lastKind  event.Kind
	lastLine  int
	stopped   bool
	stopKnown bool
	// signaled says a signal ended the run (decideOutcome).
	signaled bool
}

// noteEnd records an event of the main agent that says where the stream
// stands. It keeps nothing of ev.
func (e *endState) noteEnd(ev *event.Event) {
	e.lastKind, e.lastLine = ownKind(ev.Update.SessionUpdate), ev.Line
	e.stopped, e.stopKnown = false, false
	if e.lastKind != event.AgentMessageChunk {
		return
	}
	if r, ok := ev.Extra["stop_reason"].(string); ok {
		e.stopKnown = true
		e.stopped = r == "end_turn" || r == "stop_sequence"
	}
}

// decideOutcome fills the outcome and its evidence from the terminal
// events. endsWithResult says the harness always ends with a result line
// (event.Stats): without one, the stream ended early; a stream of a
// harness that prints none (an on-disk history) is judged by how it ends.
func (b *Builder) decideOutcome(s *Summary, endsWithResult bool) {
	e := &b.end
	ev := func(sentence string, line int) Evidence { return Evidence{Sentence: sentence, Line: line} }
	var failed *Evidence
	switch {
	case b.fatal:
		// The harness's own words: a result line's error text, a
		// turn.failed message, a status:"error" result's error.
		x := ev(e.fatalMsg, e.fatalLine)
		failed = &x
	case b.isError != nil && *b.isError:
		why := "the result line reports an error"
		if e.subtype != "" {
			why += " (" + e.subtype + ")"
		}
		x := ev(why, e.resultLine)
		failed = &x
	}
	code, known := 0, b.opt.ExitCode != nil
	if known {
		code = *b.opt.ExitCode
	}
	sig, signaled := interruptSignal(code)
	if known && code != 0 && !signaled && failed == nil {
		x := ev("the agent exited "+strconv.Itoa(code), 0)
		failed = &x
	}
	finished := b.results > 0 && (b.isError == nil || !*b.isError)
	switch {
	case known && signaled && !finished:
		e.signaled = true
		s.Outcome, s.OutcomeEvidence = OutcomeInterrupted, ev("ended by "+sig+" (exit "+strconv.Itoa(code)+")", 0)
	case failed != nil:
		s.Outcome, s.OutcomeEvidence = OutcomeFailed, *failed
	case finished:
		why := "the result line reports success"
		if e.subtype != "" && e.subtype != "success" {
			why += " (" + e.subtype + ")"
		}
		s.Outcome, s.OutcomeEvidence = OutcomeCompleted, ev(why, e.resultLine)
	case b.open > 0:
		c := b.lastOpen()
		s.Outcome, s.OutcomeEvidence = OutcomeInterrupted, Evidence{
			Sentence: "the stream stops inside " + c.name + ", with no terminal line", Line: c.line, CallID: c.id}
	case known:
		s.Outcome, s.OutcomeEvidence = OutcomeCompleted, ev("the agent exited 0", 0)
	case !endsWithResult && b.structured:
		b.historyOutcome(s)
	default:
		why := "the stream stops without a terminal line"
		if endsWithResult && b.structured {
			why = "the stream stops before the harness's result line"
		}
		s.Outcome, s.OutcomeEvidence = OutcomeUnknown, ev(why, e.lastLine)
	}
	if s.Outcome == OutcomeFailed && !e.worked && b.structured {
		s.Outcome = OutcomeDiedBeforeStart
	}
}

// historyOutcome judges a stream whose harness prints no result line (an
// on-disk history) by how it ends: an error entry after the agent's last
// word failed it; a last response that ended its turn (or, where the
// harness names no stop reason, a last event that is the agent's text)
// completed it.
func (b *Builder) historyOutcome(s *Summary) {
	e := &b.end
	switch {
	case e.lastKind == event.Error:
		s.Outcome, s.OutcomeEvidence = OutcomeFailed, Evidence{Sentence: "the stream ends with an error entry: " + e.errMsg, Line: e.errLine}
	case e.lastKind == event.AgentMessageChunk && (e.stopped || !e.stopKnown):
		why := "the last assistant message ended its turn"
		if !e.stopKnown {
			why = "the stream ends with the assistant's message"
		}
		s.Outcome, s.OutcomeEvidence = OutcomeCompleted, Evidence{Sentence: why, Line: e.lastLine}
	default:
		s.Outcome, s.OutcomeEvidence = OutcomeUnknown, Evidence{Sentence: "the stream stops before the assistant ended its turn", Line: e.lastLine}
	}
}

// lastOpen returns the last call still open: the one the stream stopped
// inside.
func (b *Builder) lastOpen() *callState {
	for i := len(b.calls) - 1; i >= 0; i-- {
		if b.calls[i].is(callOpen) {
			return b.calls[i]
		}
	}
	return &callState{}
}

// ownKind returns the package's own copy of an event kind: a lent event's
// kind is a view of its line, which the builder may not keep.
func ownKind(k event.Kind) event.Kind {
	for _, c := range [...]event.Kind{event.AgentMessageChunk, event.AgentThoughtChunk, event.UserMessageChunk,
		event.ToolCall, event.ToolCallUpdate, event.Plan, event.Error, event.Result, event.Usage,
		event.SessionStart, event.Raw, event.Stderr} {
		if k == c {
			return c
		}
	}
	return ""
}
