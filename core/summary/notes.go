package summary

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agentsift/sift/core/event"
)

// Caps on the flag notes a summary keeps.
const (
	// MaxTurnNotes caps the notes of one turn.
	MaxTurnNotes = 8
	// MaxSessionNotes caps Summary.FlagNotes: the session's own notes,
	// then its turns' in line order.
	MaxSessionNotes = 16
	// maxListSentence is the most bytes of a sentence in the session's
	// list (Summary.FlagNotes), which every row of the inbox carries.
	maxListSentence = 200
	// maxSentence caps a sentence kept in the record strings.
	maxSentence = textBlock / 4
)

// FlagNote is one flag raised, as a sentence with its evidence: "Bash
// denied: Command contains output redirection" at line 41 of call
// toolu_01 in turn t3. The flag's name stays what searches and filters
// name (flag:stall); the note says why. String gives the sentence with its
// lines.
type FlagNote struct {
	Flag Flag `json:"flag"`
	Evidence
}

// noteRec is a note while a summary is finished, with its turn (nil for
// the session's own).
type noteRec struct {
	turn *turnState
	note FlagNote
}

// addNote records a note of a flag raised in turn t (nil: the session).
func (b *Builder) addNote(t *turnState, f Flag, e Evidence) {
	if t != nil {
		e.TurnID = t.id()
	}
	b.notes = append(b.notes, noteRec{turn: t, note: FlagNote{Flag: f, Evidence: e}})
}

// sentence joins parts into one sentence kept in the record strings: a
// sentence is made once per flag, at Finish.
func (b *Builder) sentence(parts ...string) string {
	b.say = b.say[:0]
	for _, p := range parts {
		b.say = append(b.say, p...)
	}
	if len(b.say) > maxSentence {
		b.say = append(b.say[:len(cut(string(b.say), maxSentence-len("…")))], "…"...)
	}
	return keepText(&b.texts, b.say, "")
}

// toolName is a call's name in a sentence.
func toolName(c *callState) string {
	if c.name == "" {
		return "a tool call"
	}
	return c.name
}

// callNote records the note of a call that raised a flag: a failure, an
// approval stop or a call that never returned.
func (b *Builder) callNote(c *callState, f Flag) {
	e := Evidence{Line: c.line, CallID: c.id}
	name := toolName(c)
	switch f {
	case FlagUnfinishedTool:
		e.Sentence = b.sentence(name, " never returned a result")
	case FlagApproval:
		// The harness's words: the refused call's own result (why it
		// was refused), else the denial's message.
		msg := "approval required"
		switch {
		case c.err != nil && strings.TrimSpace(*c.err) != "":
			msg = clippedFirst(*c.err)
		case c.ext != nil && c.ext.approvalMsg != "":
			msg = c.ext.approvalMsg
		}
		if c.is(callOpen) {
			e.Sentence = b.sentence(name, " waiting for approval: ", msg)
			break
		}
		// The line that refused it: the call's result; a denial the
		// result line lists later only confirms it.
		switch {
		case c.endLine > 0:
			e.Line = c.endLine
		case c.ext != nil && c.ext.approvalLine > 0:
			e.Line = c.ext.approvalLine
		}
		e.Sentence = b.sentence(name, " denied: ", msg)
	case FlagToolFailed:
		e.EndLine = c.endLine
		verb := " failed"
		if c.is(callHasExit) && c.exit != 0 {
			verb = " exited " + itoa(int64(c.exit))
		}
		switch {
		case c.ext != nil && c.ext.why != "":
			// The failure's own words: the line that explains it.
			e.Sentence = b.sentence(name, verb, ": ", c.ext.why)
		case c.err != nil:
			e.Sentence = b.sentence(name, verb, ": ", clippedFirst(*c.err))
		default:
			e.Sentence = b.sentence(name, verb)
		}
	}
	b.addNote(c.turn, f, e)
}

// clippedFirst is the first line of an error already redacted and
// clipped, without what follows it.
func clippedFirst(s string) string {
	s = strings.TrimSpace(s)
	more := ""
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, more = strings.TrimSpace(s[:i]), " …"
	}
	if len(s) > maxLine {
		return cut(s, maxLine) + "…"
	}
	return s + more
}

// stallNote records the note of a stall that raised the flag, or that was
// tool time and did not.
func (b *Builder) stallNote(st *Stall, c stallCand, call *callState) {
	gap := fmtGap(st.GapMs)
	var s string
	switch st.Kind {
	case StallTool:
		name := "a tool"
		if call != nil {
			name = toolName(call)
		}
		s = b.sentence(name, " ran ", gap)
		if call != nil && call.is(callJudged) && !call.is(callSuccess) {
			s = b.sentence(name, " ran ", gap, ", then failed")
		}
	case StallLLM:
		switch c.after {
		case event.ToolCallUpdate:
			s = b.sentence("model silent ", gap, " after the tool result")
		case event.UserMessageChunk:
			s = b.sentence("model silent ", gap, " after the prompt")
		default:
			s = b.sentence("model silent ", gap)
		}
	default:
		s = b.sentence("no events for ", gap)
	}
	e := Evidence{Sentence: s, Line: c.fromLine, EndLine: c.line, CallID: st.ToolCallID}
	if e.Line <= 0 || e.Line >= e.EndLine {
		e.Line, e.EndLine = c.line, 0
	}
	b.addNote(c.turn, FlagStall, e)
}

// turnNotes records the notes of a turn's own flags: its harness errors
// and a token spike.
func (b *Builder) turnNotes(t *turnState, spike int64, median int64) {
	if t.errs > 0 {
		s := b.sentence("harness error: ", t.errMsg)
		if t.errs > 1 {
			s = b.sentence("harness error: ", t.errMsg, " (and ", itoa(int64(t.errs-1)), " more)")
		}
		b.addNote(t, FlagHarnessError, Evidence{Sentence: s, Line: t.errLine})
	}
	if spike > 0 {
		ratio := float64(spike) / float64(max(median, 1))
		s := b.sentence("token spike in ", t.id(), ": ", fmtCount(spike), " tokens, ",
			strconv.FormatFloat(ratio, 'f', 1, 64), "× the session median")
		e := Evidence{Sentence: s, Line: t.line, EndLine: t.endLine}
		if e.EndLine <= e.Line {
			e.EndLine = 0
		}
		b.addNote(t, FlagTokenSpike, e)
	}
}

// sessionNotes records the notes of the session's own flags: an error
// outside any turn, a failed or interrupted run, a truncated capture. A
// note whose evidence is no line (an exit code) points at the stream's
// last line, where the run stopped.
func (b *Builder) sessionNotes(s *Summary, session flagSet, truncatedBytes *int64) {
	last := s.LineCount
	if b.errOrphan {
		n := b.orphanErr.note
		n.Sentence = b.sentence("harness error: ", n.Sentence)
		if b.orphanErrs > 1 {
			n.Sentence = b.sentence(n.Sentence, " (and ", itoa(int64(b.orphanErrs-1)), " more)")
		}
		b.notes = append(b.notes, noteRec{note: n})
	}
	if session.has(FlagRunFailed) {
		e := s.OutcomeEvidence
		e.Sentence = b.sentence(outcomeWords(s.Outcome), ": ", e.Sentence)
		if e.Line <= 0 {
			e.Line = last
		}
		b.addNote(nil, FlagRunFailed, e)
	}
	if s.Truncated {
		e := Evidence{Sentence: "the capture was truncated", Line: last}
		if truncatedBytes != nil {
			e.Sentence = b.sentence("the capture was truncated: ", fmtCount(*truncatedBytes), " bytes dropped")
		}
		b.addNote(nil, FlagTruncated, e)
	}
}

// outcomeWords names an outcome in a sentence.
func outcomeWords(o Outcome) string {
	switch o {
	case OutcomeDiedBeforeStart:
		return "died before its first turn"
	case OutcomeInterrupted:
		return "run interrupted"
	}
	return "run failed"
}

// placeNotes gives the turns their notes and the session its list: its
// own first (a failed run and a truncated capture leading), then the
// turns', each in line order. The turns' notes share one array of the builder's, as their call
// ids do; the session's are copies of their own, since a summary's own
// fields outlive the builder's next stream.
func (b *Builder) placeNotes(s *Summary) {
	recs := b.notes
	// The session's own notes first, a failed run and a truncated
	// capture leading them; then each turn's, in line order.
	rank := func(r noteRec) int {
		switch {
		case r.turn != nil:
			return 2 + r.turn.idx
		case r.note.Flag == FlagRunFailed || r.note.Flag == FlagTruncated:
			return 0
		case r.note.Flag == FlagUsageMismatch || r.note.Flag == FlagTokenCounterReset:
			// The accounting's notes, which do not flag a run on their
			// own, come after the turns'.
			return math.MaxInt
		}
		return 1
	}
	slices.SortStableFunc(recs, func(x, y noteRec) int {
		if rx, ry := rank(x), rank(y); rx != ry {
			return rx - ry
		}
		return x.note.Line - y.note.Line
	})
	all := listOf(&b.lists.notes, len(recs))[:0]
	own := 0
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].turn == recs[i].turn {
			j++
		}
		limit := MaxTurnNotes
		if recs[i].turn == nil {
			limit = MaxSessionNotes
		}
		from := len(all)
		for _, r := range recs[i:min(j, i+limit)] {
			all = append(all, r.note)
		}
		if t := recs[i].turn; t != nil {
			s.Turns[t.idx].FlagNotes = all[from:len(all):len(all)]
		} else if from == 0 {
			own = len(all)
		}
		i = j
	}
	// The session's list: its own notes, the turns' as room allows, and
	// the accounting's (last in all) kept however many the turns have.
	acct := len(all)
	for acct > own && (all[acct-1].Flag == FlagUsageMismatch || all[acct-1].Flag == FlagTokenCounterReset) {
		acct--
	}
	list := all[:min(acct, max(MaxSessionNotes-(len(all)-acct), own))]
	list = append(list[:len(list):len(list)], all[acct:]...)
	s.FlagNotes = make([]FlagNote, len(list))
	for i, fn := range list {
		// The session's list is read with every row of the inbox: its
		// sentences are cut, the turns keep theirs whole.
		sentence := fn.Sentence
		if len(sentence) > maxListSentence {
			sentence = cut(sentence, maxListSentence-len("…")) + "…"
		}
		fn.Sentence, fn.CallID = strings.Clone(sentence), strings.Clone(fn.CallID)
		s.FlagNotes[i] = fn
	}
	s.OutcomeEvidence.Sentence = strings.Clone(s.OutcomeEvidence.Sentence)
	s.OutcomeEvidence.CallID = strings.Clone(s.OutcomeEvidence.CallID)
}

// fmtGap writes a wait: "35 s", "12 min 3 s", "2 h 5 min".
func fmtGap(ms int64) string {
	sec := (ms + 500) / 1000
	switch {
	case sec < 60:
		return itoa(sec) + " s"
	case sec < 3600:
		if sec%60 == 0 {
			return itoa(sec/60) + " min"
		}
		return itoa(sec/60) + " min " + itoa(sec%60) + " s"
	}
	return itoa(sec/3600) + " h " + itoa(sec%3600/60) + " min"
}

// fmtCount writes a count short: 950, 88k, 1.2M.
func fmtCount(n int64) string {
	switch {
	case n < 1000:
		return itoa(n)
	case n < 10_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return itoa((n+500)/1000) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}

// Unexplained lists the flags of a summary that do not read as a sentence
// with a line: a turn's flag without a note of that flag in the turn, a
// session's own flag without one in the session's notes, and a note
// without a sentence or a line; each as "t3 stall", "session run_failed"
// or "t3 note tool_failed". A summary stored before flags had sentences
// lists them all.
func Unexplained(s *Summary) []string {
	var out []string
	bad := func(n FlagNote) bool { return strings.TrimSpace(n.Sentence) == "" || n.Line <= 0 }
	inTurns := map[Flag]bool{}
	for _, t := range s.Turns {
		for _, f := range t.Flags {
			inTurns[f] = true
			if !slices.ContainsFunc(t.FlagNotes, func(n FlagNote) bool { return n.Flag == f }) {
				out = append(out, t.TurnID+" "+string(f))
			}
		}
		for _, n := range t.FlagNotes {
			if bad(n) {
				out = append(out, t.TurnID+" note "+string(n.Flag))
			}
		}
	}
	for _, f := range s.Flags {
		if !inTurns[f] && !slices.ContainsFunc(s.FlagNotes, func(n FlagNote) bool { return n.Flag == f && n.TurnID == "" }) {
			out = append(out, "session "+string(f))
		}
	}
	for _, n := range s.FlagNotes {
		if bad(n) {
			out = append(out, "session note "+string(n.Flag))
		}
	}
	return out
}
