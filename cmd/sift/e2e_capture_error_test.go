package main

import (
	"bytes"
	"errors"
	"net/http"
	"os/exec"
	"slices"
	"testing"
)

// e2eModelError is the message of the scripted model failure. It must not
// look like a context overflow: Claude Code answers "prompt is too long"
// by compacting.
const e2eModelError = "sift scripted failure: the request was refused"

// e2eModelFailure has the model server refuse the second request with a
// 400, which the CLIs do not retry: the CLI reports the error and exits
// non-zero, sift exits with its code, and the stored run is an error with
// the one tool call that ran before.
func e2eModelFailure(t *testing.T, sift string, c e2eCLI) {
	c.script = c.script.FailAt(1, http.StatusBadRequest, e2eModelError)
	srv := c.server(c.script)
	t.Cleanup(srv.Close)
	r, p := e2eStart(t, sift, c, srv)
	err := p.wait(t, r, srv)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() <= 0 {
		t.Fatalf("sift run: %v, want the agent's non-zero exit code", err)
	}
	code := ee.ExitCode()
	r.file = e2eStreamFile(t, r.logs, r.workItem)
	e2eCheckSummaryLine(t, c, r, code)
	r.data = e2eRead(t, r.file)
	if *e2eRecord {
		e2eRecordFiles(t, c, r, "model-error", false)
	}
	if !bytes.Contains(r.data, []byte(e2eModelError)) {
		t.Errorf("the stream file does not hold the server's error %q", e2eModelError)
	}
	t.Run("redaction", func(t *testing.T) { e2eCheckRedaction(t, r) })
	t.Run("lines", func(t *testing.T) { e2eCheckLines(t, c, r) })
	t.Run("invocation", func(t *testing.T) { e2eInvocation(t, c, r, code) })
	t.Run("store", func(t *testing.T) {
		s := e2eStored(t, sift, c, r)
		if (s.Outcome != "failed" && s.Outcome != "died_before_start") || !slices.Contains(s.Flags, "harness_error") || !slices.Contains(s.Flags, "run_failed") {
			t.Errorf("stored outcome %q flags %v, want a failure with harness_error and run_failed", s.Outcome, s.Flags)
		}
		if len(s.ToolCalls) != 1 || s.ToolCalls[0].Success == nil || !*s.ToolCalls[0].Success {
			t.Errorf("tool calls %+v, want the one that succeeded before the failure", s.ToolCalls)
		}
	})
}
