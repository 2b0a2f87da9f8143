package summary

import "github.com/agentsift/sift/core/internal/view"

// A builder that summarizes stream after stream, one at a time (an
// import's reader), is Reset rather than made anew: it keeps its records'
// blocks, its tables and its lists' arrays for the next stream, so that a
// stream costs the memory it needs past what the last one left, not all
// of it again. What it keeps is bounded, so that one session of many
// thousands of calls does not hold its size for the rest of an import.
const (
	// maxKeptRecords is how many records of each kind the kept blocks
	// hold at most (about 500 KB of calls, as much of turns).
	maxKeptRecords = 2 << 10
	// maxKeptList is the length past which a list's array is not kept,
	// nor a table's (cleared) entries.
	maxKeptList = 4 << 10
)

// blocks hands out records from blocks, each twice the size of the one
// before up to callChunk records, that never move; Reset makes the first
// blocks, up to maxKeptRecords records, free for the next stream's.
type blocks[T any] struct {
	all  [][]T
	next int
	cur  []T
}

// add stores v and returns its record.
func (bl *blocks[T]) add(v T) *T {
	if len(bl.cur) == cap(bl.cur) {
		if bl.next < len(bl.all) {
			bl.cur = bl.all[bl.next][:0]
		} else {
			bl.cur = make([]T, 0, min(max(2*cap(bl.cur), firstCallChunk), callChunk))
			bl.all = append(bl.all, bl.cur)
		}
		bl.next++
	}
	bl.cur = append(bl.cur, v)
	return &bl.cur[len(bl.cur)-1]
}

// reset frees the kept blocks for new records; the records they hold are
// overwritten as new ones are added.
func (bl *blocks[T]) reset() {
	n, kept := 0, 0
	for kept < len(bl.all) && n+cap(bl.all[kept]) <= maxKeptRecords {
		n += cap(bl.all[kept])
		kept++
	}
	clear(bl.all[kept:])
	bl.all = bl.all[:kept]
	bl.cur, bl.next = nil, 0
}

// lists are the arrays of a summary's lists, kept for the next stream's
// summary.
type lists struct {
	calls  []ToolCall
	turns  []Turn
	stalls []Stall
	ids    []string
	keys   []reviewKey
	notes  []FlagNote
	// slab holds the values the lists point to.
	slab callSlab
}

// listOf returns an array of n elements for a list, which the caller
// writes whole: *keep's when it is large enough, else a new one, which
// *keep then is unless it is past maxKeptList.
func listOf[T any](keep *[]T, n int) []T {
	if cap(*keep) >= n && *keep != nil {
		return (*keep)[:n]
	}
	s := make([]T, n)
	if n <= maxKeptList {
		*keep = s
	}
	return s
}

// keptList returns s emptied for the next stream, or nil past
// maxKeptList.
func keptList[T any](s []T) []T {
	if cap(s) > maxKeptList {
		return nil
	}
	return s[:0]
}

// keptTable returns m cleared for the next stream, or a new map past
// maxKeptList entries.
func keptTable[K comparable, V any](m map[K]V) map[K]V {
	if m == nil || len(m) > maxKeptList {
		return map[K]V{}
	}
	clear(m)
	return m
}

// Reset makes b a builder for a new stream, as NewBuilder(opt) makes one,
// that reuses what it made for the last: its records' blocks, its tables,
// the tool names it interned, and its lists' arrays. The summary and the
// review events the last Finish returned must be done with: the new
// stream's records, and its summary's ToolCalls, Stalls and Turns (their
// flag notes included), are made in the same memory. The summary's own
// FlagNotes and OutcomeEvidence are copies of their own.
func (b *Builder) Reset(opt Options) {
	opt = opt.withDefaults()
	calls, turns, lists, texts := b.callRecs, b.turnRecs, b.lists, b.texts
	if b.scribble || view.ScribblingAll() {
		texts.scribble()
	}
	calls.reset()
	turns.reset()
	lists.slab.reset()
	texts.reset()
	tail, stderr := b.tail, b.stderr
	tail.reset()
	stderr.reset()
	*b = Builder{
		opt: opt, project: opt.window(),
		msgTurn: keptTable(b.msgTurn), callByID: keptTable(b.callByID), interned: b.interned,
		turns: keptList(b.turns), calls: keptList(b.calls), prompts: keptList(b.prompts),
		stalls: keptList(b.stalls), projected: keptList(b.projected), notes: keptList(b.notes), say: keptList(b.say),
		callRecs: calls, turnRecs: turns, lists: lists, texts: texts,
		tail: tail, stderr: stderr, final: keptList(b.final), result: keptList(b.result),
		scribble: b.scribble,
	}
}

const (
	// textBlock is the size of a block of record strings; a string past a
	// quarter of it has an array of its own.
	textBlock = 8 << 10
	// maxKeptText bounds the blocks of record strings a Reset builder
	// keeps.
	maxKeptText = 1 << 20
)

// textBlocks holds the strings of a builder's records (ids, titles, input
// summaries, outcomes, errors, prompts) in blocks, several to one array,
// rather than each in its own. A Reset builder writes the next stream's
// over the last's: nothing else may keep them, and the summary's own
// strings (its session id, model, final message) are copies of their own.
type textBlocks struct {
	all  [][]byte
	next int
	cur  []byte
}

// keep returns a kept copy of s followed by marker.
func (t *textBlocks) keep(s, marker string) string { return keepText(t, s, marker) }

// keepText is keep for a string or the bytes of one (a sentence being
// written), which it copies as they are.
func keepText[T string | []byte](t *textBlocks, s T, marker string) string {
	n := len(s) + len(marker)
	if n == 0 {
		return ""
	}
	if n > textBlock/4 {
		return string(s) + marker
	}
	if cap(t.cur)-len(t.cur) < n {
		if t.next < len(t.all) {
			t.cur = t.all[t.next][:0]
		} else {
			t.cur = make([]byte, 0, textBlock)
			t.all = append(t.all, t.cur)
		}
		t.next++
	}
	start := len(t.cur)
	t.cur = append(append(t.cur, s...), marker...)
	return view.String(t.cur[start:])
}

// scribble overwrites every block (tests: a string the builder keeps past
// Reset that is a view of its blocks shows).
func (t *textBlocks) scribble() {
	for _, blk := range t.all {
		view.Scribble(blk[:cap(blk)])
	}
}

// reset frees the kept blocks for the next stream's strings.
func (t *textBlocks) reset() {
	if n := maxKeptText / textBlock; len(t.all) > n {
		clear(t.all[n:])
		t.all = t.all[:n]
	}
	t.cur, t.next = nil, 0
}

// kept returns a copy of s in the builder's record strings.
func (b *Builder) kept(s string) string { return b.texts.keep(s, "") }

// keptID is keepID in the builder's record strings.
func (b *Builder) keptID(s string) string {
	if len(s) <= MaxCallID {
		return b.kept(s)
	}
	return idKey(s)
}

// clipLine and clipText are the functions of those names, kept in the
// builder's record strings.
func (b *Builder) clipLine(s string, n int) string { return b.texts.keep(clippedLine(s, n)) }

func (b *Builder) clipText(s string, n int) string { return b.texts.keep(clipped(s, n, false)) }
