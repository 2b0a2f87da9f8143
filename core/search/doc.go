package search

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentsift/sift/core/redact"
	"github.com/agentsift/sift/core/summary"
)

// Where names the part of a session a match was found in.
type Where string

// The parts of a session that are indexed.
const (
	// InSession is the session's own names: agent, model, work item,
	// phase, file and the harness's session id.
	InSession Where = "session"
	InPrompt  Where = "prompt"
	// InText is what the model said in a turn.
	InText  Where = "text"
	InFinal Where = "final message"
	// InTool is a call's tool name and title.
	InTool  Where = "tool"
	InInput Where = "input"
	// InError is a failed call's error or failing output.
	InError Where = "error"
	// InHarness is an error the harness reported.
	InHarness Where = "harness error"
	// InOutput is the last lines of a stream no parser understood, and
	// its captured stderr.
	InOutput Where = "output"
	InFlag   Where = "flag"
	InNote   Where = "note"
	// InOutcome is how the run ended, with its evidence.
	InOutcome Where = "outcome"
)

// Caps on the indexed text: each part is cut to its cap (on a rune
// boundary), so that what is indexed stays a small fraction of a stream,
// and a session's whole text to MaxDocBytes.
const (
	// MaxPartBytes caps a part: a prompt, a tool input, an error.
	MaxPartBytes = 4 << 10
	// MaxFinalBytes caps the final message, which ends with the stderr
	// tail: its start and its end are kept.
	MaxFinalBytes = 16 << 10
	// MaxDocBytes caps a session's indexed text; parts past it are left
	// out.
	MaxDocBytes = 1 << 20
	// MaxLocations caps the places one recurring text is listed at.
	MaxLocations = 64
)

// Location is a place in a session: a turn, a tool call of it, or, when
// both are empty, the session itself.
type Location struct {
	TurnID string `json:"t,omitempty"`
	CallID string `json:"c,omitempty"`
}

// Part is one line of a session's indexed text: what it is, its text,
// and the places it occurs at (the same text recurring is indexed once).
type Part struct {
	Where Where      `json:"w"`
	Text  string     `json:"-"`
	At    []Location `json:"at,omitempty"`
}

// Piece is text of a stream the summary does not keep, collected while the
// stream is read (core/ingest): a prompt, a harness error. Its text is as
// the stream had it, not redacted yet; NewDoc redacts it.
type Piece struct {
	Where Where
	// Line is the stream line it was read from; it places the piece in a
	// turn. TurnID places it instead when set (a stored document's
	// pieces, whose lines are not kept).
	Line   int
	TurnID string
	CallID string
	Text   string
}

// turnOfPiece is the turn of a piece: its TurnID, else its line's.
func turnOfPiece(p Piece, turnOf func(line int, prompt bool) string) string {
	if p.TurnID != "" {
		return p.TurnID
	}
	return turnOf(p.Line, p.Where == InPrompt)
}

// Doc is the text of a session a store indexes, one part per line, each
// text redacted, on one line, and capped.
type Doc struct {
	Parts []Part
	size  int
	seen  map[partKey]int
	// turn and call are the document's own copies of the last turn and
	// call ids it placed a part at (own).
	turn, call string
	// text and locs are the room the document copies its parts' texts
	// and first places into (keep, place), a chunk at a time, rather
	// than one allocation each. text only ever grows (a full chunk is
	// left to the strings cut from it), so a part's text is a slice of
	// its String.
	text *strings.Builder
	locs []Location
}

// Chunk sizes of a document's room for texts and places, and the most
// parts NewDoc makes room for at first.
const (
	maxPresized = 1024
	textChunk   = 16 << 10
	locChunk    = 128
)

// keep returns the document's own copy of a part's text.
func (d *Doc) keep(s string) string {
	if s == "" || len(s) > textChunk/4 {
		return strings.Clone(s)
	}
	if d.text == nil || d.text.Cap()-d.text.Len() < len(s) {
		d.text = new(strings.Builder)
		d.text.Grow(textChunk)
	}
	at := d.text.Len()
	d.text.WriteString(s)
	return d.text.String()[at:]
}

// place returns a new part's list of places, holding at (in the
// document's own copies of its ids). Its capacity is its length: a
// second place moves the list out of the shared room.
func (d *Doc) place(at Location) []Location {
	if len(d.locs) == cap(d.locs) {
		d.locs = make([]Location, 0, locChunk)
	}
	d.locs = append(d.locs, d.own(at))
	n := len(d.locs)
	return d.locs[n-1 : n : n]
}

type partKey struct {
	where Where
	text  string
}

// PartSep starts every line of a body but the first: a word of its own
// (a private-use character, which the index keeps as a word) that no
// query has, so that no phrase matches across two parts.
const PartSep = "\uE000 "

// Body returns the parts' text, one per line: what the store indexes.
// Line i is Parts[i], after PartSep from the second line on (PartText).
func (d *Doc) Body() string {
	var b strings.Builder
	b.Grow(d.size + len(d.Parts)*len(PartSep))
	for i, p := range d.Parts {
		if i > 0 {
			b.WriteByte('\n')
			b.WriteString(PartSep)
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// PartText returns the text of a line of a body, without its PartSep.
func PartText(line string) string { return strings.TrimPrefix(line, PartSep) }

// LoadDoc rebuilds a stored doc from its body and its parts (whose Text
// is not stored: it is the body's lines), so that more can be added to
// it. Parts past the body's lines, or lines past the parts, are dropped.
func LoadDoc(body string, parts []Part) *Doc {
	d := &Doc{seen: map[partKey]int{}}
	lines := strings.Split(body, "\n")
	for i := range min(len(lines), len(parts)) {
		p := parts[i]
		p.Text, p.At = PartText(lines[i]), slices.Clip(p.At)
		d.seen[partKey{p.Where, p.Text}] = len(d.Parts)
		d.size += len(p.Text) + 1
		d.Parts = append(d.Parts, p)
	}
	return d
}

// Pieces returns the pieces of a stored document that its session's
// summary does not hold (its prompts and harness errors: NewDoc's
// pieces), each at the turns it was found at: with the stored summary,
// what NewDoc needs to build the document again.
func (d *Doc) Pieces() []Piece {
	var out []Piece
	for _, p := range d.Parts {
		if p.Where != InPrompt && p.Where != InHarness {
			continue
		}
		if len(p.At) == 0 {
			out = append(out, Piece{Where: p.Where, Text: p.Text})
		}
		for _, at := range p.At {
			out = append(out, Piece{Where: p.Where, TurnID: at.TurnID, Text: p.Text})
		}
	}
	return out
}

// Add adds a part of text found at a place. The text must be redacted
// already; it is put on one line and capped (MaxPartBytes). Text seen
// before in the same part of the session adds only its place.
func (d *Doc) Add(where Where, text string, at Location) {
	d.add(where, text, MaxPartBytes, at)
}

func (d *Doc) add(where Where, text string, limit int, at Location) {
	text = oneLine(text, limit)
	if text == "" {
		return
	}
	if d.seen == nil {
		d.seen = map[partKey]int{}
	}
	k := partKey{where, text}
	if i, ok := d.seen[k]; ok {
		p := &d.Parts[i]
		if len(p.At) < MaxLocations && at != (Location{}) && (len(p.At) == 0 || p.At[len(p.At)-1] != at) {
			p.At = append(p.At, d.own(at))
		}
		return
	}
	if d.size+len(text)+1 > MaxDocBytes {
		return
	}
	// The summary's strings may live in a summarizer's blocks that the
	// next file rewrites (summary.Builder.Reset): a part keeps its own.
	text = d.keep(text)
	k.text = text
	d.size += len(text) + 1
	p := Part{Where: where, Text: text}
	if at != (Location{}) {
		p.At = d.place(at)
	}
	d.seen[k] = len(d.Parts)
	d.Parts = append(d.Parts, p)
}

// own returns a place with the document's own copies of its ids: like
// the text, a summary's ids may live in a summarizer's blocks that the
// next file rewrites, and the store writes the document later (a call
// id in a stored document was once the text of another file's line).
// A call's parts (its tool, input and error) come one after the other:
// the copy of the last id is used again while the id is the same.
func (d *Doc) own(at Location) Location {
	id := func(s string, last *string) string {
		if s != *last {
			*last = strings.Clone(s)
		}
		return *last
	}
	return Location{TurnID: id(at.TurnID, &d.turn), CallID: id(at.CallID, &d.call)}
}

// NewDoc builds the indexed text of a session: its names, prompts, what
// the model said, its tool calls (names, inputs, errors), harness errors,
// the final message, the output lines and the flags, each placed at its
// turn and call. The summary's text is redacted already; the pieces are
// redacted here. Decision notes are added by the store (Doc.Add with
// InNote), which keeps them.
//
// This is the one function that says what of a session is searchable.
func NewDoc(s *summary.Summary, pieces []Piece) *Doc {
	// Room for about as many parts as the session has places to find
	// them at, up to a bound: a session of 100,000 calls repeats most.
	n := min(8+len(pieces)+len(s.Turns)+2*len(s.ToolCalls), maxPresized)
	d := &Doc{Parts: make([]Part, 0, n), seen: make(map[partKey]int, n)}
	// The key is the stream file's folder and name, indexed as shown.
	names := []string{s.AgentKind, s.Model, redact.String(s.WorkItemID), phaseName(s), redact.String(s.FileName), s.SessionID}
	d.Add(InSession, strings.Join(names, " "), Location{})
	turnOf := turnLocator(s.Turns)
	for _, p := range pieces {
		if p.Where != InPrompt {
			continue
		}
		d.Add(InPrompt, redacted(p.Text), Location{TurnID: turnOfPiece(p, turnOf)})
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		d.Add(InText, t.Text, Location{TurnID: t.TurnID})
	}
	for i := range s.ToolCalls {
		c := &s.ToolCalls[i]
		at := Location{TurnID: c.TurnID, CallID: c.ID}
		tool := c.Name
		if c.Title != "" && c.Title != c.Name && !strings.Contains(c.Title, strings.TrimRight(c.InputSummary, " …")) {
			// A title that is not "Run: <the input>" says more.
			tool += " " + c.Title
		}
		d.Add(InTool, tool, at)
		d.Add(InInput, c.InputSummary, at)
		if c.Error != nil {
			d.Add(InError, *c.Error, at)
		}
	}
	for _, p := range pieces {
		if p.Where == InPrompt {
			continue
		}
		at := Location{TurnID: turnOfPiece(p, turnOf), CallID: p.CallID}
		d.Add(p.Where, redacted(p.Text), at)
	}
	if s.FinalAssistantMessage != nil {
		var last Location
		if n := len(s.Turns); n > 0 {
			last.TurnID = s.Turns[n-1].TurnID
		}
		d.add(InFinal, headTail(*s.FinalAssistantMessage, MaxFinalBytes), MaxFinalBytes, last)
	}
	for _, l := range s.Tail {
		d.Add(InOutput, l, Location{})
	}
	addFlags(d, s)
	return d
}

// addFlags indexes the flags of each turn at the turn, and the session's
// own (a failed run, a truncated capture) at the session: each flag's
// name, then the sentence saying why it was raised, at its turn and call
// (a denial's reason, a failed command's error, a stall's length). The
// run's outcome and its evidence are indexed at the session.
func addFlags(d *Doc, s *summary.Summary) {
	inTurns := map[summary.Flag]bool{}
	for i := range s.Turns {
		t := &s.Turns[i]
		for _, f := range t.Flags {
			inTurns[f] = true
			d.Add(InFlag, string(f), Location{TurnID: t.TurnID})
		}
		for _, n := range t.FlagNotes {
			d.Add(InFlag, n.Sentence, Location{TurnID: t.TurnID, CallID: n.CallID})
		}
	}
	for _, f := range s.Flags {
		if !inTurns[f] {
			d.Add(InFlag, string(f), Location{})
		}
	}
	for _, n := range s.FlagNotes {
		if n.TurnID == "" {
			d.Add(InFlag, n.Sentence, Location{CallID: n.CallID})
		}
	}
	if s.Outcome != "" {
		d.Add(InOutcome, string(s.Outcome)+": "+s.OutcomeEvidence.Sentence, Location{})
	}
}

// phaseName is the phase with its iteration, as the inbox labels it
// (rework-2).
func phaseName(s *summary.Summary) string {
	if s.Iteration == nil {
		return s.Phase
	}
	return s.Phase + "-" + strconv.Itoa(*s.Iteration)
}

// turnLocator returns a function placing a stream line in a turn: the
// turn whose lines hold it; for a prompt (next), the first turn after
// it; "" when none does.
func turnLocator(turns []summary.Turn) func(line int, next bool) string {
	return func(line int, next bool) string {
		if line <= 0 || len(turns) == 0 {
			return ""
		}
		i := sort.Search(len(turns), func(i int) bool { return turns[i].Line > line })
		if i > 0 && turns[i-1].Line <= line && line <= max(turns[i-1].EndLine, turns[i-1].Line) {
			return turns[i-1].TurnID
		}
		if next && i < len(turns) {
			return turns[i].TurnID
		}
		return ""
	}
}

// redactMargin is how much of a piece past its cap is redacted with it,
// so that a secret straddling the cap is replaced whole before the cut.
const redactMargin = 4 << 10

// redacted returns a piece's text redacted, reading at most its cap and
// the margin.
func redacted(s string) string {
	return redact.String(cut(s, MaxPartBytes+redactMargin))
}

// headTail keeps the start and the end of a long text, within n bytes:
// the final message's stderr tail is at its end.
func headTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const gap = " … "
	head := cut(s, n/2)
	tail := s[len(s)-(n-len(head)-len(gap)):]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return head + gap + tail
}

// oneLine returns s on one line (every control character a space, runs of
// spaces one), trimmed and cut to at most n bytes on a rune boundary.
// The store's highlight markers are control characters: none is left.
func oneLine(s string, n int) string {
	if len(s) <= n && alreadyOneLine(s) {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), n))
	space := false
	for i := 0; i < len(s); {
		// A character is copied as its bytes: an ASCII byte as it is,
		// another decoded only to be judged (an invalid byte is
		// utf8.RuneError, dropped like U+FFFD).
		c, w := s[i], 1
		drop := c < 0x20 || c == 0x7f || c == ' '
		if c >= utf8.RuneSelf {
			var r rune
			r, w = utf8.DecodeRuneInString(s[i:])
			drop = r == utf8.RuneError || r < 0xa0 || r == sepRune
		}
		if drop {
			space = b.Len() > 0
			i += w
			continue
		}
		need := w
		if space {
			need++
		}
		if b.Len()+need > n {
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(s[i : i+w])
		i += w
	}
	return b.String()
}

// lineBytes marks the bytes alreadyOneLine looks at: the controls, a
// space, and the first bytes of what oneLine drops beyond them: the C1
// controls (0xc2), U+FFFD (0xef) and the part separator (0xee). Other
// characters that start with those bytes take the slow path too.
var lineBytes = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t[0x7f], t[0xc2], t[0xee], t[0xef], t[' '] = true, true, true, true, true
	return t
}()

// alreadyOneLine reports whether oneLine would return s as it is: no byte
// lineBytes marks but single spaces between words, and valid UTF-8
// (checked only when s is not all ASCII).
func alreadyOneLine(s string) bool {
	var high byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		high |= c
		if lineBytes[c] && (c != ' ' || i == 0 || s[i-1] == ' ') {
			return false
		}
	}
	if len(s) > 0 && s[len(s)-1] == ' ' {
		return false
	}
	return high < utf8.RuneSelf || utf8.ValidString(s)
}

// cut returns the longest prefix of s of at most n bytes that ends on a
// rune boundary.
func cut(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
