package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/review"
)

// tmuxTerm drives a program in a detached tmux session on a private
// server.
type tmuxTerm struct {
	t    *testing.T
	bin  string
	sock string
	name string
	// dir holds the program's exit status (rc) and stderr.
	dir string
}

func (tm *tmuxTerm) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command(tm.bin, append([]string{"-u", "-S", tm.sock}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is the visible pane.
func (tm *tmuxTerm) screen() string {
	out, err := exec.Command(tm.bin, "-u", "-S", tm.sock, "capture-pane", "-p", "-t", tm.name).CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

// waitFor waits until the screen shows every text.
func (tm *tmuxTerm) waitFor(what string, texts ...string) string {
	tm.t.Helper()
	return tm.waitWithin(20*time.Second, what, texts...)
}

// keys sends key names (tmux send-keys syntax).
func (tm *tmuxTerm) keys(ks ...string) {
	tm.t.Helper()
	tm.run(append([]string{"send-keys", "-t", tm.name}, ks...)...)
	time.Sleep(150 * time.Millisecond)
}

// startInTmux builds sift in a temp folder dir and runs the command line
// cmd(bin, dir) returns (after any setup it does) in a 120×40 tmux
// session; it skips without tmux or in -short mode. quit ends it.
func startInTmux(t *testing.T, cmd func(bin, dir string) string) (tm *tmuxTerm, bin, dir string) {
	t.Helper()
	return startInTmuxAt(t, 120, 40, cmd)
}

// startInTmuxAt is startInTmux in a terminal of w×h.
func startInTmuxAt(t *testing.T, w, h int, cmd func(bin, dir string) string) (tm *tmuxTerm, bin, dir string) {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux): skipping the terminal end-to-end test")
	}
	if testing.Short() {
		t.Skip("builds and drives the binary")
	}
	dir = t.TempDir()
	bin = filepath.Join(dir, "sift")
	goBuild(t, bin)
	tm = &tmuxTerm{t: t, bin: tmux, sock: filepath.Join(dir, "tmux.sock"), name: "e2e", dir: dir}
	script := cmd(bin, dir) + " 2>" + filepath.Join(dir, "stderr") + "; echo $? >" + filepath.Join(dir, "rc") + "; sleep 5"
	tm.run("-f", "/dev/null", "new-session", "-d", "-s", tm.name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h),
		"env", "TERM=xterm-256color", "LANG=C.UTF-8", "sh", "-c", script)
	t.Cleanup(func() { exec.Command(tmux, "-S", tm.sock, "kill-server").Run() })
	return tm, bin, dir
}

// quit presses q until the program (named what) exits 0: q backs out
// one screen at a time, and quits from the inbox.
func (tm *tmuxTerm) quit(what string) {
	tm.t.Helper()
	rc := filepath.Join(tm.dir, "rc")
	for presses := 0; ; presses++ {
		if presses < 3 {
			tm.keys("q")
		}
		for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if b, err := os.ReadFile(rc); err == nil {
				if got := strings.TrimSpace(string(b)); got != "0" {
					errText, _ := os.ReadFile(filepath.Join(tm.dir, "stderr"))
					tm.t.Fatalf("%s exited %s: %s", what, got, errText)
				}
				return
			}
		}
		if presses >= 3 {
			tm.t.Fatalf("%s did not quit on q:\n%s", what, tm.screen())
		}
	}
}

// searchInTmux searches the demo's inbox as a reviewer types: two words
// that match different parts of one session, then the note just recorded,
// and opens that session at the match.
func searchInTmux(t *testing.T, tm *tmuxTerm) {
	t.Helper()
	// Back from the session to the inbox: one escape at a time, as two
	// at once read as alt+escape.
	for range 3 {
		if strings.Contains(tm.screen(), "sift demo ›") {
			tm.keys("Escape")
		}
	}
	tm.waitFor("back in the inbox", "filter: flagged")
	tm.keys("f")
	tm.waitFor("all sessions", "sift demo · 14 sessions")
	tm.keys("/")
	tm.run("send-keys", "-t", tm.name, "-l", "droid rew")
	s := tm.waitFor("search typed", "1 session match", "ENG-398 · rework-1")
	if rows := listRows(s); rows != 1 {
		t.Fatalf("droid rew: %d rows, want 1:\n%s", rows, s)
	}
	tm.keys("Enter")
	tm.waitFor("search kept", "sift demo · 1 session match", "filter: /droid rew")
	tm.keys("Escape")
	tm.waitFor("search cleared", "sift demo · 14 sessions")
	tm.keys("/")
	tm.run("send-keys", "-t", tm.name, "-l", "find blocked")
	s = tm.waitFor("a note", "1 session match", "ENG-412 · rework-2")
	if rows := listRows(s); rows != 1 {
		t.Fatalf("find blocked: %d rows, want 1:\n%s", rows, s)
	}
	tm.keys("Enter", "Enter")
	tm.waitFor("opened at the match", "sift demo › ENG-412 · rework-2", "match 1 of", "n/N next and previous match")
	// Back to the inbox (from the calls pane or the turns), the search
	// still on.
	for range 2 {
		if strings.Contains(tm.screen(), "sift demo ›") {
			tm.keys("Escape")
		}
	}
	tm.waitFor("inbox", "sift demo · 1 session match")
}

// listRows counts the inbox's session rows on a screen: the lines whose
// list (left of the preview pane's border) names a work item.
func listRows(screen string) int {
	n := 0
	for _, l := range strings.Split(screen, "\n") {
		list, _, _ := strings.Cut(l, "│")
		if strings.Contains(list, "ENG-") {
			n++
		}
	}
	return n
}

// TestEndToEndDemoInTmux drives the real binary in a terminal: sift demo
// --db PATH, flagged only, sort by cost, open the top session, go to its
// first flagged turn, open a tool call, record needs_followup with a note
// (refused first without one), see it in the follow-ups with its resume
// command, decide another session's turn, which rolls up, search
// (searchInTmux), quit; then
// `sift list --json` on the same store shows the session, flagged, with the
// decision and its note, the other session reviewed, and `sift followups
// --json` the follow-up with its failing call and resume command.
func TestEndToEndDemoInTmux(t *testing.T) {
	tm, bin, dir := startInTmux(t, func(bin, dir string) string {
		return bin + " demo --db " + filepath.Join(dir, "demo.db") + " --reviewer e2e"
	})
	db := filepath.Join(dir, "demo.db")

	tm.waitFor("inbox", "sift demo · 14 sessions", "sort: triage")
	// Triage: flagged sessions only, the most expensive first.
	tm.keys("f")
	tm.waitFor("flagged filter", "filter: flagged")
	// A new order keeps the selected session: g goes to the top.
	tm.keys("3")
	tm.waitFor("sort by cost", "sort: cost▼")
	tm.keys("g")
	s := tm.waitFor("the top", "▶  ⚑ claude")
	top := ""
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "▶") {
			top = l
		}
	}
	if !strings.Contains(top, "ENG-412 · rework-2") {
		t.Fatalf("top flagged session by cost is not ENG-412 · rework-2:\n%s", s)
	}
	tm.keys("Enter")
	tm.waitFor("session", "sift demo › ENG-412 · rework-2", "flagged turns shown")
	tm.keys("n")
	tm.keys("N")
	tm.waitFor("first flagged turn", "▶ ⚑ t1", "approval_required")
	tm.keys("Enter")
	tm.keys("Enter")
	tm.waitFor("tool call", "› t1 · Bash", "approval", "─ input", "─ error (1 line)", "call 3/36")
	tm.keys("x")
	tm.waitFor("follow-up dialog", "needs follow-up · ENG-412 · rework-2 (t1 · Bash)")
	tm.keys("Enter")
	tm.waitFor("a follow-up without a note", "a follow-up needs a note")
	tm.run("send-keys", "-t", tm.name, "-l", "why was find blocked?")
	tm.keys("Enter")
	tm.waitFor("decision recorded", "needs_followup ENG-412 · rework-2 (t1 · Bash)")
	tm.keys("F")
	tm.waitFor("follow-ups", "follow-ups · 1 open", "why was find blocked?", "claude --resume b7ed8fcc")
	tm.keys("Escape")
	// Back to the inbox; the next flagged undecided session, its flagged
	// turn reviewed from inside it: the session is decided in the inbox.
	tm.keys("Escape")
	tm.keys("Escape")
	tm.keys("Escape")
	tm.waitFor("inbox again", "sift demo · 6 sessions", "sort: cost▼")
	tm.keys("J")
	tm.keys("Enter")
	s = tm.waitFor("second session", "flagged turns shown")
	tm.keys("d")
	tm.waitFor("decision dialog", "r/n/i or ←/→ choose")
	tm.keys("r")
	tm.keys("Enter")
	tm.waitFor("turn reviewed", "reviewed ENG-")
	searchInTmux(t, tm)
	tm.quit("sift demo")

	out, err := exec.Command(bin, "list", "--json", "--flagged", "--db", db).Output()
	if err != nil {
		t.Fatalf("sift list: %v", err)
	}
	var rows []review.Session
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("sift list --json: %v\n%s", err, out)
	}
	var row *review.Session
	for i, r := range rows {
		if r.WorkItemID == "ENG-412" && r.FileName == "rework-2-a1b2c3.jsonl" {
			row = &rows[i]
		}
	}
	if row == nil {
		t.Fatalf("sift list --json --flagged does not list ENG-412/rework-2-a1b2c3.jsonl:\n%s", out)
	}
	// The decision is on the tool call: the list carries it among the
	// session's current turn and tool-call decisions.
	if len(row.Decisions) != 1 {
		t.Fatalf("sift list --json decisions = %+v, want the one recorded", row.Decisions)
	}
	d := row.Decisions[0]
	if d.Kind != review.NeedsFollowup || d.Note != "why was find blocked?" ||
		d.ToolCallID != "toolu_01XMaFPbs37dmBM8hVEaTMg9" || d.TurnID != "t1" || d.Reviewer != "e2e" {
		t.Errorf("decision in sift list --json = %+v", d)
	}
	// Its one flagged turn decided by the follow-up, the session's review
	// state rolls up to it; the second session's reviewed turn too.
	if row.State != review.NeedsFollowup {
		t.Errorf("ENG-412/rework-2's review state %q, want needs_followup", row.State)
	}
	reviewed := 0
	for _, r := range rows {
		if r.State == review.Reviewed && r.Decision == nil {
			reviewed++
		}
	}
	if reviewed != 1 {
		t.Errorf("%d sessions reviewed by a turn decision, want 1: %s", reviewed, out)
	}

	out, err = exec.Command(bin, "followups", "--json", "--db", db).Output()
	if err != nil {
		t.Fatalf("sift followups: %v", err)
	}
	var fs []export.FollowupItem
	if err := json.Unmarshal(out, &fs); err != nil {
		t.Fatalf("sift followups --json: %v\n%s", err, out)
	}
	if len(fs) != 1 || fs[0].Note != "why was find blocked?" || fs[0].FailingCall == nil ||
		fs[0].FailingCall.ID != "toolu_01XMaFPbs37dmBM8hVEaTMg9" || fs[0].Resume == nil ||
		fs[0].Resume.Command != "cd -- /home/dev/Claude-Orchestrator && claude --resume b7ed8fcc-bf12-4f75-922e-7b54f0da1668" ||
		fs[0].Resume.DirFrom != review.DirFromRun {
		t.Errorf("sift followups --json:\n%s", out)
	}
}
