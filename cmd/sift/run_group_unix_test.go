//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunCommandKilledTakesTheAgentGroup SIGKILLs the sift binary's `sift
// run` while its agent and a tool the agent started (one that ignores
// SIGTERM and SIGHUP) are running: both must end with sift instead of
// living on as orphans (#12, lifecycle).
func TestRunCommandKilledTakesTheAgentGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the sift binary")
	}
	t.Parallel()
	sift := e2eBuildSift(t)
	e := newRunEnv(t, "")
	pids := filepath.Join(e.dir, "pids")
	agent := fakeAgent(t, e.dir, "claude", `(trap '' TERM HUP; exec sleep 300) &
echo "$$ $!" > `+pids+`.tmp && mv `+pids+`.tmp `+pids+`
echo '{"type":"ready"}'
wait
`)
	cmd := exec.Command(sift, "run", "--config", e.config, "--db", e.db, "--agent", "claude", "--bin", agent, "--work-item", "wi-kill")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"ready"`) {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("sift run ended before the agent was ready")
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill() //nolint:errcheck
		t.Fatal("the agent never got ready")
	}
	data, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	var procs []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		procs = append(procs, pid)
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) }) //nolint:errcheck // a failed test leaves nothing behind
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() //nolint:errcheck // killed
	for _, pid := range procs {
		deadline := time.Now().Add(20 * time.Second)
		for running(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d outlived the killed sift run", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// running reports whether pid is a process that has not exited (a zombie
// waiting for its reaper has).
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return runtime.GOOS != "linux"
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}
