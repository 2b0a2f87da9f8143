package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/layout"
)

// retentionWorld is a store with sessions from the three places sift
// reads: the logs folder it owns, a folder of streams named on the
// command line, and an agent's own history (Claude Code), every one
// older than the summaries' tier.
type retentionWorld struct {
	t                        *testing.T
	db, logs                 string
	captured, named, history string
	capturedKey, namedKey    string
}

func newRetentionWorld(t *testing.T) *retentionWorld {
	dir := t.TempDir()
	isolate(t, dir)
	w := &retentionWorld{t: t, db: filepath.Join(dir, "sift.db"), logs: filepath.Join(dir, "logs")}
	if _, err := layout.MakeRoot(w.logs); err != nil {
		t.Fatal(err)
	}
	// A Claude stream has no timestamps: its session's age is its file's.
	w.captured = filepath.Join(w.logs, "wi-1", "work-1-a1b2c3.jsonl")
	copyTo(t, runFixture, w.captured)
	old := time.Now().Add(-400 * 24 * time.Hour)
	if err := os.Chtimes(w.captured, old, old); err != nil {
		t.Fatal(err)
	}
	w.capturedKey = "wi-1/work-1-a1b2c3.jsonl"
	w.named = filepath.Join(dir, "older", "wi-2", "work-1-d4e5f6.jsonl")
	copyTo(t, "../../testdata/streams/claude/vincent-2.1.226-permission-denied-tool-error.jsonl", w.named)
	w.namedKey = "wi-2/work-1-d4e5f6.jsonl"
	cfg := filepath.Join(dir, "claude")
	w.history = filepath.Join(cfg, "projects", "-home-marco-projects-spotter", "s.jsonl")
	copyTo(t, "../../testdata/history/claude/spotter-2.1.38-short-session.jsonl", w.history)
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	t.Setenv("CODEX_HOME", filepath.Join(dir, "none"))
	t.Setenv("GEMINI_DIR", filepath.Join(dir, "none"))
	for _, args := range [][]string{{"import"}, {"import", filepath.Join(dir, "older")}, {"import", "--history"}} {
		if out, errOut, code := w.sift(args...); code != 0 {
			t.Fatalf("%v: %d %q %q", args, code, out, errOut)
		}
	}
	if n := len(w.sessions()); n != 3 {
		t.Fatalf("%d sessions imported, want 3", n)
	}
	return w
}

// sift runs a command on the world's store and logs folder.
func (w *retentionWorld) sift(args ...string) (string, string, int) {
	w.t.Helper()
	return siftCmd(w.t, append(args, "--db", w.db, "--logs", w.logs)...)
}

// sessions lists the stored sessions as work item/file.
func (w *retentionWorld) sessions() map[string]bool {
	w.t.Helper()
	out, errOut, code := w.sift("list", "--json")
	if code != 0 {
		w.t.Fatalf("list: %d %q", code, errOut)
	}
	var rows []struct{ WorkItemID, FileName string }
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		w.t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range rows {
		got[r.WorkItemID+"/"+r.FileName] = true
	}
	return got
}

// sweep runs `sift sweep` and returns its line.
func (w *retentionWorld) sweep(args ...string) string {
	w.t.Helper()
	out, errOut, code := w.sift(append([]string{"sweep"}, args...)...)
	if code != 0 {
		w.t.Fatalf("sweep %v: %d %q %q", args, code, out, errOut)
	}
	return out
}

// TestSweepRules runs `sift sweep` over sessions of every origin: old
// sessions whose files exist survive any number of sweeps; a history
// session follows its file; a captured file deleted by the file sweep
// takes its session in the same pass; an open follow-up survives its
// file; decisions are never removed; every sweep's line, its dry run and
// its status name the figures.
func TestSweepRules(t *testing.T) {
	w := newRetentionWorld(t)
	for range 3 {
		if out := w.sweep("--retained-days", "0"); !strings.HasPrefix(out, "swept 0 files, 0 sessions, review events of 0 sessions; kept 1 file") {
			t.Fatalf("sweep of old sessions whose files exist: %q", out)
		}
	}
	if n := len(w.sessions()); n != 3 {
		t.Fatalf("%d sessions after three sweeps, want 3", n)
	}
	if out, _, code := w.sift("decide", w.namedKey, "--decision", "needs_followup", "--note", "check the denial"); code != 0 {
		t.Fatalf("decide: %q", out)
	}

	// The history file is gone: its session goes; the dry run says so
	// first and removes nothing.
	if err := os.Remove(w.history); err != nil {
		t.Fatal(err)
	}
	out := w.sweep("--dry-run", "--retained-days", "0")
	if !strings.HasPrefix(out, "a sweep would remove 0 files, 1 session, review events of 0 sessions; nothing was removed\n") ||
		!strings.Contains(out, "sessions (stream file gone, past the summaries' tier):\n  ") || !strings.Contains(out, w.history) {
		t.Fatalf("dry run: %q", out)
	}
	if n := len(w.sessions()); n != 3 {
		t.Fatalf("the dry run removed a session: %d left", n)
	}
	if out := w.sweep("--retained-days", "0"); !strings.HasPrefix(out, "swept 0 files, 1 session, review events of 0 sessions;") {
		t.Fatalf("sweep after the history file went: %q", out)
	}
	if got := w.sessions(); len(got) != 2 || !got[w.capturedKey] || !got[w.namedKey] {
		t.Fatalf("sessions after the history file went: %v", got)
	}

	// With a retention of 14 days, the captured file is past it: the file
	// sweep deletes it and its session goes in the same pass. The named file is removed by
	// hand, but its session has an open follow-up.
	if err := os.Remove(w.named); err != nil {
		t.Fatal(err)
	}
	out = w.sweep("--dry-run", "--retained-days", "14")
	if !strings.HasPrefix(out, "a sweep would remove 1 file (") || !strings.Contains(out, ", 1 session,") ||
		!strings.Contains(out, w.captured+"  ") || !strings.Contains(out, "older than kept") {
		t.Fatalf("dry run of an old captured file: %q", out)
	}
	if out := w.sweep("--retained-days", "14"); !strings.HasPrefix(out, "swept 1 file (") || !strings.Contains(out, "), 1 session, review events of 0 sessions; kept 0 files") {
		t.Fatalf("sweep of an old captured file: %q", out)
	}
	if got := w.sessions(); len(got) != 1 || !got[w.namedKey] {
		t.Fatalf("sessions after the captured file went: %v (the open follow-up must stay)", got)
	}
	out, _, _ = w.sift("decisions", "export")
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, `"note":"check the denial"`) {
		t.Fatalf("decisions after the sweeps: %q", out)
	}
	out, _, _ = w.sift("sweep", "--status")
	if !strings.Contains(out, "by sift sweep: removed 1 file (") || !strings.Contains(out, "), 1 session, review events of 0 sessions; 0 idle work items") ||
		!strings.Contains(out, "removed since ") {
		t.Fatalf("sweep --status: %q", out)
	}
}
