package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/cmd/sift/internal/mockllm"
)

// e2eSleepingClaude is the claude CLI of the capture tests with a script
// whose failing command first sleeps: the run is in its Bash call for a
// few seconds.
func e2eSleepingClaude(t *testing.T) e2eCLI {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: skipped in -short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("end-to-end: the pinned CLIs are installed for linux")
	}
	c := e2eCLIs()[0]
	if c.kind != "claude" {
		t.Fatalf("the first CLI is %s, want claude", c.kind)
	}
	e2eNeed(t, c)
	c.script.Steps = append(c.script.Steps[:0:0], c.script.Steps...)
	c.script.Steps[1].Shell = "sleep 10; " + mockllm.FailingCommand
	return c
}

// e2eRunningRow waits for the open inbox to show the run as running in
// its Bash call: "running · Bash", or "stalled · Bash" once the call has
// outlasted the configured stall threshold of 1 s.
func e2eRunningRow(t *testing.T, tm *tmuxTerm, workItem string) {
	t.Helper()
	s := tm.waitFor("the running run", workItem, "· Bash")
	if !strings.Contains(s, "running · Bash") && !strings.Contains(s, "stalled · Bash") {
		t.Fatalf("the run is not shown as running in its Bash call:\n%s", s)
	}
}

// e2eRunningInInbox starts the sleeping claude through sift run, opens
// the inbox on its store once it exists, and waits for the inbox to show
// the run in its Bash call.
func e2eRunningInInbox(t *testing.T) (e2eCLI, string, *mockllm.Server, *e2eRun, *e2eProc, *tmuxTerm) {
	t.Helper()
	c := e2eSleepingClaude(t)
	bin := e2eBuildSift(t)
	srv := c.server(c.script)
	t.Cleanup(srv.Close)
	r, p := e2eStart(t, bin, c, srv)
	e2eWaitDB(t, r.db)
	tm := e2eTmuxInbox(t, bin, r.db)
	e2eRunningRow(t, tm, r.workItem)
	return c, bin, srv, r, p, tm
}

// e2eWaitDB waits for `sift run` to create its store.
func e2eWaitDB(t *testing.T, db string) {
	t.Helper()
	deadline := time.Now().Add(e2eTimeout)
	for {
		if _, err := os.Stat(db); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("sift run never created its store")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEndToEndRunningRunInInbox runs the real claude CLI through sift run
// against the scripted server, with a Bash call that takes seconds, while
// the inbox is open on its store: the inbox shows the run as running in
// its Bash call, then finished, with its final words; the stored figures
// are those `sift summary` gives for the file.
func TestEndToEndRunningRunInInbox(t *testing.T) {
	c, bin, srv, r, p, tm := e2eRunningInInbox(t)
	if err := p.wait(t, r, srv); err != nil {
		t.Fatalf("sift run: %v", err)
	}
	r.file = e2eStreamFile(t, r.logs, r.workItem)
	s := tm.waitFor("the finished run", r.workItem, "All done")
	if strings.Contains(s, "· Bash") {
		t.Errorf("the finished run still shows its Bash call:\n%s", s)
	}

	summ := e2eFigures(t, e2eSift(t, bin, r.work, "summary", "--json", "--agent", c.kind, "--stall", "1s", r.file))
	var rows []map[string]any
	if err := json.Unmarshal(e2eSift(t, bin, r.work, "list", "--json", "--db", r.db), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 {
		t.Fatalf("sift list lists %d sessions, want 1", len(rows))
	}
	if _, live := rows[0]["live"]; live {
		t.Errorf("the finished run's row is still live: %v", rows[0]["live"])
	}
	for _, k := range []string{"lineCount", "byteCount", "toolCallCount", "errorCount", "estimatedUsd",
		"totalDurationMs", "status", "flags", "inputTokens", "outputTokens", "finalAssistantMessage"} {
		if !reflect.DeepEqual(rows[0][k], summ[k]) {
			t.Errorf("%s: stored %v, sift summary %v", k, rows[0][k], summ[k])
		}
	}
	// The stored summary is read within the invocation's window (sift run
	// recorded it): the wait before the CLI's first line may count as one
	// more stall than the file alone shows.
	if st, sm := rows[0]["stallCount"].(float64), summ["stallCount"].(float64); st < sm || st > sm+1 {
		t.Errorf("stallCount: stored %v, sift summary %v", st, sm)
	}
}

// e2eFigures decodes one summary of `sift summary --json`.
func e2eFigures(t *testing.T, out []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("sift summary --json: %v\n%s", err, out)
	}
	return m
}

// TestEndToEndKilledRunIsInterrupted kills `sift run` with SIGKILL in the
// middle of its Bash call while the inbox is open: the inbox shows the
// run interrupted, and the store has ended it.
func TestEndToEndKilledRunIsInterrupted(t *testing.T) {
	_, bin, srv, r, p, tm := e2eRunningInInbox(t)
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.wait(t, r, srv) //nolint:errcheck // killed: the error says so
	tm.waitFor("the killed run", r.workItem, "interrupted")

	var rows []map[string]any
	if err := json.Unmarshal(e2eSift(t, bin, r.work, "list", "--json", "--db", r.db), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0]["live"] != "interrupted" {
		t.Fatalf("sift list after the kill: %v", rows)
	}
	if f := filepath.Base(e2eStreamFile(t, r.logs, r.workItem)); rows[0]["fileName"] != f {
		t.Errorf("the interrupted row is %v, the file %s", rows[0]["fileName"], f)
	}
}
