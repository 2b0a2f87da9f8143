package capture

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// nopCloser is a file held in memory.
type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

// testRecorder returns a recorder writing into a buffer, its redactor
// stuck on SLOW lines until released.
func testRecorder(t *testing.T, mode Mode) (*recorder, *bytes.Buffer, *slowRedactor) {
	t.Helper()
	var file bytes.Buffer
	slow := newSlowRedactor(t)
	r := newRecorder(Spec{Stdout: io.Discard, Stderr: io.Discard, redactDelay: slow.delay,
		create: func() (io.WriteCloser, string, error) { return nopCloser{&file}, "mem", nil }}, mode)
	t.Cleanup(func() { r.queue.abandon() })
	return r, &file, slow
}

// TestQueueBoundedWhileRedactorStuck checks that memory stays bounded by
// the queue plus the longest line whatever the agent prints while the
// redactor is stuck: the backlog never passes maxBehind, except for one
// line that arrived while the redactor was idle.
func TestQueueBoundedWhileRedactorStuck(t *testing.T) {
	t.Parallel()
	for _, first := range []int{10, 20 << 20} {
		r, _, slow := testRecorder(t, Structured)
		r.stdout.Write(append(bytes.Repeat([]byte("x"), first), "SLOW\n"...))
		<-slow.entered
		limit := max(int64(maxBehind), int64(first)+5+lineCost)
		written := 0
		for i := 0; written < 40<<20; i++ {
			line := append(bytes.Repeat([]byte("y"), (i*7919)%(100<<10)), '\n')
			for rest := line; len(rest) > 0; {
				n := min(len(rest), 32<<10)
				r.stdout.Write(rest[:n])
				rest = rest[n:]
			}
			written += len(line)
			if b := r.queue.backlog(); b > limit {
				t.Fatalf("first line %d bytes: backlog %d after %d bytes, over %d", first, b, written, limit)
			}
		}
		held := 0
		r.queue.mu.Lock()
		for _, p := range r.queue.items[r.queue.head:] {
			held += len(p.b)
		}
		r.queue.mu.Unlock()
		if int64(held) > maxBehind {
			t.Errorf("the queue holds %d bytes of lines", held)
		}
		slow.free()
		r.close(time.Minute, nil)
	}
}

// TestSkippedKeyBeginStillRedactsTheBlock checks that a private key whose
// BEGIN line was skipped (the redactor far behind) is still redacted on
// the lines that follow once the redactor catches up: the skip keeps the
// key-block state.
func TestSkippedKeyBeginStillRedactsTheBlock(t *testing.T) {
	t.Parallel()
	r, file, slow := testRecorder(t, Plaintext)
	r.stdout.Write([]byte("SLOW first\n"))
	<-slow.entered
	// The backlog is now 10 bytes short of maxBehind: the BEGIN line
	// does not fit.
	filler := bytes.Repeat([]byte("x"), maxBehind-2*(1+lineCost)-len("SLOW first")-10)
	r.stdout.Write(append(filler, '\n'))
	begin := "-----BEGIN RSA PRIVATE KEY-----"
	r.stdout.Write([]byte(begin + "\n"))
	slow.free()
	waitFor(t, "the redactor catching up", 20*time.Second, func() bool { return r.queue.backlog() == 0 })
	r.stdout.Write([]byte("MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn\n-----END RSA PRIVATE KEY----- password=hunter2\nafter\n"))
	r.close(time.Minute, nil)
	lines := strings.Split(strings.TrimSuffix(file.String(), "\n"), "\n")
	want := []string{"SLOW first", string(filler), "[...1 lines (32 bytes) not redacted in time, not written]",
		"[REDACTED:private-key]", "[REDACTED:private-key] password=[REDACTED:password]", "after"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		for i := range lines {
			lines[i] = lines[i][:min(len(lines[i]), 80)]
		}
		t.Errorf("file %q", lines)
	}
}

// TestKeyStepComposes checks that the step of a run of lines is the steps
// of its lines applied in turn, from inside and outside a block.
func TestKeyStepComposes(t *testing.T) {
	t.Parallel()
	lines := []string{"a", "-----BEGIN EC PRIVATE KEY-----", "body", "-----END EC PRIVATE KEY-----",
		"x -----BEGIN PRIVATE KEY----- y -----END PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY-----"}
	for i := range lines {
		for j := i; j <= len(lines); j++ {
			var step keyStep
			for _, l := range lines[i:j] {
				step = step.then(keyStepOf([]byte(l)))
			}
			for _, inside := range []bool{false, true} {
				k := keyBlock{inside: inside}
				for _, l := range lines[i:j] {
					k.line([]byte(l))
				}
				if got := step.after(inside); got != k.inside {
					t.Errorf("lines %d..%d from inside=%v: step says %v, keyBlock %v", i, j, inside, got, k.inside)
				}
			}
		}
	}
}

// TestSinkSkipMarkers checks that a run of skipped lines gets one marker,
// written before the next line or at Close, and that a closed sink writes
// nothing more.
func TestSinkSkipMarkers(t *testing.T) {
	t.Parallel()
	var file bytes.Buffer
	s := NewSink(nopCloser{&file}, 0, nil)
	s.skipMarker = skipMarker(Plaintext)
	s.WriteLine([]byte("a"))
	s.Skip(2, 10)
	s.Skip(1, 5)
	s.WriteLine([]byte("b"))
	s.Skip(1, 1)
	s.Abandon(3, 30) //nolint:errcheck
	s.WriteLine([]byte("late"))
	s.Skip(1, 1)
	s.Close() //nolint:errcheck
	want := "a\n[...3 lines (15 bytes) not redacted in time, not written]\nb\n[...4 lines (31 bytes) not redacted in time, not written]\n"
	if file.String() != want {
		t.Errorf("file %q\nwant %q", file.String(), want)
	}
	if lines, bytes := s.Skipped(); lines != 7 || bytes != 46 {
		t.Errorf("skipped %d lines %d bytes", lines, bytes)
	}
}
