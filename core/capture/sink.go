package capture

import (
	"bufio"
	"fmt"
	"io"
	"sync"
	"time"
)

// Sink writes the lines of one stream file: whole lines, from the stdout
// and stderr readers in turn, up to a size cap. Past the cap it drops
// every later line and, at Close, writes one `[...truncated by N bytes]`
// line. It is best effort: the first write error is reported through warn
// once and later lines are discarded, so the agent run goes on.
type Sink struct {
	mu      sync.Mutex
	timer   *time.Timer // a pending FlushSoon
	w       *bufio.Writer
	c       io.Closer
	max     int64 // cap in bytes; 0 means none
	written int64
	dropped int64
	full    bool
	closed  bool
	err     error
	warn    func(error)
}

// NewSink returns a sink writing to w (closed by Close when it is an
// io.Closer) with a cap of max bytes (0: none). warn gets the first error.
func NewSink(w io.Writer, max int64, warn func(error)) *Sink {
	s := &Sink{w: bufio.NewWriterSize(w, 256<<10), max: max, warn: warn}
	if c, ok := w.(io.Closer); ok {
		s.c = c
	}
	return s
}

// WriteLine writes one line and a newline; line must not hold one.
func (s *Sink) WriteLine(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := int64(len(line)) + 1
	if s.full || (s.max > 0 && s.written+n > s.max) {
		s.full = true
		s.dropped += n
		return
	}
	if s.err != nil {
		return
	}
	s.written += n
	if _, err := s.w.Write(line); err != nil {
		s.fail(err)
		return
	}
	if err := s.w.WriteByte('\n'); err != nil {
		s.fail(err)
	}
}

// Drop counts n bytes of a line that was never written because it alone
// was too long for the file; the cap is then reached.
func (s *Sink) Drop(n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.full = true
	s.dropped += n
}

// Room reports how many more bytes fit under the cap (-1: no cap).
func (s *Sink) Room() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.max == 0 {
		return -1
	}
	if s.full {
		return 0
	}
	return s.max - s.written
}

// Flush hands buffered lines to the file, so a reader sees them as they
// arrive.
func (s *Sink) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil && !s.closed {
		if err := s.w.Flush(); err != nil {
			s.fail(err)
		}
	}
}

// flushDelay bounds how long a line waits in the buffer after FlushSoon.
const flushDelay = 100 * time.Millisecond

// FlushSoon flushes within flushDelay: for a reader that got a full pipe
// buffer, more output is already waiting, so one write can carry both.
func (s *Sink) FlushSoon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer == nil && !s.closed {
		s.timer = time.AfterFunc(flushDelay, func() {
			s.mu.Lock()
			s.timer = nil
			s.mu.Unlock()
			s.Flush()
		})
	}
}

// Close writes the truncation marker when lines were dropped, flushes and
// closes the file. It reports the first error, which warn has already
// seen.
func (s *Sink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if s.dropped > 0 && s.err == nil {
		if _, err := fmt.Fprintf(s.w, "[...truncated by %d bytes]\n", s.dropped); err != nil {
			s.fail(err)
		}
	}
	if s.err == nil {
		if err := s.w.Flush(); err != nil {
			s.fail(err)
		}
	}
	if s.c != nil {
		if err := s.c.Close(); err != nil && s.err == nil {
			s.fail(err)
		}
		s.c = nil
	}
	s.closed = true
	return s.err
}

// Stats returns the bytes written and dropped so far.
func (s *Sink) Stats() (written, dropped int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written, s.dropped
}

// fail records the first error and warns once.
func (s *Sink) fail(err error) {
	if s.err != nil {
		return
	}
	s.err = err
	if s.warn != nil {
		s.warn(err)
	}
}
