package capture

import (
	"strconv"
	"sync"
)

// maxBehind is how far the redactor may fall behind the agent's output
// (#12, item 4): a line that would put it further behind is not queued but
// skipped, and the file gets a marker in its place, never the line
// unredacted. A line that arrives while the redactor is idle is always
// queued, however long, so that one long line alone is still written.
const maxBehind = 8 << 20

// lineCost is charged to the backlog for each queued line on top of its
// bytes: it covers the queue entry of the line and of a skip entry that
// may follow it, so a flood of empty lines is bounded like a flood of long
// ones.
const lineCost = 128

// SkippedType is the type of the JSON line that stands, in a structured
// stream file, for a run of lines that were not redacted in time:
// {"type":"sift.redaction_skipped","lines":N,"bytes":B,"text":"…"}.
const SkippedType = "sift.redaction_skipped"

// skipMarker returns the marker line of a run of skipped lines: a JSON
// line in structured mode, a bracketed text line in plaintext mode.
func skipMarker(mode Mode) func(lines, bytes int64) []byte {
	return func(lines, bytes int64) []byte {
		text := strconv.FormatInt(lines, 10) + " lines (" + strconv.FormatInt(bytes, 10) +
			" bytes) not redacted in time, not written"
		if mode == Structured {
			return []byte(`{"type":"` + SkippedType + `","lines":` + strconv.FormatInt(lines, 10) +
				`,"bytes":` + strconv.FormatInt(bytes, 10) + `,"text":"` + text + `"}`)
		}
		return []byte("[..." + text + "]")
	}
}

// stream names the agent's output a line came from.
type stream uint8

const (
	outStream stream = iota
	errStream
)

// pending is one entry of the queue: a line of one stream (with the count
// of bytes cut from it), or, when skipLines > 0, a run of lines that were
// skipped, with what they did to each stream's key-block state.
type pending struct {
	s                    stream
	b                    []byte
	cut                  int64
	skipLines, skipBytes int64
	keys                 [2]keyStep
}

// cost is what a line holds against maxBehind.
func (p *pending) cost() int64 { return int64(len(p.b)) + 1 + lineCost }

// lineQueue hands complete lines from the pipe readers to the one
// redactor goroutine, in order. push never waits for the redactor: the
// readers keep the agent's pipes drained whatever the redactor does.
// Memory is bounded by maxBehind plus the one line that may be queued
// while the redactor is idle.
type lineQueue struct {
	mu    sync.Mutex
	cond  sync.Cond
	items []pending
	head  int
	// behind is the cost of the lines queued or being redacted.
	behind int64
	// slab is the buffer short lines are copied into (see copyLine).
	slab []byte
	// current is the line being redacted (skipLines 0) or nothing.
	current   *pending
	closed    bool // no more lines: the redactor stops once drained
	abandoned bool // the run is over: the redactor stops now
	// onSkip takes a run of skipped lines as the redactor reaches it, in
	// order with the lines and under the lock, so abandon never counts a
	// run twice nor misses one.
	onSkip func(p *pending)
}

func newLineQueue(onSkip func(p *pending)) *lineQueue {
	q := &lineQueue{onSkip: onSkip}
	q.cond.L = &q.mu
	return q
}

// push queues a complete line of stream s, or skips it when the redactor
// is more than maxBehind behind; wake then tells the redactor. b may be
// kept only when owned; otherwise it is copied.
func (q *lineQueue) push(s stream, b []byte, cut int64, owned bool) {
	cost := int64(len(b)) + 1 + lineCost
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	if q.behind > 0 && q.behind+cost > maxBehind {
		q.mu.Unlock()
		// The scan of a long line runs unlocked; the lines of one stream
		// come from one reader, so their order holds.
		step := keyStepOf(b)
		q.mu.Lock()
		q.skip(s, int64(len(b))+cut+1, step)
		q.mu.Unlock()
		return
	}
	if !owned {
		b = q.copyLine(b)
	}
	q.items = append(q.items, pending{s: s, b: b, cut: cut})
	q.behind += cost
	q.mu.Unlock()
}

// wake tells the redactor that lines are queued. The readers call it once
// per read from the pipe rather than per line, so that a redactor that
// keeps up is woken once per read.
func (q *lineQueue) wake() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head < len(q.items) {
		q.cond.Signal()
	}
}

// slabSize is the size of the buffers short lines are copied into, so
// that queuing a line costs no allocation of its own. Lines are redacted
// in order, so a slab is released once its last line is: the slabs hold
// at most one slab more than the backlog.
const slabSize = 64 << 10

// copyLine copies a line the caller does not own into the current slab.
func (q *lineQueue) copyLine(b []byte) []byte {
	if len(b) > slabSize/4 {
		return append([]byte(nil), b...)
	}
	if cap(q.slab)-len(q.slab) < len(b) {
		q.slab = make([]byte, 0, slabSize)
	}
	start := len(q.slab)
	q.slab = append(q.slab, b...)
	return q.slab[start:len(q.slab):len(q.slab)]
}

// skip adds a line of n bytes to the run of skipped lines at the end of
// the queue, with its effect on its stream's key-block state, so that a
// private key whose BEGIN line was skipped is still redacted on the lines
// that follow.
func (q *lineQueue) skip(s stream, n int64, step keyStep) {
	if q.closed {
		return
	}
	if i := len(q.items); i == q.head || q.items[i-1].skipLines == 0 {
		q.items = append(q.items, pending{})
	}
	last := &q.items[len(q.items)-1]
	last.skipLines++
	last.skipBytes += n
	last.keys[s] = last.keys[s].then(step)
}

// next waits for the next line, handing the runs of skipped lines before
// it to onSkip. It returns false once the queue is closed and drained, or
// abandoned.
func (q *lineQueue) next() (pending, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for !q.abandoned && q.head == len(q.items) && !q.closed {
			q.cond.Wait()
		}
		if q.abandoned || q.head == len(q.items) {
			return pending{}, false
		}
		p := q.items[q.head]
		q.items[q.head] = pending{} // the queue no longer holds the line
		q.head++
		if q.head == len(q.items) {
			q.items, q.head = q.items[:0], 0
		}
		if p.skipLines > 0 {
			if q.onSkip != nil {
				q.onSkip(&p)
			}
			continue
		}
		q.current = &p
		return p, true
	}
}

// done marks the current entry written and reports whether the queue is
// empty (the redactor has caught up).
func (q *lineQueue) done(p *pending) (idle bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.behind -= p.cost()
	q.current = nil
	return q.head == len(q.items)
}

// close tells the redactor that no more lines come.
func (q *lineQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.cond.Broadcast()
}

// abandon stops the redactor and returns the lines, and their bytes, that
// it will not write: those queued, skipped or being redacted. A line the
// redactor wrote in the instant before may be counted too; a line is never
// written after abandon, since the sink is closed next.
func (q *lineQueue) abandon() (lines, bytes int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed, q.abandoned = true, true
	q.cond.Broadcast()
	count := func(p *pending) {
		if p.skipLines > 0 {
			lines += p.skipLines
			bytes += p.skipBytes
			return
		}
		lines++
		bytes += int64(len(p.b)) + p.cut + 1
	}
	if q.current != nil {
		count(q.current)
	}
	for i := q.head; i < len(q.items); i++ {
		count(&q.items[i])
	}
	q.items, q.head = nil, 0
	return lines, bytes
}

// backlog returns the cost of what the redactor has still to do.
func (q *lineQueue) backlog() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.behind
}
