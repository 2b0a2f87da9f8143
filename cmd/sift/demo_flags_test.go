package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// TestDemoFlagsReadAsSentences walks every session of the demo and fails
// on a flag that does not read as a sentence with a line number: each
// flag of a turn has a note there, each flag of the session's own one in
// the session's notes, and each note a sentence and a line. The codex run
// that died before its first turn reads died_before_start, its error the
// evidence.
func TestDemoFlagsReadAsSentences(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, done, err := openDemo(ctx, filepath.Join(t.TempDir(), "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	page, err := st.ListSessions(ctx, review.Query{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Sessions) < 10 {
		t.Fatalf("%d demo sessions", len(page.Sessions))
	}
	notes := 0
	for i := range page.Sessions {
		s := &page.Sessions[i].Summary
		if bad := summary.Unexplained(s); len(bad) > 0 {
			t.Errorf("%s/%s: flags without a sentence and a line: %v", s.WorkItemID, s.FileName, bad)
		}
		for _, tu := range s.Turns {
			notes += len(tu.FlagNotes)
		}
		if s.Outcome == "" || s.OutcomeEvidence.Sentence == "" {
			t.Errorf("%s/%s: outcome %q without evidence", s.WorkItemID, s.FileName, s.Outcome)
		}
		if s.WorkItemID == "ENG-420" && s.FileName == "work-1-6a7b8c.jsonl" {
			ev := s.OutcomeEvidence
			if s.Outcome != summary.OutcomeDiedBeforeStart || !strings.Contains(ev.Sentence, "requires a newer version of Codex") || ev.Line <= 0 {
				t.Errorf("the codex run that died: %s %+v", s.Outcome, ev)
			}
		}
	}
	if notes == 0 {
		t.Error("no flag note in the whole demo")
	}
}
