package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/export"
)

// TestDecideUndoHistoryAndFollowups walks a follow-up through the
// commands: recorded with the configuration's reviewer, listed by sift
// followups with its failing call and resume command, undone and redone,
// then closed by a later review of the session.
func TestDecideUndoHistoryAndFollowups(t *testing.T) {
	db, ref := decideEnv(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("Reviewer: ana\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sum := storedSummary(t, db, ref)
	call := sum.ToolCalls[0]
	decide := func(args ...string) string {
		t.Helper()
		out, errOut, code := siftCmd(t, append([]string{"decide", "--db", db, "--config", cfg, ref}, args...)...)
		if code != 0 {
			t.Fatalf("decide %v: %d %q", args, code, errOut)
		}
		return out
	}
	if out := decide("--decision", "needs_followup", "--tool-call", call.ID, "--note", "don't stop; rerun it"); !strings.Contains(out, "by ana") {
		t.Fatalf("the configuration's reviewer is not recorded: %q", out)
	}
	followups := func() []export.FollowupItem {
		t.Helper()
		out, errOut, code := siftCmd(t, "followups", "--db", db, "--json")
		if code != 0 {
			t.Fatalf("followups: %d %q", code, errOut)
		}
		var fs []export.FollowupItem
		if err := json.Unmarshal([]byte(out), &fs); err != nil {
			t.Fatalf("followups --json: %v\n%s", err, out)
		}
		return fs
	}
	fs := followups()
	if len(fs) != 1 || fs[0].Note != "don't stop; rerun it" || fs[0].ReviewerID != "ana" || fs[0].FailingCall == nil ||
		fs[0].FailingCall.ID != call.ID || fs[0].Resume == nil {
		t.Fatalf("followups %+v", fs)
	}
	want := `claude --resume ` + sum.SessionID
	withNote := `claude --resume ` + sum.SessionID + ` -p -- 'don'\''t stop; rerun it'`
	if r := fs[0].Resume; r.Command != want || r.WithNote == nil || r.WithNote.Command != withNote ||
		r.WithNote.Argv[len(r.WithNote.Argv)-1] != "don't stop; rerun it" || r.DirUnknown == "" {
		t.Errorf("resume %+v, want %s and %s", r, want, withNote)
	}
	out, _, _ := siftCmd(t, "followups", "--db", db)
	if !strings.Contains(out, "note:    don't stop; rerun it") || !strings.Contains(out, "resume:  "+want) ||
		!strings.Contains(out, "or:      "+withNote) || !strings.Contains(out, "folder:  the folder the run ran in is unknown") {
		t.Errorf("followups:\n%s", out)
	}
	if out := decide("--undo"); !strings.Contains(out, "undid needs_followup on "+ref+" tool call "+call.ID+" by ana") {
		t.Errorf("undo: %q", out)
	}
	if fs := followups(); len(fs) != 0 {
		t.Fatalf("an undone follow-up is listed: %+v", fs)
	}
	decide("--decision", "needs_followup", "--note", "look again")
	decide("--decision", "reviewed")
	if fs := followups(); len(fs) != 0 {
		t.Fatalf("a follow-up closed by a later review is listed: %+v", fs)
	}
	hist := decide("--history")
	for _, w := range []string{"needs_followup (undone)", "undone (#1 needs_followup)", "look again", "reviewed"} {
		if !strings.Contains(hist, w) {
			t.Errorf("history does not say %q:\n%s", w, hist)
		}
	}
	if _, errOut, code := siftCmd(t, "decide", "--db", db, ref, "--undo", "--decision", "reviewed"); code == 0 {
		t.Errorf("--undo with --decision was accepted: %q", errOut)
	}
}
