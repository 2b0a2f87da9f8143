package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsift/sift/core/review"
	"github.com/agentsift/sift/core/summary"
)

// TestWriteLiveRanksAWaitingRunFirst: a running session's row is marked
// running with its tool; while it waits it ranks above every flagged
// session in the triage order; the import of the finished file clears
// the mark.
func TestWriteLiveRanksAWaitingRunFirst(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	root := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "claude", "vincent-2.1.226-permission-denied-tool-error.jsonl"),
		filepath.Join(root, "ENG-1", "work-1-aaaaaa.jsonl"))
	mustImport(t, s, root)
	file := filepath.Join(root, "ENG-2", "work-1-bbbbbb.jsonl")
	copyFile(t, filepath.Join(fixtures, "claude", "evolve-2.1.7-run1-write-file.jsonl"), file)
	id, err := s.RecordInvocation(ctx, Invocation{WorkItemID: "ENG-2", Phase: "work", Iteration: 1, AgentKind: "claude", File: file})
	if err != nil {
		t.Fatal(err)
	}
	live := func(wait review.LiveWait) {
		t.Helper()
		sum := &summary.Summary{WorkItemID: "ENG-2", FileName: "work-1-bbbbbb.jsonl", Phase: "work", AgentKind: "claude",
			LineCount: 3, Outcome: summary.OutcomeRunning, Flags: []summary.Flag{}}
		if err := s.WriteLive(ctx, LiveRun{Summary: sum, Path: file, Tool: "Write", Wait: wait}); err != nil {
			t.Fatal(err)
		}
	}
	first := func() review.Session {
		t.Helper()
		p, err := s.ListSessions(ctx, review.Query{Sort: review.SortTriage, Limit: 1})
		if err != nil || len(p.Sessions) != 1 {
			t.Fatalf("triage page: %v %v", p.Sessions, err)
		}
		return p.Sessions[0]
	}
	live("")
	if got := first(); got.WorkItemID != "ENG-1" {
		t.Fatalf("a running session that does not wait ranks first: %+v", got.Key())
	}
	live(review.WaitApproval)
	got := first()
	if got.WorkItemID != "ENG-2" || got.Live != review.LiveRunning || got.LiveTool != "Write" || got.LiveWait != review.WaitApproval {
		t.Fatalf("first in triage %v live %q tool %q wait %q, want ENG-2 running in Write waiting for approval",
			got.Key(), got.Live, got.LiveTool, got.LiveWait)
	}
	if _, err := s.FinishInvocation(ctx, id, time.Time{}, 0); err != nil {
		t.Fatal(err)
	}
	mustImport(t, s, root)
	if got = getSession(t, s, review.SessionKey{WorkItemID: "ENG-2", FileName: "work-1-bbbbbb.jsonl"}); got.Live != "" || got.LiveTool != "" {
		t.Fatalf("after the finished file's import: live %q tool %q", got.Live, got.LiveTool)
	}
	if got := first(); got.WorkItemID != "ENG-1" {
		t.Fatalf("the finished run still ranks first: %+v", got.Key())
	}
}
