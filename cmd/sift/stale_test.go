package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledRunIsEndedAtNextStart SIGKILLs a real `sift run` while its
// agent works: the next command that opens the store ends the run, its
// work item completes, and its file is imported rather than deferred.
func TestKilledRunIsEndedAtNextStart(t *testing.T) {
	sift := e2eBuildSift(t)
	e := newRunEnv(t, "")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(e.dir, "config"))
	pidFile := filepath.Join(e.dir, "agent.pid")
	fixture, err := filepath.Abs(runFixture)
	if err != nil {
		t.Fatal(err)
	}
	agent := fakeAgent(t, e.dir, "claude", `echo $$ > `+pidFile+`
cat `+fixture+`
exec sleep 60
`)
	cmd := exec.Command(sift, "run", "--config", e.config, "--db", e.db, "--agent", "claude",
		"--work-item", "wi-killed", "--bin", agent, "--", "-p", "hi")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(e.dir, "config"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Whether or not the agent outlives sift is another test's
		// concern; this one leaves no process behind.
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	// Wait until the agent has written its stream and the run is
	// recorded (the work item is running, so an import defers the file).
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, _, _ := siftCmd(t, "import", "--db", e.db, "--logs", e.logs)
		if strings.Contains(out, "1 deferred") {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the run never showed as running: %q", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	out, errOut, code := siftCmd(t, "import", "--db", e.db, "--logs", e.logs)
	if code != 0 || strings.Contains(out, "deferred") {
		t.Fatalf("import after sift run was killed: %d %q %q", code, out, errOut)
	}
	out, _, _ = siftCmd(t, "list", "--db", e.db, "--json")
	if !strings.Contains(out, `"workItemId": "wi-killed"`) && !strings.Contains(out, `"workItemId":"wi-killed"`) {
		t.Fatalf("the killed run's session is not listed: %s", out)
	}
}
