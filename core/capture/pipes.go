package capture

import (
	"io"
	"os"
)

// pipeReader is one of the agent's output pipes, read on a goroutine of
// its own into a splitter. sift holds the read end; exec hands the write
// end w to the agent as a file, so that Wait waits for the agent only, not
// for a copy. The run can then stop reading when it chooses: a copy stuck
// writing to sift's own stdout, or a pipe a leftover tool holds open,
// cannot hold sift.
type pipeReader struct {
	r, w *os.File
	// done is closed when the reader returns.
	done chan struct{}
}

// newPipeReader makes a pipe and starts copying its read end into dst.
func newPipeReader(dst io.Writer) (*pipeReader, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p := &pipeReader{r: r, w: w, done: make(chan struct{})}
	go p.copy(dst)
	return p, nil
}

// copy reads until the pipe ends or is closed. dst never fails (see
// lineSplitter.Write).
func (p *pipeReader) copy(dst io.Writer) {
	defer close(p.done)
	buf := make([]byte, 32<<10)
	for {
		n, err := p.r.Read(buf)
		if n > 0 {
			dst.Write(buf[:n]) //nolint:errcheck // see above
		}
		if err != nil {
			return
		}
	}
}

// started closes sift's copy of the write end: the agent has its own.
func (p *pipeReader) started() {
	if p != nil && p.w != nil {
		p.w.Close()
		p.w = nil
	}
}

// stop closes the read end, which ends a read in progress.
func (p *pipeReader) stop() {
	if p != nil {
		p.started()
		p.r.Close()
	}
}
