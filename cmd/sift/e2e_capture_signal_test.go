package main

import (
	"errors"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/mockllm"
)

// e2eStopWithin bounds how long sift run may take to exit after SIGTERM.
const e2eStopWithin = 20 * time.Second

// e2eInterrupt stops `sift run` with SIGTERM while the real CLI waits on
// the model for its final answer: sift forwards the signal to the agent's
// process group, exits with the agent's code, and leaves a closed, redacted
// stream file, a finished invocation record and an interrupted run behind.
func e2eInterrupt(t *testing.T, sift string, c e2eCLI) {
	// The final answer never comes in time: the server holds the request
	// until the CLI goes away.
	script := c.script
	script.Steps = append(script.Steps[:0:0], script.Steps...)
	final := len(script.Steps) - 1
	script.Steps[final].Delay = time.Minute
	srv := c.server(script)
	t.Cleanup(srv.Close)
	r, p := e2eStart(t, sift, c, srv)

	deadline := time.Now().Add(e2eTimeout)
	for !e2eAsked(srv.Requests(), final) {
		if time.Now().After(deadline) {
			p.cmd.Process.Kill() //nolint:errcheck // the test fails anyway
			p.wait(t, r, srv)    //nolint:errcheck
			t.Fatalf("the CLI never asked for the final answer")
		}
		time.Sleep(50 * time.Millisecond)
	}
	sent := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := p.wait(t, r, srv)
	if d := time.Since(sent); d > e2eStopWithin {
		t.Errorf("sift run took %v to exit after SIGTERM, want under %v", d, e2eStopWithin)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() <= 0 {
		t.Fatalf("sift run after SIGTERM: %v, want the agent's non-zero exit code", err)
	}
	code := ee.ExitCode()
	r.file = e2eStreamFile(t, r.logs, r.workItem)
	e2eCheckSummaryLine(t, c, r, code)
	r.data = e2eRead(t, r.file)
	if len(r.data) == 0 || r.data[len(r.data)-1] != '\n' {
		t.Errorf("the stream file does not end with a whole line: %q", r.data[max(0, len(r.data)-80):])
	}
	t.Run("redaction", func(t *testing.T) { e2eCheckRedaction(t, r) })
	t.Run("lines", func(t *testing.T) { e2eCheckLines(t, e2eCLI{bin: c.bin}, r) })
	t.Run("invocation", func(t *testing.T) { e2eInvocation(t, c, r, code) })
	t.Run("store", func(t *testing.T) {
		s := e2eStored(t, sift, c, r)
		// Interrupted when the agent died of the signal (exit 128+N);
		// an agent that handles SIGTERM and exits 1 failed.
		want := "failed"
		if code > 128 {
			want = "interrupted"
		}
		if s.Outcome != want || !slices.Contains(s.Flags, "run_failed") {
			t.Errorf("stored outcome %q flags %v after exit %d, want %s with run_failed", s.Outcome, s.Flags, code, want)
		}
		// The first two steps were played in full before the signal.
		if len(s.ToolCalls) != 2 {
			t.Errorf("%d tool calls stored, want the 2 played before the signal", len(s.ToolCalls))
		}
	})
}

// e2eAsked reports whether the server got a request for script step n.
func e2eAsked(reqs []mockllm.Request, n int) bool {
	for _, q := range reqs {
		if q.Step == n {
			return true
		}
	}
	return false
}
