package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInboxKeepsImportedSessionsInTmux reproduces issue 16's first bug:
// `sift import` of a folder of older streams, then the inbox opened with
// a logs folder that does not exist, then quit: the inbox's background
// retention sweep removed every summary older than 90 days by its start
// time, although its stream file was on disk, and `sift list` showed
// fewer sessions than the import wrote. Every session must survive, and
// the sweep's one line must show in the status line.
func TestInboxKeepsImportedSessionsInTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux): skipping the terminal end-to-end test")
	}
	if testing.Short() {
		t.Skip("builds and drives the binary")
	}
	dir := t.TempDir()
	isolate(t, dir)
	bin := e2eBuildSift(t)
	db := filepath.Join(dir, "sift.db")
	src := filepath.Join(dir, "older")
	// Recorded streams of months and years ago, as they were downloaded:
	// their files are new, their sessions old.
	n := 0
	for _, agent := range []string{"claude", "codex", "gemini"} {
		entries, err := os.ReadDir(filepath.Join("../../testdata/streams", agent))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join("../../testdata/streams", agent, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(src, agent), 0o755)
			if err := os.WriteFile(filepath.Join(src, agent, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	env := append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"HOME="+filepath.Join(dir, "home"))
	siftList := func() int {
		t.Helper()
		cmd := exec.Command(bin, "list", "--json", "--db", db)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("sift list: %v", err)
		}
		var rows []json.RawMessage
		if err := json.Unmarshal(out, &rows); err != nil {
			t.Fatalf("sift list --json: %v\n%s", err, out)
		}
		return len(rows)
	}
	cmd := exec.Command(bin, "import", "--db", db, src)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sift import: %v\n%s", err, out)
	}
	before := siftList()
	if before < n/2 {
		t.Fatalf("the import wrote %d sessions of %d files", before, n)
	}

	tm := &tmuxTerm{t: t, bin: tmux, sock: filepath.Join(dir, "tmux.sock"), name: "e2e"}
	rc := filepath.Join(dir, "rc")
	script := "env XDG_CONFIG_HOME=" + filepath.Join(dir, "config") + " XDG_DATA_HOME=" + filepath.Join(dir, "data") +
		" HOME=" + filepath.Join(dir, "home") + " " + bin + " --db " + db + " --logs /nonexistent 2>" +
		filepath.Join(dir, "stderr") + "; echo $? >" + rc + "; sleep 5"
	tm.run("-f", "/dev/null", "new-session", "-d", "-s", tm.name, "-x", "160", "-y", "40",
		"env", "TERM=xterm-256color", "LANG=C.UTF-8", "sh", "-c", script)
	t.Cleanup(func() { exec.Command(tmux, "-S", tm.sock, "kill-server").Run() })
	tm.waitFor("inbox", "sessions")
	// The sweep runs in the background at start: wait for its record.
	deadline := time.Now().Add(20 * time.Second)
	for {
		cmd := exec.Command(bin, "sweep", "--status", "--db", db, "--logs", "/nonexistent")
		cmd.Env = env
		out, _ := cmd.Output()
		if strings.Contains(string(out), "last successful sweep: ") && !strings.Contains(string(out), "never") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inbox never swept:\n%s\n%s", out, tm.screen())
		}
		time.Sleep(200 * time.Millisecond)
	}
	// The status line says what the sweep removed (it stays 5 s).
	var line string
	for deadline := time.Now().Add(5 * time.Second); line == "" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, l := range strings.Split(tm.screen(), "\n") {
			if strings.Contains(l, "retention: ") {
				line = strings.TrimSpace(l)
			}
		}
	}
	tm.keys("q")
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := os.Stat(rc); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the inbox did not quit:\n%s", tm.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if after := siftList(); after != before {
		t.Fatalf("sift list: %d sessions after opening the inbox, %d before: the inbox's sweep removed sessions whose files exist", after, before)
	}
	if !strings.Contains(line, "retention: removed 0 files, 0 sessions, review events of 0 sessions") {
		t.Fatalf("the sweep's status line: %q", line)
	}
}
