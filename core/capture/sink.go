package capture

import (
	"bufio"
	"fmt"
	"io"
	"sync"
)

// Sink writes the lines of one stream file: whole lines, from the
// redactor, up to a size cap. Past the cap it drops every later line and,
// at Close, writes one `[...truncated by N bytes]` line. Lines the
// redactor skipped are replaced by one skip marker per run (see Skip). It
// is best effort: the first write error is reported through warn once and
// later lines are discarded, so the agent run goes on. Once closed it
// ignores every later call, so a redactor that outlived the run cannot
// write.
type Sink struct {
	mu      sync.Mutex
	w       *bufio.Writer
	c       io.Closer
	max     int64 // cap in bytes; 0 means none
	written int64
	dropped int64
	full    bool
	closed  bool
	err     error
	warn    func(error)

	// skipLines and skipBytes are the run of skipped lines whose marker
	// is not written yet; skipMarker renders it; skippedLines and
	// skippedBytes count every skipped line.
	skipLines, skipBytes       int64
	skippedLines, skippedBytes int64
	skipMarker                 func(lines, bytes int64) []byte
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

// WriteLine writes one line and a newline; line must not hold one. The
// marker of a pending run of skipped lines goes first.
func (s *Sink) WriteLine(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.writeSkipMarker()
	s.write(line)
}

// write writes one line under the cap.
func (s *Sink) write(line []byte) {
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
	if s.closed {
		return
	}
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

// Skip records lines that were not redacted in time and so are not
// written: one marker line stands for a whole run of them, written before
// the next line or at Close.
func (s *Sink) Skip(lines, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skip(lines, bytes)
}

func (s *Sink) skip(lines, bytes int64) {
	if s.closed || lines <= 0 {
		return
	}
	s.skipLines += lines
	s.skipBytes += bytes
	s.skippedLines += lines
	s.skippedBytes += bytes
}

// writeSkipMarker writes the marker of the pending run of skipped lines.
func (s *Sink) writeSkipMarker() {
	if s.skipLines == 0 {
		return
	}
	if s.skipMarker != nil {
		s.write(s.skipMarker(s.skipLines, s.skipBytes))
	}
	s.skipLines, s.skipBytes = 0, 0
}

// Abandon closes the sink for a run whose redactor did not finish: lines
// (bytes) were never written, and the marker that says so is the file's
// last line before the truncation marker.
func (s *Sink) Abandon(lines, bytes int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skip(lines, bytes)
	return s.close()
}

// Close writes the truncation marker when lines were dropped, flushes and
// closes the file. It reports the first error, which warn has already
// seen.
func (s *Sink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.close()
}

func (s *Sink) close() error {
	if s.closed {
		return s.err
	}
	s.writeSkipMarker()
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

// Skipped returns the lines and bytes skipped so far (see Skip).
func (s *Sink) Skipped() (lines, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.skippedLines, s.skippedBytes
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
