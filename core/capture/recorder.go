package capture

import (
	"io"
	"os"
	"os/exec"
	"time"
)

// recorder is the capture side of one run: the file and its sink, the
// readers of the agent's pipes with their line splitters, and the
// redactor. The readers only pass output on and queue lines; the one
// redactor goroutine redacts and writes them in order, so a slow line
// never stalls the agent.
type recorder struct {
	file           string
	sink           *Sink
	stdout, stderr *lineSplitter
	// pipes are the agent's stdout and stderr pipes; nil when they could
	// not be made (the splitters are then exec's writers).
	pipes [2]*pipeReader
	queue *lineQueue
	// lines redact and write one line of each stream; keys are the
	// streams' key-block states. Only the redactor touches them.
	lines [2]func(b []byte, cut int64)
	keys  [2]keyBlock
	// deltas holds a structured stream's delta lines while their text is
	// in the redaction window (deltas.go); nil in plaintext mode.
	deltas *deltaLines
	delay  func(line []byte)
	// done is closed when the redactor returns.
	done   chan struct{}
	warned bool
	err    error
}

// newRecorder creates the file, the writers the agent's stdout and stderr
// are copied to, and starts the redactor. When the file cannot be created
// it warns and the writers only pass output through.
func newRecorder(s Spec, mode Mode) *recorder {
	r := &recorder{delay: s.redactDelay, done: make(chan struct{})}
	create := s.create
	if create == nil {
		create = func() (io.WriteCloser, string, error) {
			f, err := CreateFile(s.Root, s.WorkItem, s.Phase, Iteration(s.Phase, s.Iteration))
			if err != nil {
				return nil, "", err
			}
			return f, f.Name(), nil
		}
	}
	f, name, err := create()
	var w io.Writer = io.Discard
	if err != nil {
		r.err = err
		r.warned = true
		warn(s.Stderr, "capture: %v; running the agent without a stream file", err)
	} else {
		r.file = name
		w = f
	}
	r.sink = NewSink(w, s.MaxFileBytes, func(err error) {
		r.err = err
		if !r.warned {
			r.warned = true
			warn(s.Stderr, "capture %s: %v; the agent keeps running, the file is incomplete", r.file, err)
		}
	})
	r.sink.skipMarker = skipMarker(mode)
	maxLine := int(s.MaxFileBytes)
	if maxLine <= 0 {
		maxLine = 1 << 30
	}
	r.queue = newLineQueue(r.skipped)
	r.lines = [2]func([]byte, int64){r.stdoutLine(mode), r.stderrLine(mode)}
	r.stdout = &lineSplitter{pass: s.Stdout, max: maxLine, line: r.push(outStream), wake: r.queue.wake}
	r.stderr = &lineSplitter{pass: s.Stderr, max: MaxStderrLine, line: r.push(errStream), wake: r.queue.wake}
	go r.redact()
	return r
}

// push returns the function a splitter hands the lines of stream s to.
func (r *recorder) push(s stream) func(b []byte, cut int64, owned bool) {
	return func(b []byte, cut int64, owned bool) { r.queue.push(s, b, cut, owned) }
}

// redact is the redactor: it takes the queued lines in order, redacts and
// writes them, and flushes the file whenever it has caught up.
func (r *recorder) redact() {
	defer close(r.done)
	for {
		p, ok := r.queue.next()
		if !ok {
			// No more lines come: the held delta lines go out. After an
			// abandon the sink is closed and ignores them.
			r.deltas.Close()
			return
		}
		if r.delay != nil {
			r.delay(p.b)
		}
		r.lines[p.s](p.b, p.cut)
		if r.queue.done(&p) {
			r.sink.Flush()
		}
	}
}

// skipped takes a run of lines the queue skipped: the sink writes one
// marker for it, and each stream's key-block state moves on as if the
// lines had been redacted.
func (r *recorder) skipped(p *pending) {
	r.sink.Skip(p.skipLines, p.skipBytes)
	for i := range r.keys {
		r.keys[i].inside = p.keys[i].after(r.keys[i].inside)
	}
}

// attach makes cmd write to the recorder: to its own pipes when it has
// them (exec then starts no copy of its own that Wait would wait for),
// else to the splitters.
func (r *recorder) attach(cmd *exec.Cmd) {
	if r.pipes[outStream] == nil && r.pipes[errStream] == nil {
		out, oerr := newPipeReader(r.stdout)
		errp, eerr := newPipeReader(r.stderr)
		if oerr != nil || eerr != nil {
			out.stop()
			errp.stop()
		} else {
			r.pipes = [2]*pipeReader{out, errp}
		}
	}
	if r.pipes[outStream] == nil {
		cmd.Stdout, cmd.Stderr = r.stdout, r.stderr
		return
	}
	cmd.Stdout, cmd.Stderr = r.pipes[outStream].w, r.pipes[errStream].w
}

// started closes sift's copies of the write ends of the pipes once the
// agent has them (or failed to start), so the readers see the end of the
// output when the agent and its tools close theirs.
func (r *recorder) started() {
	for _, p := range r.pipes {
		p.started()
	}
}

// pipeLinger bounds how long a run waits for the agent's pipes to reach
// their end once the agent has exited: a tool it left running may hold
// them open.
const pipeLinger = 5 * time.Second

// close finishes the capture once the agent has exited. It waits up to
// wait (pipeLinger at most) for the pipes to reach their end and up to
// wait for the redactor to catch up; when either takes longer, or abort
// is closed first, it stops waiting: the lines not yet written are
// replaced by a skip marker, and the file is closed. A redactor still busy
// on a line then finishes it in the background and writes nothing; a
// reader stuck passing output to sift's own stdout returns once that write
// does.
func (r *recorder) close(wait time.Duration, abort <-chan struct{}) {
	t := time.NewTimer(min(wait, pipeLinger))
	defer t.Stop()
	timedOut := false
	for _, p := range r.pipes {
		if p == nil || timedOut {
			break
		}
		select {
		case <-p.done:
		case <-t.C:
			timedOut = true
		case <-abort:
			timedOut = true
		}
	}
	for _, p := range r.pipes {
		p.stop()
	}
	r.stdout.Close()
	r.stderr.Close()
	r.queue.close()
	t.Reset(wait)
	select {
	case <-r.done:
		r.sink.Close() //nolint:errcheck // reported through warn and r.err
		return
	case <-t.C:
	case <-abort:
	}
	r.sink.Abandon(r.queue.abandon()) //nolint:errcheck // as above
}

// abandon closes and removes the file of a run that never started.
func (r *recorder) abandon() {
	for _, p := range r.pipes {
		p.stop()
	}
	r.queue.abandon()
	r.sink.Close() //nolint:errcheck
	if r.file != "" {
		os.Remove(r.file)
	}
}
