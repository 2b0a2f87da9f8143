package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// liveWithin is how soon a write by another process must show in an open
// inbox: the inbox polls the store's version once a second.
const liveWithin = 2 * time.Second

// e2eTmuxInbox starts the inbox of the store db in a private tmux server,
// 160x36, the list without the preview pane, with an empty logs folder (no background import), and returns
// the terminal once the inbox is drawn. It skips without tmux.
func e2eTmuxInbox(t *testing.T, bin, db string, args ...string) *tmuxTerm {
	t.Helper()
	return e2eTmuxInboxEnv(t, bin, db, nil, args...)
}

// e2eTmuxInboxEnv is e2eTmuxInbox with more variables in the inbox's
// environment (VAR=value).
func e2eTmuxInboxEnv(t *testing.T, bin, db string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux): skipping the terminal end-to-end test")
	}
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	tm := &tmuxTerm{t: t, bin: tmux, sock: filepath.Join(dir, "tmux.sock"), name: "live"}
	script := strings.Join(append([]string{bin, "--db", db, "--logs", logs, "--reviewer", "e2e"}, args...), " ") +
		" 2>" + filepath.Join(dir, "stderr") + "; sleep 5"
	cmd := append([]string{"-f", "/dev/null", "new-session", "-d", "-s", tm.name, "-x", "160", "-y", "36",
		"env", "TERM=xterm-256color", "LANG=C.UTF-8", "XDG_CONFIG_HOME=" + dir}, env...)
	tm.run(append(cmd, "sh", "-c", script)...)
	t.Cleanup(func() { exec.Command(tmux, "-S", tm.sock, "kill-server").Run() })
	// The list alone, without the preview pane: room for the last words.
	tm.waitFor("the inbox", "sift · ")
	tm.keys("p")
	return tm
}

// waitWithin waits at most d for the screen to show every text.
func (tm *tmuxTerm) waitWithin(d time.Duration, what string, texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := tm.screen()
		ok := true
		for _, x := range texts {
			ok = ok && strings.Contains(s, x)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("%s: the screen did not show %q within %v:\n%s", what, texts, d, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// e2eLogsOf copies n recorded Claude streams into a logs folder as the
// sessions of work item wi.
func e2eLogsOf(t *testing.T, wi string, n int) string {
	t.Helper()
	src, err := filepath.Glob("../../testdata/streams/claude/*.jsonl")
	if err != nil || len(src) < n {
		t.Fatalf("want %d recorded claude streams, found %d (%v)", n, len(src), err)
	}
	logs := t.TempDir()
	dir := filepath.Join(logs, wi)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		b, err := os.ReadFile(src[i])
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "work-"+string(rune('1'+i))+"-abcde"+string(rune('0'+i))+".jsonl")
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return logs
}

// TestEndToEndLiveInbox opens the inbox on a store of one session, then,
// from other processes, imports five more and records a decision: each
// shows in the open inbox within two seconds, without r, its title's
// figures with it; r then shows the same count, and after a decision and
// an undo in the inbox itself, still the store's.
func TestEndToEndLiveInbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and drives the binary")
	}
	bin := e2eBuildSift(t)
	db := filepath.Join(t.TempDir(), "sift.db")
	e2eSift(t, bin, "", "import", "--db", db, e2eLogsOf(t, "ENG-1", 1))
	tm := e2eTmuxInbox(t, bin, db)
	tm.waitFor("inbox", "sift · 1 session · 1 to review")

	e2eSift(t, bin, "", "import", "--db", db, e2eLogsOf(t, "ENG-2", 5))
	s := tm.waitWithin(liveWithin, "an import by another process", "sift · 6 sessions")
	if n := strings.Count(s, "ENG-"); n < 6 {
		t.Fatalf("6 sessions in the title, %d rows drawn:\n%s", n, s)
	}
	out := string(e2eSift(t, bin, "", "list", "--db", db, "--json"))
	if strings.Count(out, `"workItemId": "ENG-2"`) != 5 {
		t.Fatalf("sift list does not list the 5 imported sessions:\n%s", out)
	}
	// Of the six, four are flagged (three of the five copies, and the
	// first): left to review.
	undecided := tm.waitFor("counts", "sift · 6 sessions · 4 to review")

	e2eSift(t, bin, "", "decide", "--db", db, "--decision", "reviewed", "--reviewer", "other", "ENG-1/work-1-abcde0.jsonl")
	tm.waitWithin(liveWithin, "a decision by another process", "sift · 6 sessions · 3 to review")

	tm.keys("r")
	s = tm.waitWithin(liveWithin, "r", "sift · 6 sessions · 3 to review")
	if !strings.Contains(undecided, "4 to review") || strings.Count(s, "ENG-") < 6 {
		t.Fatalf("after r:\n%s", s)
	}
}

// TestEndToEndClaims drives the real binary: a claim by another reviewer
// (sift claim, another process) shows in the open inbox within two
// seconds; c on it is refused naming her; her release shows as live; c
// then claims it for the inbox's reviewer, which sift search mine sees,
// and c again releases it.
func TestEndToEndClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and drives the binary")
	}
	bin := e2eBuildSift(t)
	db := filepath.Join(t.TempDir(), "sift.db")
	e2eSift(t, bin, "", "import", "--db", db, e2eLogsOf(t, "ENG-1", 1))
	const ref = "ENG-1/work-1-abcde0.jsonl"
	tm := e2eTmuxInbox(t, bin, db)
	tm.waitFor("inbox", "sift · 1 session · ")

	e2eSift(t, bin, "", "claim", "--db", db, "--reviewer", "ana", ref)
	tm.waitWithin(liveWithin, "a claim by another process", "@ana")
	tm.keys("c")
	tm.waitWithin(liveWithin, "c on ana's claim", "is claimed by ana")

	e2eSift(t, bin, "", "claim", "--db", db, "--reviewer", "ana", "--release", ref)
	s := tm.waitWithin(liveWithin, "her release", "sift · 1 session")
	for deadline := time.Now().Add(liveWithin); strings.Contains(s, "@ana"); s = tm.screen() {
		if time.Now().After(deadline) {
			t.Fatalf("ana's released claim still shows:\n%s", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tm.keys("c")
	tm.waitWithin(liveWithin, "c", "@e2e", "claimed ENG-1")
	if out := string(e2eSift(t, bin, "", "search", "--db", db, "--reviewer", "e2e", "--json", "mine")); !strings.Contains(out, "work-1-abcde0") {
		t.Fatalf("sift search mine does not find the inbox's claim:\n%s", out)
	}
	tm.keys("c")
	tm.waitWithin(liveWithin, "c again", "released ENG-1")
}
