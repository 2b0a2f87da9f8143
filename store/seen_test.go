package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsift/sift/core/review"
)

// TestSessionGrownAfterDecisionReopens records a decision on a session,
// appends lines to its stream file (a resumed session) and imports it
// again: the session is undecided again, counted so, with the line its
// reviewer had seen as its NewSince, and its first new turn after it; a
// new decision closes it, and a decision that does not know its line (an
// older sift's) never reopens.
func TestSessionGrownAfterDecisionReopens(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	g := decideThenGrow(t, s, filepath.Join(fixtures, "claude", "evolve-2.1.19-daytona-x01-prefixed.jsonl"))
	k, path, root, full, lines := g.k, g.path, g.root, g.full, g.lines
	got := getSession(t, s, k)
	if got.State != review.Reviewed || got.NewSince != 0 || got.Decision == nil || got.Decision.SeenLine != 8 {
		t.Fatalf("after the decision: state %q, new since %d, decision %+v; want reviewed, 0, seen line 8",
			got.State, got.NewSince, got.Decision)
	}

	g.grow()
	got = getSession(t, s, k)
	if got.State != "" || got.NewSince != 8 || got.LineCount <= 8 {
		t.Fatalf("after the session grew to %d lines: state %q, new since %d; want undecided, new since 8",
			got.LineCount, got.State, got.NewSince)
	}
	if got.Decision == nil || got.Decision.Kind != review.Reviewed {
		t.Errorf("the earlier decision is gone from the row: %+v", got.Decision)
	}
	if c, err := s.Counts(ctx, review.Query{}); err != nil || c.Undecided != 1 || c.Total != 1 {
		t.Errorf("counts %+v (%v), want 1 session, 1 undecided", c, err)
	}
	if n, err := s.CountSessions(ctx, review.Query{Undecided: true}); err != nil || n != 1 {
		t.Errorf("the undecided filter selects %d (%v), want 1", n, err)
	}
	newTurn := -1
	for i, tr := range got.Turns {
		if tr.Line > got.NewSince {
			newTurn = i
			break
		}
	}
	if newTurn < 0 {
		t.Errorf("no turn starts after line %d: %+v", got.NewSince, got.Turns)
	}

	if err := s.Decide(ctx, review.Decision{Session: k, Kind: review.Ignored, Reviewer: "r"}); err != nil {
		t.Fatal(err)
	}
	if got = getSession(t, s, k); got.State != review.Ignored || got.NewSince != 0 {
		t.Fatalf("after a new decision: state %q, new since %d; want ignored, 0", got.State, got.NewSince)
	}

	// A decision an older sift recorded (no line) has seen everything.
	if _, err := s.w.Exec(`UPDATE decision_latest SET seen_line = 0`); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, append(full, lines[len(lines)-2]...))
	mustImport(t, s, root)
	if got = getSession(t, s, k); got.State != review.Ignored || got.NewSince != 0 {
		t.Fatalf("a decision without its line reopened: state %q, new since %d", got.State, got.NewSince)
	}
}

// getSession reads one session or fails the test.
func getSession(t *testing.T, s *Store, k review.SessionKey) review.Session {
	t.Helper()
	got, err := s.GetSession(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// grownSession is a session whose stream was imported with its first 8
// lines, decided reviewed, and can then grow to the whole stream.
type grownSession struct {
	k          review.SessionKey
	path, root string
	full       []byte
	lines      [][]byte
	grow       func()
}

// decideThenGrow imports the first 8 lines of a recorded stream as a
// session, decides it reviewed, and returns it, with grow, which writes
// the whole stream and imports it again.
func decideThenGrow(t *testing.T, s *Store, fixture string) grownSession {
	t.Helper()
	full, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	g := grownSession{k: review.SessionKey{WorkItemID: "ENG-7", FileName: "work-1-a1b2c3.jsonl"}, root: t.TempDir(),
		full: full, lines: bytes.SplitAfter(full, []byte("\n"))}
	g.path = filepath.Join(g.root, "ENG-7", "work-1-a1b2c3.jsonl")
	writeFile(t, g.path, bytes.Join(g.lines[:8], nil))
	mustImport(t, s, g.root)
	if err := s.Decide(context.Background(), review.Decision{Session: g.k, Kind: review.Reviewed, Reviewer: "r"}); err != nil {
		t.Fatal(err)
	}
	g.grow = func() {
		writeFile(t, g.path, full)
		mustImport(t, s, g.root)
	}
	return g
}
