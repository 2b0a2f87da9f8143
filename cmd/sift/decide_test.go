package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
	"github.com/agentsift/sift/store"
)

// decideEnv imports one real stream and returns its database and its
// session reference.
func decideEnv(t *testing.T) (db, ref string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	db = filepath.Join(dir, "sift.db")
	logs := filepath.Join(dir, "logs")
	src, err := os.ReadFile("../../testdata/streams/claude/evolve-2.1.7-run2-resumed-multitool.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(logs, "wi-1"), 0o755)
	if err := os.WriteFile(filepath.Join(logs, "wi-1", "work-1-a1b2c3.jsonl"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := siftCmd(t, "import", "--db", db, logs); code != 0 {
		t.Fatalf("import: %d %q %q", code, out, errOut)
	}
	return db, "wi-1/work-1-a1b2c3.jsonl"
}

// openStore opens the test's store directly.
func openStore(t *testing.T, db string) *store.Store {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// storedSummary reads a session's stored summary.
func storedSummary(t *testing.T, db, ref string) *summary.Summary {
	t.Helper()
	wi, file, _ := strings.Cut(ref, "/")
	sess, err := openStore(t, db).GetSession(context.Background(), review.SessionKey{WorkItemID: wi, FileName: file})
	if err != nil {
		t.Fatal(err)
	}
	return &sess.Summary
}

// decisionsOf reads a session's decision history.
func decisionsOf(t *testing.T, db, ref string) []review.Decision {
	t.Helper()
	wi, file, _ := strings.Cut(ref, "/")
	h, err := openStore(t, db).Decisions(context.Background(), review.SessionKey{WorkItemID: wi, FileName: file})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestDecideRefusesUnknownTurnAndToolCall(t *testing.T) {
	db, ref := decideEnv(t)
	calls := storedSummary(t, db, ref).ToolCalls
	if len(calls) < 2 {
		t.Fatalf("fixture has %d tool calls", len(calls))
	}
	first, last := calls[0], calls[len(calls)-1]
	if first.TurnID == last.TurnID {
		t.Fatalf("fixture's first and last tool calls share turn %s", first.TurnID)
	}
	bad := []struct {
		name string
		args []string
		says []string
	}{
		{"unknown turn", []string{"--turn", "t999"}, []string{`"t999"`, ref}},
		{"unknown tool call", []string{"--tool-call", "toolu_nope"}, []string{`"toolu_nope"`, ref}},
		{"tool call of another turn", []string{"--turn", first.TurnID, "--tool-call", last.ID}, []string{last.ID, first.TurnID}},
	}
	for _, tc := range bad {
		args := append([]string{"decide", "--db", db, ref, "--decision", "reviewed"}, tc.args...)
		out, errOut, code := siftCmd(t, args...)
		if code == 0 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want one error line and a non-zero exit", tc.name, code, out, errOut)
		}
		for _, w := range tc.says {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: %q does not name %s", tc.name, errOut, w)
			}
		}
	}
	if h := decisionsOf(t, db, ref); len(h) != 0 {
		t.Fatalf("refused decisions were written: %+v", h)
	}
	for _, ok := range [][]string{{"--turn", first.TurnID}, {"--tool-call", last.ID}, {"--turn", last.TurnID, "--tool-call", last.ID}} {
		args := append([]string{"decide", "--db", db, ref, "--decision", "reviewed"}, ok...)
		if out, errOut, code := siftCmd(t, args...); code != 0 {
			t.Errorf("decide %v: %d %q %q", ok, code, out, errOut)
		}
	}
}

func TestDecideRedactsNote(t *testing.T) {
	db, ref := decideEnv(t)
	token := "ghp_" + strings.Repeat("Zq7Lm2Xc9P", 4)[:36]
	if out, errOut, code := siftCmd(t, "decide", "--db", db, ref, "--decision", "needs_followup", "--note", "leaked "+token); code != 0 {
		t.Fatalf("decide: %d %q %q", code, out, errOut)
	}
	h := decisionsOf(t, db, ref)
	if len(h) != 1 || h[0].Note != "leaked [REDACTED:github-token]" {
		t.Fatalf("the note was not stored redacted: %+v", h)
	}
}
