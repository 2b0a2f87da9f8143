package store

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
)

func TestDecisionHistoryAndLatest(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl"}, {wi: "wi", file: "b.jsonl"}})
	steps := []review.Decision{
		{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, Kind: review.NeedsFollowup, Note: "why did it rm -rf?", Reviewer: "ana"},
		{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, TurnID: "t1", Kind: review.Ignored, Reviewer: "ana"},
		{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, Kind: review.Reviewed, Note: "fine after all", Reviewer: "bo"},
		{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, ToolCallID: "toolu_0", Kind: review.NeedsFollowup, Reviewer: "bo"},
	}
	for _, d := range steps {
		if err := s.Decide(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	hist, err := s.Decisions(ctx, review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != len(steps) {
		t.Fatalf("history has %d decisions, want %d", len(hist), len(steps))
	}
	for i, d := range hist {
		if d.Kind != steps[i].Kind || d.Note != steps[i].Note || d.TurnID != steps[i].TurnID || d.CreatedAt.IsZero() {
			t.Errorf("history[%d] = %+v, want %+v", i, d, steps[i])
		}
	}
	latest, err := s.LatestDecisions(ctx, review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if len(latest) != 3 || latest[0].Kind != review.Reviewed || latest[0].TurnID != "" || latest[0].ToolCallID != "" {
		t.Fatalf("latest = %+v, want the session's reviewed first and three targets", latest)
	}
	sum, err := s.GetSession(ctx, review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Decision == nil || sum.Decision.Kind != review.Reviewed || sum.Decision.Note != "fine after all" || sum.Decision.Reviewer != "bo" {
		t.Fatalf("summary decision = %+v", sum.Decision)
	}
	// The tool call's needs_followup, later than the session's review,
	// is open: it keeps the session flagged.
	flagged, err := pageRows(s.ListSessions(ctx, review.Query{Flagged: true}))
	if err != nil {
		t.Fatal(err)
	}
	if len(flagged) != 1 || flagged[0].FileName != "a.jsonl" {
		t.Fatalf("flagged = %v, want a.jsonl", names(flagged))
	}
	// A full listing carries the current turn and tool-call decisions.
	full, err := pageRows(s.ListSessions(ctx, review.Query{Flagged: true, Full: true}))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range full[0].Decisions {
		got[d.TurnID+"|"+d.ToolCallID] = string(d.Kind) + " by " + d.Reviewer
	}
	if len(got) != 2 || got["t1|"] != "ignored by ana" || got["|toolu_0"] != "needs_followup by bo" {
		t.Fatalf("full listing decisions = %+v", full[0].Decisions)
	}
	if flagged[0].Decisions != nil {
		t.Fatalf("brief listing carries decisions: %+v", flagged[0].Decisions)
	}
	undecided, err := pageRows(s.ListSessions(ctx, review.Query{Undecided: true}))
	if err != nil {
		t.Fatal(err)
	}
	if len(undecided) != 1 || undecided[0].FileName != "b.jsonl" || undecided[0].Decision != nil {
		t.Fatalf("undecided = %v, want b.jsonl", names(undecided))
	}
	if n, err := s.CountSessions(ctx, review.Query{Undecided: true}); err != nil || n != 1 {
		t.Fatalf("CountSessions(undecided) = %d, %v", n, err)
	}
	// A later session-level review closes the follow-up.
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, Kind: review.Reviewed}); err != nil {
		t.Fatal(err)
	}
	if flagged, err := pageRows(s.ListSessions(ctx, review.Query{Flagged: true})); err != nil || len(flagged) != 0 {
		t.Fatalf("flagged after the session's review = %v, %v: want the follow-up closed", names(flagged), err)
	}
	if fs, err := s.Followups(ctx); err != nil || len(fs) != 0 {
		t.Fatalf("followups after the session's review = %+v, %v", fs, err)
	}
}

func TestDecideRejects(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl"}})
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, Kind: "lgtm"}); err == nil {
		t.Fatal("an unknown decision was accepted")
	}
	if err := s.Decide(ctx, review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "nope.jsonl"}, Kind: review.Reviewed}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("decision on a missing session: %v, want ErrNotFound", err)
	}
	if h, _ := s.Decisions(ctx, review.SessionKey{WorkItemID: "wi", FileName: "nope.jsonl"}); len(h) != 0 {
		t.Fatal("a rejected decision was stored")
	}
}

func TestResolveSession(t *testing.T) {
	t.Parallel()
	s := newTestStore(t)
	ctx := context.Background()
	writeFakes(t, s, []fake{
		{wi: "wi-1", file: "work-1-a1b2c3.jsonl"}, {wi: "wi-1", file: "rework-2-ffffff.jsonl"},
		{wi: "wi-2", file: "work-1-a1b2c4.jsonl"}, {wi: "wi-2", file: "merge-1-000000.jsonl"},
	})
	tests := []struct {
		ref  string
		want string
		err  error
	}{
		{"wi-1/work-1-a1b2c3.jsonl", "wi-1/work-1-a1b2c3.jsonl", nil},
		{"rework", "wi-1/rework-2-ffffff.jsonl", nil},
		{"work-1-a1b2c4", "wi-2/work-1-a1b2c4.jsonl", nil},
		{"work-1-a1b2c", "", ErrAmbiguous},
		{"wi-1/nope.jsonl", "", ErrNotFound},
		{"zzz", "", ErrNotFound},
		{"", "", ErrNotFound},
	}
	for _, tc := range tests {
		k, err := s.ResolveSession(ctx, tc.ref)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("ResolveSession(%q) = %v, %v; want %v", tc.ref, k, err, tc.err)
			}
			continue
		}
		if err != nil || k.String() != tc.want {
			t.Errorf("ResolveSession(%q) = %v, %v; want %s", tc.ref, k, err, tc.want)
		}
	}
}

// TestDecisionSurvivesKill records a decision in a child process, kills it
// with SIGKILL the moment the decision is acknowledged, and finds the
// decision in the store.
func TestDecisionSurvivesKill(t *testing.T) {
	if db := os.Getenv("SIFT_TEST_DECIDE_CHILD"); db != "" {
		decideChild(db)
		return
	}
	db := testDB(t)
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	writeFakes(t, s, []fake{{wi: "wi", file: "a.jsonl"}})
	s.Close()

	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDecisionSurvivesKill$")
		cmd.Env = append(os.Environ(), "SIFT_TEST_DECIDE_CHILD="+db)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "decided") {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child said %q, %v", line, err)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("child was not killed by SIGKILL: %v", err)
		}
		s, err := Open(db)
		if err != nil {
			t.Fatal(err)
		}
		hist, err := s.Decisions(context.Background(), review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(hist) != round+1 || hist[round].Note != "acknowledged "+strings.TrimSpace(strings.TrimPrefix(line, "decided ")) {
			t.Fatalf("after kill %d: %d decisions (%+v)", round+1, len(hist), hist)
		}
	}
}

// decideChild is the child of TestDecisionSurvivesKill: it records one
// decision, says so, and waits to be killed.
func decideChild(db string) {
	s, err := Open(db)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(3)
	}
	tag := time.Now().Format(time.RFC3339Nano)
	err = s.Decide(context.Background(), review.Decision{Session: review.SessionKey{WorkItemID: "wi", FileName: "a.jsonl"}, Kind: review.NeedsFollowup,
		Note: "acknowledged " + tag, Reviewer: "child"})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(3)
	}
	os.Stdout.WriteString("decided " + tag + "\n")
	time.Sleep(time.Minute) // killed before this ends; the store is never closed
	os.Exit(4)
}
