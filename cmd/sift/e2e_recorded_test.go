package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/export"
	"github.com/agentsift/sift/core/review"
)

// importRecorded places the recorded stream in a logs folder and imports
// it into a new store, with a configuration that keeps review data.
func importRecorded(t *testing.T, bin, logs, db, cfg string) {
	t.Helper()
	src, err := os.ReadFile("../../testdata/streams/claude/vincent-2.1.226-permission-denied-tool-error.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(logs, "WI-REAL"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(logs, "WI-REAL", "work-1-c0ffee.jsonl"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	importKept(t, bin, logs, db, cfg)
}

// importKept imports a logs folder of recorded streams into a new store,
// with a configuration cfg that keeps review data: the streams were
// recorded months ago, and the review-data sweep the inbox runs would take
// their summaries at the default tiers.
func importKept(t *testing.T, bin, logs, db, cfg string) {
	t.Helper()
	if err := os.WriteFile(cfg, []byte("Enabled: true\nReview:\n  FlaggedDays: 3650\n  SummariesDays: 3650\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "import", "--db", db, "--config", cfg, logs).CombinedOutput(); err != nil {
		t.Fatalf("sift import: %v\n%s", err, out)
	}
}

// TestEndToEndRecordedStreamInTmux walks the reviewer's path on a real
// recorded stream rather than the demo: a Claude Code run whose Write was
// denied, imported into a fresh store with `sift import`, then opened in
// the inbox in tmux: the session (its prompt row, its thinking collapsed,
// t for it in full), the denied call shown as a diff, a follow-up with a
// note; after quitting, `sift list --json` carries the decision and
// `sift followups --json` the follow-up with its failing call.
func TestEndToEndRecordedStreamInTmux(t *testing.T) {
	var db, cfg string
	tm, bin, _ := startInTmux(t, func(bin, dir string) string {
		logs := filepath.Join(dir, "logs")
		db, cfg = filepath.Join(dir, "sift.db"), filepath.Join(dir, "config.yaml")
		importRecorded(t, bin, logs, db, cfg)
		return bin + " --db " + db + " --config " + cfg + " --logs " + logs + " --reviewer e2e"
	})
	tm.waitFor("inbox", "1 session", "WI-REAL · work-1", "sort: triage")
	tm.keys("Enter")
	tm.waitFor("session", "› WI-REAL · work-1", "▶ ⚑ t1", "approval_required", "thinking  13 lines · t shows it",
		"tokens  turns count −524 out")
	tm.keys("k")
	tm.waitFor("prompt row", "─ prompt · ", "this stream does not record the prompt")
	tm.keys("j", "t")
	tm.waitFor("text in full", "text in full", "Let me check the Write tool requirements")
	tm.keys("t")
	tm.keys("Enter")
	tm.keys("Enter")
	tm.waitFor("the denied Write as a diff", "› t1 · Write", "─ diff +1 −0", "+hi", "call 1/1")
	tm.keys("x")
	tm.waitFor("follow-up dialog", "needs follow-up · WI-REAL · work-1 (t1 · Write)")
	tm.run("send-keys", "-t", tm.name, "-l", "allow Write in C:\\work\\repo")
	tm.keys("Enter")
	tm.waitFor("decision recorded", "needs_followup WI-REAL · work-1 (t1 · Write)")
	tm.quit("sift")

	out, err := exec.Command(bin, "list", "--json", "--db", db, "--config", cfg).Output()
	if err != nil {
		t.Fatalf("sift list: %v", err)
	}
	var rows []review.Session
	if err := json.Unmarshal(out, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("sift list --json: %v\n%s", err, out)
	}
	r := rows[0]
	if len(r.Decisions) != 1 || r.Decisions[0].Kind != review.NeedsFollowup || r.Decisions[0].Note != `allow Write in C:\work\repo` ||
		r.Decisions[0].ToolCallID != "toolu_01NfZSDqXQKXwt59MWGhoqgw" || r.Decisions[0].Reviewer != "e2e" || r.State != review.NeedsFollowup {
		t.Errorf("sift list --json: state %q, decisions %+v", r.State, r.Decisions)
	}
	out, err = exec.Command(bin, "followups", "--json", "--db", db, "--config", cfg).Output()
	if err != nil {
		t.Fatalf("sift followups: %v", err)
	}
	var fs []export.FollowupItem
	if err := json.Unmarshal(out, &fs); err != nil {
		t.Fatalf("sift followups --json: %v\n%s", err, out)
	}
	if len(fs) != 1 || fs[0].Note != `allow Write in C:\work\repo` || fs[0].FailingCall == nil ||
		fs[0].FailingCall.ID != "toolu_01NfZSDqXQKXwt59MWGhoqgw" {
		t.Errorf("sift followups --json:\n%s", out)
	}
}
