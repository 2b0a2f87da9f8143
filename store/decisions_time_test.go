package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
)

// importLines imports exported decisions as `sift decisions import` does.
func importLines(s *Store, ds ...ExportedDecision) (DecisionImport, error) {
	return s.ImportDecisions(context.Background(), func(add func(ExportedDecision) error) error {
		for _, d := range ds {
			if err := add(d); err != nil {
				return err
			}
		}
		return nil
	})
}

// A decision read back from an old export is stored after today's but was
// made before it: today's stays current, the follow-up stays open, and an
// undo withdraws today's (Hardening II, item 6), on both backends.
func TestImportedOldDecisionNeverDisplacesNewer(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl", flagged: true}})
	k := review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}
	if err := s.Decide(ctx, review.Decision{Session: k, Kind: review.NeedsFollowup, Note: "why rm -rf?", Reviewer: "ana"}); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 3, 4, 5, 6, 7, 0, time.UTC)
	res, err := importLines(s, ExportedDecision{WorkItemID: "wi", FileName: "a.jsonl", Decision: review.Reviewed,
		Reviewer: "bo", CreatedAt: old})
	if err != nil || res.Added != 1 {
		t.Fatalf("import = %+v, %v", res, err)
	}
	latest, err := s.LatestDecisions(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	if len(latest) != 1 || latest[0].Kind != review.NeedsFollowup {
		t.Fatalf("latest = %+v: the 2020 review imported today displaced today's follow-up", latest)
	}
	fus, err := s.Followups(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(fus) != 1 || fus[0].Decision.Note != "why rm -rf?" {
		t.Fatalf("followups = %+v: today's follow-up is no longer open", fus)
	}
	sess, err := s.GetSession(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	if sess.State != review.NeedsFollowup {
		t.Errorf("review state = %q, want needs_followup", sess.State)
	}
	// A session-level review of a follow-up on a call closes it only when
	// made after it.
	if _, err := importLines(s, ExportedDecision{WorkItemID: "wi", FileName: "a.jsonl", ToolCallID: "toolu_9",
		Decision: review.NeedsFollowup, Note: "and this call?", Reviewer: "bo", CreatedAt: old.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	undone, err := s.Undo(ctx, k, "ana")
	if err != nil || undone.Kind != review.NeedsFollowup {
		t.Fatalf("undo withdrew %+v (%v), want today's follow-up", undone, err)
	}
	latest, _ = s.LatestDecisions(ctx, k)
	var session *review.Decision
	for i := range latest {
		if latest[i].OnSession() {
			session = &latest[i]
		}
	}
	if session == nil || session.Kind != review.Reviewed || !session.CreatedAt.Equal(old) {
		t.Fatalf("after the undo the session's decision is %+v, want the 2020 review back", session)
	}
	fus, _ = s.Followups(ctx)
	if len(fus) != 0 {
		t.Fatalf("followups = %+v: the 2020 review was made after the 2020 call follow-up and closes it", fus)
	}
}

// An import refuses what no reviewer could have decided, and stores
// nothing of a file with such a line; it names the reviewers it
// introduces and the sessions the store lacks.
func TestImportDecisionsRefusesImpossible(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl"}})
	good := ExportedDecision{WorkItemID: "wi", FileName: "a.jsonl", Decision: review.Reviewed, Reviewer: "bo",
		CreatedAt: time.Now().Add(-time.Hour)}
	for _, tc := range []struct {
		name string
		edit func(*ExportedDecision)
		want string
	}{
		{"future", func(d *ExportedDecision) { d.CreatedAt = time.Now().Add(48 * time.Hour) }, "in the future"},
		{"negative seenLine", func(d *ExportedDecision) { d.SeenLine = -1 }, "seenLine -1"},
		{"huge seenLine", func(d *ExportedDecision) { d.SeenLine = 1 << 40 }, "seenLine 1099511627776"},
		{"long reviewer", func(d *ExportedDecision) { d.Reviewer = strings.Repeat("r", 100_000) }, "reviewerId of 100000 bytes"},
	} {
		bad := good
		tc.edit(&bad)
		_, err := importLines(s, good, bad)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: import error %v, want %q", tc.name, err, tc.want)
		}
	}
	if hist, _ := s.Decisions(context.Background(), review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}); len(hist) != 0 {
		t.Fatalf("refused imports stored %+v", hist)
	}
	ghost := good
	ghost.FileName, ghost.Reviewer = "gone.jsonl", "cy"
	res, err := importLines(s, good, ghost)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 2 || strings.Join(res.NewReviewers, ",") != "bo,cy" || res.Unknown != 1 ||
		len(res.FirstUnknown) != 1 || res.FirstUnknown[0].FileName != "gone.jsonl" {
		t.Fatalf("import = %+v, want 2 added, reviewers bo and cy new, wi/gone.jsonl unknown", res)
	}
	res, _ = importLines(s, ExportedDecision{WorkItemID: "wi", FileName: "a.jsonl", Decision: review.Ignored, Reviewer: "bo",
		CreatedAt: time.Now().Add(-time.Minute)})
	if len(res.NewReviewers) != 0 {
		t.Fatalf("bo is known now, yet named new: %+v", res)
	}
}
