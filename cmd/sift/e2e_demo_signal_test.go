package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// demoFolders lists the demo's temporary folders under tmp.
func demoFolders(t *testing.T, tmp string) []string {
	t.Helper()
	got, err := filepath.Glob(filepath.Join(tmp, "sift-demo-*"))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// waitGone waits until the demo's temporary folder under tmp is gone.
func waitGone(t *testing.T, tmp, how string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); len(demoFolders(t, tmp)) > 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the demo left %v behind", how, demoFolders(t, tmp))
		}
	}
}

// startDemo runs sift demo in tmux with its temporary folder under tmp,
// and waits for its inbox.
func startDemo(t *testing.T, tmp string) *tmuxTerm {
	t.Helper()
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	tm, _, _ := startInTmux(t, func(bin, dir string) string { return "TMPDIR=" + tmp + " " + bin + " demo" })
	tm.waitFor("the demo's inbox", "sift demo ·")
	if n := len(demoFolders(t, tmp)); n != 1 {
		t.Fatalf("%d demo folders while it runs", n)
	}
	return tm
}

// TestDemoCleansUpOnHangup closes the demo's terminal (tmux kills the
// session: SIGHUP to its processes) and kills another demo with SIGTERM:
// each removes its temporary folder, as q does (issue 29, item 9: a
// closed terminal left a 21 MB folder behind).
func TestDemoCleansUpOnHangup(t *testing.T) {
	dir := t.TempDir()
	hup := filepath.Join(dir, "hup")
	tm := startDemo(t, hup)
	tm.run("kill-session", "-t", tm.name)
	waitGone(t, hup, "SIGHUP")

	term := filepath.Join(dir, "term")
	tm = startDemo(t, term)
	shell := strings.TrimSpace(tm.run("display-message", "-p", "-t", tm.name, "#{pane_pid}"))
	kids, err := os.ReadFile(filepath.Join("/proc", shell, "task", shell, "children"))
	if err != nil {
		t.Skipf("no /proc children list to find the demo's process: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(kids)))
	if err != nil {
		t.Fatalf("the pane's shell has children %q", kids)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitGone(t, term, "SIGTERM")
}
